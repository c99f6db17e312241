// Call trees (core/analysis/call_tree): top-down and bottom-up on a hand-made thread, the GPU time
// launched under each node; and the flame graph's layout of it (widths by share).
#include "analysis/call_tree.h"
#include "support/analysis_trace_fixture.h"
#include "support/test_main.h"

#include <QtTest>

using namespace strata;
using strata::test::GpuTraceFixture;

namespace {

// One thread: A [0,100) > B [10,40) > C [20,30); A [200,300) > B [210,260) > cudaLaunchKernel
// [220,230) launching a kernel of 40 ns. Top-down: A total 200 (count 2), self 200 - (30 + 50) =
// 120; A>B total 80, self 80 - 10 (C) - 10 (the launch) = 60; A>B>C 10; A>B>launch 10, GPU 40.
// Bottom-up (self times): A 120; B 60 (caller A); C 10 (B, A); cudaLaunchKernel 10 (B, A).
std::shared_ptr<const Trace> tree() {
    GpuTraceFixture f;
    f.cpuOp(0, 100, "A");
    f.cpuOp(10, 30, "B");
    f.cpuOp(20, 10, "C");
    f.cpuOp(200, 100, "A");
    f.cpuOp(210, 50, "B");
    f.launch(220, 10, 7);
    f.kernel(0, 7, 240, 40, "k", 7);
    return f.build();
}

const CallNode* child(const CallTree& t, const CallNode& n, const Trace& tr,
                      std::string_view name) {
    for (uint32_t c : n.children)
        if (tr.str(t.nodes[c].name) == name) return &t.nodes[c];
    return nullptr;
}

} // namespace

class TestCallTree : public QObject {
    Q_OBJECT
private slots:
    void topDown() {
        const auto t = tree();
        CallTreeOptions o;
        o.withGpuTime = true;
        const CallTree ct = buildCallTree(*t, o);
        const CallNode& root = ct.nodes[0];
        QCOMPARE(root.total, TimeNs(200));
        const CallNode* a = child(ct, root, *t, "A");
        QVERIFY(a);
        QCOMPARE(a->count, uint64_t(2));
        QCOMPARE(a->total, TimeNs(200));
        QCOMPARE(a->self, TimeNs(120));
        QCOMPARE(a->gpu, TimeNs(40));
        const CallNode* b = child(ct, *a, *t, "B");
        QVERIFY(b);
        QCOMPARE(b->total, TimeNs(80));
        QCOMPARE(b->self, TimeNs(60));
        QCOMPARE(child(ct, *b, *t, "C")->total, TimeNs(10));
        QCOMPARE(child(ct, *b, *t, "cudaLaunchKernel")->gpu, TimeNs(40));
        // A range [150, 400) keeps the second A only.
        o.range = {150, 400};
        const CallTree r = buildCallTree(*t, o);
        QCOMPARE(child(r, r.nodes[0], *t, "A")->total, TimeNs(100));
        QCOMPARE(child(r, r.nodes[0], *t, "A")->count, uint64_t(1));
    }

    void bottomUp() {
        const auto t = tree();
        CallTreeOptions o;
        o.bottomUp = true;
        const CallTree ct = buildCallTree(*t, o);
        const CallNode& root = ct.nodes[0];
        QCOMPARE(root.total, TimeNs(200)); // the self times add up to the root slices' time
        QCOMPARE(child(ct, root, *t, "A")->total, TimeNs(120));
        const CallNode* b = child(ct, root, *t, "B");
        QCOMPARE(b->total, TimeNs(60));
        QCOMPARE(child(ct, *b, *t, "A")->total, TimeNs(60)); // B's self time, called from A
        const CallNode* c = child(ct, root, *t, "C");
        QCOMPARE(c->total, TimeNs(10));
        QCOMPARE(child(ct, *child(ct, *c, *t, "B"), *t, "A")->total, TimeNs(10));
        // Children by total, descending: A (120), B (60), then C and the launch (10 each).
        QCOMPARE(t->str(ct.nodes[root.children[0]].name), std::string_view("A"));
        QCOMPARE(t->str(ct.nodes[root.children[1]].name), std::string_view("B"));
    }
};

STRATA_TEST_GUILESS_MAIN(TestCallTree)
#include "tst_call_tree.moc"
