// A set's merged trace (io/set/trace_set_merge.h) keeps its parts' stack samples: the callsite
// tables joined, each thread's samples under its merged ids moved by its part's offset (and by a
// later shift), a thread with nothing but samples left out and counted. Counts by hand from
// tests/support/stack_samples_fixture.h.
#include "analysis/samples/sample_profile.h"
#include "io/set/trace_part.h"
#include "io/set/trace_set_merge.h"
#include "support/stack_samples_fixture.h"
#include "support/test_main.h"

#include <QtTest>

using namespace strata;
using strata::test::StackFixture;

namespace {

// The fixture with a slice on threads 11 and 12 (so they have tracks; thread 21 has none).
std::shared_ptr<const Trace> part() {
    TraceBuilder b;
    StackFixture::build(b);
    b.addSlice(b.threadTrack(10, 11), SliceInput{0, 100, b.intern("step")});
    b.addSlice(b.threadTrack(10, 12), SliceInput{0, 100, b.intern("step")});
    return b.build();
}

} // namespace

class TestSampleMerge : public QObject {
    Q_OBJECT

private slots:
    void partsKeepTheirSamples() {
        const auto a = part(), b = part();
        MergeLayout layout;
        const LoadResult m = mergeTraceSet(
            {{a.get(), "rank 0", 0, ""}, {b.get(), "rank 1", 10000, ""}}, "2 ranks", &layout);
        QVERIFY(m.ok());
        const Trace& t = *m.trace;
        const StackSamples& k = t.stackSamples();
        QCOMPARE(k.callsiteCount(), size_t(12));
        // Per part, without thread 21: 7 samples (1 empty). self a 3, main 1, b 1, sleep 1;
        // total main 6, a 4, b 3, sleep 1. Two parts: twice that.
        const SampleProfile p = sampleProfile(t);
        QCOMPARE(p.samples, uint64_t(14));
        QCOMPARE(p.emptySamples, uint64_t(2));
        QCOMPARE(p.threads, 4u);
        QCOMPARE(p.functions.size(), size_t(4));
        QCOMPARE(std::string(t.str(p.functions[0].frame)), std::string(StackFixture::kA));
        QCOMPARE(p.functions[0].self, uint64_t(6));
        QCOMPARE(p.functions[0].total, uint64_t(8));
        QCOMPARE(std::string(t.str(p.functions[1].frame)), std::string(StackFixture::kMain));
        QCOMPARE(p.functions[1].total, uint64_t(12));
        // Every merged sample thread is a thread of the merged trace, with its track.
        TimeNs last = INT64_MIN;
        for (const SampleThread& th : k.threads) {
            QVERIFY(t.thread(th.pid, th.tid) != nullptr);
            last = std::max(last, k.ts[th.end() - 1]);
        }
        QCOMPARE(last, TimeNs(14000)); // rank 1's last sample (4000) moved by its 10000
        QCOMPARE(t.bounds().end, TimeNs(14000));
        bool counted = false;
        for (const std::string& w : t.warnings())
            counted = counted ||
                      w.find("4 stack sample(s) of threads with nothing else") != std::string::npos;
        QVERIFY(counted);
        // Another alignment: rank 1 moved 5000 further.
        const auto shifted = shiftMergedParts(t, layout, {0, 5000});
        QCOMPARE(shifted->bounds().end, TimeNs(19000));
        QCOMPARE(sampleProfile(*shifted).samples, uint64_t(14));
    }
};

STRATA_TEST_GUILESS_MAIN(TestSampleMerge)
#include "tst_sample_merge.moc"
