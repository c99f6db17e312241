// The Call Tree dock "from samples" (issue 45): the choice Calls | Samples shown only for a trace
// with sampled stacks; in Samples mode the tree of the samples (counts in samples, times =
// samples x the period) and the top functions (self, total, shares).
//
// The samples are the hand-drawn stacks of tests/support/stack_samples_fixture.h (python_sample_hz
// 1000: a sample stands for 1 ms). Counted by hand, every thread, top-down (empty stacks left
// out of the tree):
//   main.py(1): main  6 samples (thread 11: c2 c4 c4 c5; thread 12: c3 c1), self 1 (c1)
//     lib/a.py(10): a 4 (c2 c4 c4 c3), <built-in function sleep> 1 (c5)
//   lib/a.py(10): a   2 samples (thread 21: c6 c6), self 2
// Top functions over the 9 samples (one with no frame): self a 5 (c2, c4 x2, c6 x2), b 1 (c3),
// main 1 (c1), sleep 1 (c5); total a 6, main 6, b 3, sleep 1. Order: self, then total, descending.
// Thread 11 alone: main 4, the root's one child.
#include "analysis_views/call_tree_model.h"
#include "analysis_views/call_tree_panel.h"
#include "analysis_views/sample_profile_model.h"
#include "model/build/trace_builder.h"
#include "support/stack_samples_fixture.h"
#include "support/test_main.h"
#include "workspace/navigation.h"
#include "workspace/workspace.h"

#include <QtTest>

using namespace strata;

namespace {

std::shared_ptr<const Trace> sampledTrace() {
    TraceBuilder b;
    test::StackFixture::build(b);
    SliceInput in; // thread 11 has a slice too (its track; the others have samples alone)
    in.start = 500;
    in.dur = 4500;
    in.name = b.intern("step");
    b.addSlice(b.threadTrack(10, 11), in);
    return b.build();
}

constexpr TimeNs kMs = 1000000;

} // namespace

class TestSampleCallTree : public QObject {
    Q_OBJECT

    // Name (full), samples, total ns, self ns of the top-level rows of the dock's tree.
    struct Node {
        QString name;
        qulonglong count;
        qlonglong total, self;
        bool operator==(const Node&) const = default;
    };
    static std::vector<Node> children(const CallTreeModel* m, const QModelIndex& parent = {}) {
        std::vector<Node> out;
        for (int r = 0; r < m->rowCount(parent); ++r) {
            auto v = [&](int col) { return m->data(m->index(r, col, parent), Qt::UserRole); };
            out.push_back({v(CallTreeModel::Name).toString(), v(CallTreeModel::Count).toULongLong(),
                           v(CallTreeModel::Total).toLongLong(),
                           v(CallTreeModel::Self).toLongLong()});
        }
        std::sort(out.begin(), out.end(), [](const Node& a, const Node& b) {
            return a.count != b.count ? a.count > b.count : a.name < b.name;
        });
        return out;
    }

private slots:
    void samplesTreeAndTopFunctions() {
        Workspace ws;
        Navigation nav(&ws);
        CallTreePanel p(&ws, &nav);
        ws.showTrace(sampledTrace(), "samples");
        p.waitForJobs();
        QVERIFY(p.samplesChoiceShown());
        QVERIFY(!p.fromSamples()); // calls first, as before
        p.setFromSamples(true);
        p.waitForJobs();
        QCOMPARE(p.model()->headerData(CallTreeModel::Count, Qt::Horizontal).toString(),
                 QStringLiteral("Samples"));
        const QString main = test::StackFixture::kMain, a = test::StackFixture::kA,
                      b = test::StackFixture::kB, sleep = test::StackFixture::kSleep;
        const std::vector<Node> roots = children(p.model());
        QCOMPARE(roots, (std::vector<Node>{{main, 6, 6 * kMs, 1 * kMs}, {a, 2, 2 * kMs, 2 * kMs}}));
        // main's children.
        QModelIndex mainIndex;
        for (int r = 0; r < p.model()->rowCount(); ++r)
            if (p.model()->data(p.model()->index(r, 0), Qt::UserRole).toString() == main)
                mainIndex = p.model()->index(r, 0);
        QCOMPARE(children(p.model(), mainIndex),
                 (std::vector<Node>{{a, 4, 4 * kMs, 1 * kMs}, {sleep, 1, 1 * kMs, 1 * kMs}}));

        // The top functions, in the profile's order.
        const SampleProfileModel* f = p.profileModel();
        QCOMPARE(f->rowCount(), 4);
        auto cell = [&](int r, int c) { return f->data(f->index(r, c), Qt::UserRole); };
        const QString names[] = {a, main, b, sleep};
        const qulonglong self[] = {5, 1, 1, 1}, total[] = {6, 6, 3, 1};
        for (int r = 0; r < 4; ++r) {
            QCOMPARE(cell(r, SampleProfileModel::Function).toString(), names[r]);
            QCOMPARE(cell(r, SampleProfileModel::Self).toULongLong(), self[r]);
            QCOMPARE(cell(r, SampleProfileModel::Total).toULongLong(), total[r]);
            QCOMPARE(cell(r, SampleProfileModel::SelfShare).toDouble(), double(self[r]) / 9.0);
            QCOMPARE(cell(r, SampleProfileModel::TotalShare).toDouble(), double(total[r]) / 9.0);
        }
        QCOMPARE(f->data(f->index(0, SampleProfileModel::Function)).toString(),
                 QStringLiteral("lib/a.py:10 a"));
        QCOMPARE(f->data(f->index(0, SampleProfileModel::SelfShare)).toString(),
                 QStringLiteral("55.56 %"));

        // Thread 11 alone (its track first in the chooser; then the threads with samples alone,
        // 12 and 21, in (pid, tid) order).
        QCOMPARE(int(p.threads().size()), 3);
        p.setThread(p.threads().front());
        p.waitForJobs();
        QCOMPARE(children(p.model()), (std::vector<Node>{{main, 4, 4 * kMs, 0}}));
        // Thread 21, which has samples and no track: c6 c6.
        p.setThread(p.threads().back());
        p.waitForJobs();
        QCOMPARE(children(p.model()), (std::vector<Node>{{a, 2, 2 * kMs, 2 * kMs}}));

        // Back to the calls (thread 21 still chosen: it has none, so every thread's): the slice
        // tree.
        p.setFromSamples(false);
        p.waitForJobs();
        QCOMPARE(p.model()->headerData(CallTreeModel::Count, Qt::Horizontal).toString(),
                 QStringLiteral("Count"));
        QCOMPARE(p.model()->rowCount(), 1);
        QCOMPARE(p.model()->data(p.model()->index(0, 0), Qt::UserRole).toString(),
                 QStringLiteral("step"));
    }

    // Samples alone, no track at all (a --cpu-sample recording): each sampled thread in the
    // chooser, and one chosen gives its own tree (thread 21: c6 c6).
    void samplesAloneNoTracks() {
        TraceBuilder b;
        test::StackFixture::build(b);
        Workspace ws;
        Navigation nav(&ws);
        CallTreePanel p(&ws, &nav);
        ws.showTrace(b.build(), "samples alone");
        p.waitForJobs();
        QCOMPARE(int(p.threads().size()), 3);
        p.setFromSamples(true);
        p.setThread(p.threads().back());
        p.waitForJobs();
        QCOMPARE(children(p.model()),
                 (std::vector<Node>{{test::StackFixture::kA, 2, 2 * kMs, 2 * kMs}}));
    }

    void noSamplesNoChoice() {
        TraceBuilder b;
        SliceInput in;
        in.start = 0;
        in.dur = 10;
        in.name = b.intern("x");
        b.addSlice(b.threadTrack(1, 2), in);
        Workspace ws;
        Navigation nav(&ws);
        CallTreePanel p(&ws, &nav);
        ws.showTrace(b.build(), "plain");
        p.waitForJobs();
        QVERIFY(!p.samplesChoiceShown());
        QVERIFY(!p.fromSamples());
    }
};

STRATA_TEST_MAIN(TestSampleCallTree)
#include "tst_sample_call_tree.moc"
