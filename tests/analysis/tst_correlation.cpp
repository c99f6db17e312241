// core/analysis/correlation: what is related to a slice, on a hand-built trace where every
// relation is known by construction:
//   thread 1: step [0, 100) > aten::mm [10, 60) (External id 7) > cudaLaunchKernel [20, 30)
//             (correlation 1, External id 7) and cudaMemcpyAsync [40, 45) (correlation 2)
//   stream 7: gemm [50, 80) (correlation 1, External id 7), copy [90, 95) (correlation 2)
//   a v2 flow aten::mm -> gemm ("fwdbwd").
#include "analysis/correlation.h"
#include "model/build/trace_builder.h"
#include "support/test_main.h"

#include <QtTest>

using namespace strata;

namespace {

struct Fixture {
    std::shared_ptr<const Trace> trace;
    SliceRef step, mm, launch, memcpyCall, gemm, copy;
};

Fixture build() {
    TraceBuilder b;
    const TrackId cpu = b.threadTrack(1, 1);
    const TrackId gpu = b.gpuStreamTrack(0, 7, 0, 7);
    auto slice = [&](TrackId t, const char* name, SliceKind k, TimeNs s, TimeNs d, int64_t corr,
                     int64_t ext) {
        SliceInput in;
        in.start = s;
        in.dur = d;
        in.name = b.intern(name);
        in.kind = k;
        in.correlation = corr;
        in.externalId = ext;
        GpuActivity g;
        g.device = 0;
        g.stream = 7;
        if (isGpuKind(k)) in.gpu = &g;
        return b.addSlice(t, in);
    };
    slice(cpu, "step", SliceKind::UserAnnotation, 0, 100, -1, -1);
    const PendingSlice mm = slice(cpu, "aten::mm", SliceKind::CpuOp, 10, 50, -1, 7);
    slice(cpu, "cudaLaunchKernel", SliceKind::CudaRuntime, 20, 10, 1, 7);
    slice(cpu, "cudaMemcpyAsync", SliceKind::CudaRuntime, 40, 5, 2, -1);
    const PendingSlice gemm = slice(gpu, "gemm", SliceKind::Kernel, 50, 30, 1, 7);
    slice(gpu, "copy", SliceKind::Memcpy, 90, 5, 2, -1);
    b.addFlowV2(mm, 99, false, true);
    b.addFlowV2(gemm, 99, true, false);
    Fixture f;
    f.trace = b.build();
    auto find = [&](std::string_view name) {
        for (TrackId t = 0; t < f.trace->tracks().size(); ++t)
            for (SliceIndex i = 0; i < f.trace->track(t).slices.size(); ++i)
                if (f.trace->name({t, i}) == name) return SliceRef{t, i};
        return SliceRef{};
    };
    f.step = find("step");
    f.mm = find("aten::mm");
    f.launch = find("cudaLaunchKernel");
    f.memcpyCall = find("cudaMemcpyAsync");
    f.gemm = find("gemm");
    f.copy = find("copy");
    return f;
}

} // namespace

class TestCorrelation : public QObject {
    Q_OBJECT
private slots:
    void kernel() {
        const Fixture f = build();
        const SliceRelations r = relationsOf(*f.trace, f.gemm);
        QCOMPARE(r.launchedBy, f.launch);
        // The launch's enclosing slices (outermost first), then its External-id peers.
        QCOMPARE(r.launchContext, (std::vector<SliceRef>{f.step, f.mm, f.mm, f.gemm}));
        QCOMPARE(r.sameExternalId, (std::vector<SliceRef>{f.mm, f.launch}));
        QCOMPARE(r.flows.size(), size_t(1));
        QCOMPARE(r.flows[0].other, f.mm);
        QVERIFY(!r.flows[0].outgoing);
        QVERIFY(r.enclosing.empty());
        QVERIFY(r.launched.empty() && r.nestedLaunches.empty());
        // The timeline: launch, its context and the peers, one arrow launch -> gemm.
        const Correlated c = correlatedWith(*f.trace, f.gemm);
        QCOMPARE(c.slices, (std::vector<SliceRef>{f.step, f.mm, f.launch}));
        QCOMPARE(c.arrows.size(), size_t(1));
        QCOMPARE(c.arrows[0], std::make_pair(f.launch, f.gemm));
    }

    void launchCall() {
        const Fixture f = build();
        const SliceRelations r = relationsOf(*f.trace, f.launch);
        QCOMPARE(r.launched, std::vector<SliceRef>{f.gemm});
        QCOMPARE(r.enclosing, (std::vector<SliceRef>{f.mm, f.step})); // innermost first
        QCOMPARE(r.sameExternalId, (std::vector<SliceRef>{f.mm, f.gemm}));
        const Correlated c = correlatedWith(*f.trace, f.launch);
        QCOMPARE(c.slices, (std::vector<SliceRef>{f.step, f.mm, f.gemm}));
    }

    void cpuOpWithNestedLaunches() {
        const Fixture f = build();
        const SliceRelations r = relationsOf(*f.trace, f.mm);
        QCOMPARE(r.nestedLaunches.size(), size_t(2));
        QCOMPARE(r.nestedLaunches[0], std::make_pair(f.launch, f.gemm));
        QCOMPARE(r.nestedLaunches[1], std::make_pair(f.memcpyCall, f.copy));
        QCOMPARE(r.flows.size(), size_t(1));
        QCOMPARE(r.flows[0].other, f.gemm);
        QVERIFY(r.flows[0].outgoing);
        // The timeline: GPU-side peers (gemm) and the nested calls with their ops.
        const Correlated c = correlatedWith(*f.trace, f.mm);
        QCOMPARE(c.slices, (std::vector<SliceRef>{f.launch, f.memcpyCall, f.gemm, f.copy}));
        QCOMPARE(c.arrows.size(), size_t(2));
        // The outer step: both launches nest in it too.
        QCOMPARE(relationsOf(*f.trace, f.step).nestedLaunches.size(), size_t(2));
    }

    void capsAndInvalid() {
        const Fixture f = build();
        QVERIFY(relationsOf(*f.trace, SliceRef{}).enclosing.empty());
        QVERIFY(relationsOf(*f.trace, SliceRef{99, 0}).sameExternalId.empty());
        QCOMPARE(relationsOf(*f.trace, f.launch, 1).sameExternalId.size(), size_t(1));
    }
};

STRATA_TEST_GUILESS_MAIN(TestCorrelation)
#include "tst_correlation.moc"
