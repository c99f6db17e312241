// The GPU time breakdown (issue 46, analysis/ops/gpu_time_breakdown.h) on a hand-made device
// where the buckets overlap in every way; every figure worked out by hand in the comments.
//
// Device 0 (ns):                                  bucket
//   K1   [0, 100)    gemm kernel, stream 1        computation
//   N1   [50, 200)   ncclDevKernel_AllReduce, 2   communication (over K1's end)
//   M1   [150, 260)  copy, stream 3               memcpy (under N1, then K2)
//   K2   [240, 300)  elementwise kernel, 1        computation
//   S1   [400, 410)  memset                       computation
//   M2   [500, 520)  copy, stream 3               memcpy (half under N2)
//   N2   [510, 530)  nccl kernel, stream 2        communication
//   R    [600, 650)  __amd_rocclr_copyBuffer      memcpy (a ROCm copy kernel)
//   K3   [650, 700)  kernel touching R            computation
//   Z    [800, 800)  zero-length kernel           computation
// computation = 100 + 60 + 10 + 50 + 0 = 220; communication = 150 + 20 = 170;
// exposed comm = N1 - K1 [100, 200) + N2 = 100 + 20 = 120; memcpy = 110 + 20 + 50 = 180;
// exposed memcpy = M1 - K2 - N1 = [200, 240) 40, M2 - N2 = [500, 510) 10, R 50: 100;
// busy = [0, 300) 300 + 10 + [500, 530) 30 + [600, 700) 100 = 440; total = 800; idle = 360;
// 220 + 120 + 100 + 360 = 800.
#include "analysis/gaps/gpu_gaps.h"
#include "analysis/ops/gpu_time_breakdown.h"
#include "support/analysis_trace_fixture.h"
#include "support/test_main.h"

#include <QtTest>

using namespace strata;
using strata::test::GpuTraceFixture;

namespace {

// The device above; K1, N1 and K3 launched (correlations 1, 2, 3) inside ProfilerStep#1
// [0, 300) when `steps`, K3's launch at 250 although it runs at 650; ProfilerStep#2 [300, 1000).
std::shared_ptr<const Trace> everyOverlap(bool linkSome, bool steps) {
    GpuTraceFixture f;
    f.kernel(0, 1, 0, 100, "ampere_bf16_gemm", linkSome ? 1 : -1);
    f.kernel(0, 2, 50, 150, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", linkSome ? 2 : -1);
    f.memcpy(0, 3, 150, 110);
    f.kernel(0, 1, 240, 60, "vectorized_elementwise_kernel");
    f.memset(0, 1, 400, 10);
    f.memcpy(0, 3, 500, 20);
    f.kernel(0, 2, 510, 20, "ncclKernel_AllGather");
    f.kernel(0, 4, 600, 50, "__amd_rocclr_copyBuffer");
    f.kernel(0, 1, 650, 50, "add_kernel", linkSome ? 3 : -1);
    f.kernel(0, 1, 800, 0, "empty_kernel");
    if (linkSome) {
        f.launch(10, 5, 1);
        f.launch(20, 5, 2);
        f.launch(250, 5, 3);
    }
    if (steps) {
        f.annotation(0, 300, "ProfilerStep#1");
        f.annotation(300, 700, "ProfilerStep#2");
    }
    return f.build();
}

struct Want {
    uint64_t ops;
    TimeNs total, computation, communication, exposedComm, memcpy, exposedMemcpy, busy, idle;
};

void check(const GpuTimeSplit& s, const Want& w) {
    QCOMPARE(s.ops, w.ops);
    QCOMPARE(s.total, w.total);
    QCOMPARE(s.computation, w.computation);
    QCOMPARE(s.communication, w.communication);
    QCOMPARE(s.exposedComm, w.exposedComm);
    QCOMPARE(s.memcpy, w.memcpy);
    QCOMPARE(s.exposedMemcpy, w.exposedMemcpy);
    QCOMPARE(s.busy, w.busy);
    QCOMPARE(s.idle, w.idle);
    QCOMPARE(s.computation + s.exposedComm + s.exposedMemcpy + s.idle, s.total);
}

} // namespace

class TstGpuTimeBreakdown : public QObject {
    Q_OBJECT
private slots:
    void everyOverlapOnOneDevice() {
        const auto trace = everyOverlap(false, false);
        const GpuTimeBreakdown b = gpuTimeBreakdown(*trace);
        QCOMPARE(b.devices.size(), size_t(1));
        QCOMPARE(b.devices[0].device, 0);
        check(b.devices[0].split, {10, 800, 220, 170, 120, 180, 100, 440, 360});
        QCOMPARE(b.unlinkedLeftOut, uint64_t(0));
        QVERIFY(b.devices[0].steps.empty());
    }

    // Busy and idle are the device's busy and idle (one number, gpu_gaps.h).
    void busyIsTheDevicesBusy() {
        const auto trace = everyOverlap(false, false);
        const GpuTimeBreakdown b = gpuTimeBreakdown(*trace);
        const GpuGaps g = computeGpuGaps(*trace, 10);
        QCOMPARE(g.byDevice.size(), size_t(1));
        QCOMPARE(b.devices[0].split.busy, g.byDevice[0].busy);
        QCOMPARE(b.devices[0].split.idle, g.byDevice[0].idle);
    }

    // --ops linked: K1 and N1 and K3 only. computation K1 100 + K3 50 = 150; comm N1 150,
    // exposed [100, 200) 100; busy [0, 200) + [650, 700) = 250; total 700; idle 450.
    void linkedOpsOnly() {
        const auto trace = everyOverlap(true, false);
        const GpuTimeBreakdown b = gpuTimeBreakdown(*trace, BreakdownOps::Linked);
        QCOMPARE(b.unlinkedLeftOut, uint64_t(7));
        QCOMPARE(b.devices.size(), size_t(1));
        check(b.devices[0].split, {3, 700, 150, 150, 100, 0, 0, 250, 450});
        // All ops: the same as without links.
        check(gpuTimeBreakdown(*trace).devices[0].split,
              {10, 800, 220, 170, 120, 180, 100, 440, 360});
    }

    // Step 1 holds what was launched in it (K1, N1, K3) and the unlaunched ops that start in it
    // (M1, K2): computation 100 + 60 + 50 = 210, comm 150, exposed 100, memcpy 110, exposed
    // [200, 240) 40, busy [0, 300) + [650, 700) = 350, total 700, idle 350. Step 2: S1, M2, N2,
    // R, Z: computation 10, comm 20, exposed 20, memcpy 70, exposed 10 + 50 = 60, busy 10 + 30 +
    // 50 = 90, total 800 - 400 = 400, idle 310.
    void stepsHoldWhatTheyLaunched() {
        const auto trace = everyOverlap(true, true);
        const GpuTimeBreakdown b = gpuTimeBreakdown(*trace);
        QCOMPARE(b.devices.size(), size_t(1));
        const auto& steps = b.devices[0].steps;
        QCOMPARE(steps.size(), size_t(2));
        QCOMPARE(steps[0].step.name, std::string("ProfilerStep#1"));
        check(steps[0].split, {5, 700, 210, 150, 100, 110, 40, 350, 350});
        QCOMPARE(steps[1].step.name, std::string("ProfilerStep#2"));
        check(steps[1].split, {5, 400, 10, 20, 20, 70, 60, 90, 310});
    }

    // A range holds the ops that start in it: [400, 900) has S1, M2, N2, R, K3, Z: computation
    // 10 + 50 + 0 = 60, comm 20, exposed 20, memcpy 70, exposed 10 + 50 = 60, busy 10 + 30 +
    // 100 = 140, total 400, idle 260.
    void rangeHoldsWhatStartsInIt() {
        const auto trace = everyOverlap(false, false);
        const TimeNs origin = trace->bounds().start;
        const GpuTimeBreakdown b =
            gpuTimeBreakdown(*trace, BreakdownOps::All, {origin + 400, origin + 900});
        QCOMPARE(b.devices.size(), size_t(1));
        check(b.devices[0].split, {6, 400, 60, 20, 20, 70, 60, 140, 260});
    }

    // Each device on its own: device 1's kernel [1000, 1100) does not fill device 0's idle.
    void devicesApart() {
        GpuTraceFixture f;
        f.kernel(0, 1, 0, 100, "gemm");
        f.kernel(0, 1, 300, 100, "gemm");
        f.kernel(1, 1, 100, 200, "ncclKernel");
        const auto trace = f.build();
        const GpuTimeBreakdown b = gpuTimeBreakdown(*trace);
        QCOMPARE(b.devices.size(), size_t(2));
        QCOMPARE(b.devices[0].device, 0);
        check(b.devices[0].split, {2, 400, 200, 0, 0, 0, 0, 200, 200});
        QCOMPARE(b.devices[1].device, 1);
        check(b.devices[1].split, {1, 200, 0, 200, 200, 0, 0, 200, 0});
    }

    void noGpuWork() {
        GpuTraceFixture f;
        f.cpuOp(0, 100);
        const auto trace = f.build();
        QVERIFY(gpuTimeBreakdown(*trace).devices.empty());
    }
};

STRATA_TEST_GUILESS_MAIN(TstGpuTimeBreakdown)
#include "tst_gpu_time_breakdown.moc"
