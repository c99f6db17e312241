// The analyses of sampled stacks (core/analysis/samples/) on the hand-built trace of
// tests/support/stack_samples_fixture.h: per function self and total samples and their shares, for
// all threads, one thread and a range; the CallTree top-down and bottom-up; the period; the stack
// at a sample. Every expected number counted by hand from the fixture's table.
#include "analysis/samples/sample_call_tree.h"
#include "analysis/samples/sample_period.h"
#include "analysis/samples/sample_profile.h"
#include "analysis/trace_analysis.h"
#include "support/stack_samples_fixture.h"
#include "support/test_main.h"

#include <QtTest>

using namespace strata;
using strata::test::StackFixture;

namespace {

std::shared_ptr<const Trace> fixtureTrace(bool withRate = true) {
    TraceBuilder b;
    StackFixture::build(b);
    if (!withRate) b.setMetadata("python_sample_hz", "not a rate");
    return b.build();
}

// name, self, total
using Fn = std::tuple<std::string, uint64_t, uint64_t>;
std::vector<Fn> functionsOf(const Trace& t, const SampleProfile& p) {
    std::vector<Fn> out;
    for (const SampleFunction& f : p.functions) {
        out.emplace_back(std::string(t.str(f.frame)), f.self, f.total);
        // The shares are the counts over every selected sample.
        if (f.selfShare != double(f.self) / double(p.samples) ||
            f.totalShare != double(f.total) / double(p.samples))
            out.emplace_back("bad share", 0, 0);
    }
    return out;
}

// The child of node `n` named `name`, or UINT32_MAX.
uint32_t child(const Trace& t, const CallTree& tree, uint32_t n, const char* name) {
    for (const uint32_t c : tree.nodes[n].children)
        if (t.str(tree.nodes[c].name) == name) return c;
    return UINT32_MAX;
}

constexpr TimeNs kMs = 1'000'000;

} // namespace

class TestSampleProfile : public QObject {
    Q_OBJECT

private slots:
    void allThreads() {
        // Callsite counts: c0 1, c1 1, c2 1, c3 1, c4 2, c5 1, c6 2 (9 samples).
        // self: a = c2 + c4 + c6 = 5; main = c1 = 1; b = c3 = 1; sleep = c5 = 1.
        // total: main = c1 c2 c3 c4 c5 = 6; a = c2 c3 c4 c6 = 6 (c4's two a's once); b = c3 c4 = 3;
        // sleep = 1. Ties on self ordered by total.
        const auto t = fixtureTrace();
        const SampleProfile p = sampleProfile(*t);
        QCOMPARE(p.samples, uint64_t(9));
        QCOMPARE(p.emptySamples, uint64_t(1));
        QCOMPARE(p.threads, 3u);
        QCOMPARE(p.period, kMs);
        const std::vector<Fn> want = {{StackFixture::kA, 5, 6},
                                      {StackFixture::kMain, 1, 6},
                                      {StackFixture::kB, 1, 3},
                                      {StackFixture::kSleep, 1, 1}};
        QCOMPARE(functionsOf(*t, p), want);
        QCOMPARE(p.functions[0].selfShare, 5.0 / 9.0);
        QCOMPARE(p.functions[1].totalShare, 6.0 / 9.0);
    }

    void oneThread() {
        // tid 11: c2, c4, c4, c5. self: a 3, sleep 1; total: main 4, a 3, b 2, sleep 1.
        const auto t = fixtureTrace();
        SampleSelection s;
        s.tid = 11;
        const SampleProfile p = sampleProfile(*t, s);
        QCOMPARE(p.samples, uint64_t(4));
        QCOMPARE(p.emptySamples, uint64_t(0));
        QCOMPARE(p.threads, 1u);
        const std::vector<Fn> want = {{StackFixture::kA, 3, 3},
                                      {StackFixture::kSleep, 1, 1},
                                      {StackFixture::kMain, 0, 4},
                                      {StackFixture::kB, 0, 2}};
        QCOMPARE(functionsOf(*t, p), want);
        s.pid = 20; // (pid 20, tid 11): no such thread
        QCOMPARE(sampleProfile(*t, s).samples, uint64_t(0));
    }

    void aRange() {
        // [1000, 2500): t 1000 (c2, c6), 1500 (c3), 2000 (c4, c6); 2500 is out.
        // self: a = c2 + c6 + c4 + c6 = 4, b = c3 = 1; total: a 5, main 3, b 2.
        const auto t = fixtureTrace();
        SampleSelection s;
        s.range = {1000, 2500};
        const SampleProfile p = sampleProfile(*t, s);
        QCOMPARE(p.samples, uint64_t(5));
        QCOMPARE(p.threads, 3u);
        const std::vector<Fn> want = {
            {StackFixture::kA, 4, 5}, {StackFixture::kB, 1, 2}, {StackFixture::kMain, 0, 3}};
        QCOMPARE(functionsOf(*t, p), want);
        s.kind = uint8_t(StackKind::Native); // every sample is a Python one
        QCOMPARE(sampleProfile(*t, s).samples, uint64_t(0));
    }

    void callTreeTopDown() {
        // Period 1 ms (python_sample_hz 1000). main: c1 c2 c3 c4 c4 c5 = 6, self c1 = 1;
        // main > a: 4, self 1; main > a > b: 3, self 1; main > a > b > a: 2, self 2;
        // main > sleep: 1, self 1; the root a (tid 21): 2, self 2.
        const auto t = fixtureTrace();
        const CallTree tree = buildSampleCallTree(*t);
        QVERIFY(!tree.bottomUp);
        QCOMPARE(tree.nodes[0].total, 8 * kMs); // the empty stack is left out
        QCOMPARE(tree.nodes[0].children.size(), size_t(2));
        const uint32_t main = child(*t, tree, 0, StackFixture::kMain);
        QVERIFY(main != UINT32_MAX);
        QCOMPARE(tree.nodes[0].children[0], main); // by total, descending
        QCOMPARE(tree.nodes[main].count, uint64_t(6));
        QCOMPARE(tree.nodes[main].total, 6 * kMs);
        QCOMPARE(tree.nodes[main].self, 1 * kMs);
        const uint32_t a = child(*t, tree, main, StackFixture::kA);
        QCOMPARE(tree.nodes[a].count, uint64_t(4));
        QCOMPARE(tree.nodes[a].self, 1 * kMs);
        const uint32_t b = child(*t, tree, a, StackFixture::kB);
        QCOMPARE(tree.nodes[b].count, uint64_t(3));
        const uint32_t a2 = child(*t, tree, b, StackFixture::kA);
        QCOMPARE(tree.nodes[a2].count, uint64_t(2));
        QCOMPARE(tree.nodes[a2].self, 2 * kMs);
        QCOMPARE(tree.nodes[a2].depth, 4u);
        QCOMPARE(tree.nodes[child(*t, tree, main, StackFixture::kSleep)].total, 1 * kMs);
        const uint32_t rootA = child(*t, tree, 0, StackFixture::kA);
        QCOMPARE(tree.nodes[rootA].count, uint64_t(2));
        QCOMPARE(tree.nodes[rootA].self, 2 * kMs);
        QCOMPARE(tree.nodes.size(), size_t(7)); // root + 6 paths
    }

    void callTreeBottomUp() {
        // Leaves: main 1 (c1), a 5 (c2, c4 x2, c6 x2), b 1 (c3), sleep 1 (c5).
        // a's callers: main 1 (c2), b 2 (c4); a < b < a < main 2.
        const auto t = fixtureTrace();
        SampleTreeOptions o;
        o.bottomUp = true;
        o.period = 10; // given: no rate looked up
        const CallTree tree = buildSampleCallTree(*t, o);
        QVERIFY(tree.bottomUp);
        const uint32_t a = child(*t, tree, 0, StackFixture::kA);
        QCOMPARE(tree.nodes[0].children[0], a);
        QCOMPARE(tree.nodes[a].count, uint64_t(5));
        QCOMPARE(tree.nodes[a].self, TimeNs(50));
        QCOMPARE(tree.nodes[a].total, TimeNs(50));
        QCOMPARE(tree.nodes[child(*t, tree, a, StackFixture::kMain)].count, uint64_t(1));
        const uint32_t ab = child(*t, tree, a, StackFixture::kB);
        QCOMPARE(tree.nodes[ab].count, uint64_t(2));
        const uint32_t aba = child(*t, tree, ab, StackFixture::kA);
        QCOMPARE(tree.nodes[child(*t, tree, aba, StackFixture::kMain)].count, uint64_t(2));
        QCOMPARE(tree.nodes[child(*t, tree, 0, StackFixture::kMain)].self, TimeNs(10));
        QCOMPARE(tree.nodes[child(*t, tree, 0, StackFixture::kSleep)].count, uint64_t(1));
        QCOMPARE(tree.nodes[0].total, TimeNs(80));
    }

    void periodFromTheSamplesWithoutARate() {
        // Intervals: tid 11: 1000 x3; tid 12: 1000 x2; tid 21: 1000: the median is 1000 ns.
        const auto t = fixtureTrace(false);
        QCOMPARE(samplePeriod(*t), TimeNs(1000));
        TraceBuilder b;
        b.setMetadata("python", "sample=250 (CPython 3.12)");
        b.addStackSample(1, 1, 0, kNoCallsite, 0);
        QCOMPARE(samplePeriod(*b.build()), TimeNs(4'000'000));
    }

    void throughTheTraceAnalysis() {
        // The views' way in: a thread track (pid 10, tid 11: it has a slice) and a range.
        TraceBuilder b;
        StackFixture::build(b);
        const TrackId track = b.threadTrack(10, 11);
        b.addSlice(track, SliceInput{0, 5000, b.intern("step")});
        const TraceAnalysis all(b.build());
        QCOMPARE(all.sampleProfile(UINT32_MAX).samples, uint64_t(9));
        const SampleProfile& one = all.sampleProfile(0);
        QCOMPARE(one.samples, uint64_t(4)); // c2 c4 c4 c5
        QCOMPARE(one.functions[0].self, uint64_t(3));
        QCOMPARE(&all.sampleProfile(0), &one); // computed once
        const CallTree& tree = all.sampleCallTree(0, false);
        QCOMPARE(tree.nodes[0].total, 4 * kMs);
        QCOMPARE(all.sampleCallTree(0, true).nodes[0].total, 4 * kMs);
        TraceBuilder b2;
        StackFixture::build(b2);
        const TraceAnalysis ranged(b2.build(), {}, TimeRange{2000, 3500}); // 2000 (x2), 2500, 3000
        QCOMPARE(ranged.sampleProfile(UINT32_MAX).samples, uint64_t(4));
        QCOMPARE(ranged.sampleProfile(UINT32_MAX).emptySamples, uint64_t(1));
    }

    void stackAtASample() {
        const auto t = fixtureTrace();
        const StackSamples& k = t->stackSamples();
        const SampleThread* th = k.thread(10, 11);
        QVERIFY(th);
        // By time: 1000 c2, 2000 c4 (handed over after 3000), 3000 c4, 4000 c5.
        std::vector<std::string> names;
        for (const StringId f : k.stackAt(*th, 1)) names.emplace_back(t->str(f));
        const std::vector<std::string> want = {StackFixture::kMain, StackFixture::kA,
                                               StackFixture::kB, StackFixture::kA};
        QCOMPARE(names, want);
        QCOMPARE(k.ts[th->first + 1], TimeNs(2000));
        QVERIFY(k.stackAt(*k.thread(10, 12), 1).empty()); // the empty stack
        const auto [first, last] = k.rowsIn(*th, TimeRange{2000, 4000});
        QCOMPARE(last - first, uint64_t(2));
    }
};

STRATA_TEST_GUILESS_MAIN(TestSampleProfile)
#include "tst_sample_profile.moc"
