// HTA's idle breakdown (analysis/gaps/idle_breakdown.h) and launch queue
// (analysis/ops/launch_queue.h) on a hand-made trace, every figure worked out by hand below.
//
// Device 0, stream 7 (ns; kernel delay 30000 ns, HTA's default 30 µs):
//   op  interval             launch                  idle category
//   K1  [0, 10000)           cudaLaunchKernel -5000  (first: no interval)
//   K2  [12000, 20000)       cudaLaunchKernel 11000  host wait 2000 (11000 > K1's end 10000)
//   K3  [25000, 30000)       cudaLaunchKernel 1000   kernel wait 5000 (< 30000)
//   M1  [70000, 80000) copy  cudaMemcpyAsync 2000    other 40000 (>= 30000)
//   S1  [80000, 81000) set   none                    kernel wait 0 (no launch: never host wait)
//   K4  [130000, 140000)     cudaGraphLaunch 3000    other 49000
//   K5  [135000, 150000)     cudaLaunchKernel 4000   kernel wait -5000 (overlaps K4, summed)
//   K6  [160000, 170000)     cudaLaunchKernel 150000 kernel wait 10000 (launch = K5's end:
//                                                    not after it)
//   K7  [200000, 210000)     cudaLaunchKernel 5000   other 30000 (not < 30000)
//   host wait 2000 (1), kernel wait 5000 + 0 - 5000 + 10000 = 10000 (4), other 40000 + 49000 +
//   30000 = 119000 (3); 9 ops, 1 without a launch (S1).
//   Queue (the listed launches; K4's cudaGraphLaunch and S1 are not counted), the length after
//   each change: -5000 1, 0 0, 1000 1, 2000 2, 4000 3, 5000 4, 11000 5, 12000 4, 25000 3,
//   70000 2, 135000 1, 150000 2, 160000 1, 200000 0: 7 launches, 14 points, max 5 held
//   [11000, 12000) = 1000; at >= 3: [4000, 70000) = 66000.
// Device 0, stream 8: one kernel [60000, 61000) launched at 50000: no interval; queue 1 then 0,
//   max 1 for 10000.
// Device 1, stream 7 (the same stream id on another device is another stream):
//   A [0, 1000) launched -100; B [1500, 2500) launched 1200: host wait 500; C [3000, 3500)
//   launched 1500 (= B's start): kernel wait 500. Queue: -100 1, 0 0, 1200 1, 1500 0 (B's start
//   first), 1500 1 (C's launch), 3000 0: max 1 (never 2), held 100 + 300 + 1500 = 1900.
#include "analysis/gaps/idle_breakdown.h"
#include "analysis/ops/hta_conventions.h"
#include "analysis/ops/launch_queue.h"
#include "support/analysis_trace_fixture.h"
#include "support/test_main.h"

#include <QtTest>

using namespace strata;
using strata::test::GpuTraceFixture;

namespace {

// `steps` ProfilerStep#N slices on the launching thread: #1 [-10000, 100000), #2 from 100000.
std::shared_ptr<const Trace> handMade(int steps = 0) {
    GpuTraceFixture f;
    if (steps >= 1) f.annotation(-10000, 110000, "ProfilerStep#1");
    if (steps >= 2) f.annotation(100000, 120000, "ProfilerStep#2");
    f.launch(-5000, 100, 1);
    f.kernel(0, 7, 0, 10000, "K1", 1);
    f.launch(11000, 100, 2);
    f.kernel(0, 7, 12000, 8000, "K2", 2);
    f.launch(1000, 100, 3);
    f.kernel(0, 7, 25000, 5000, "K3", 3);
    f.launch(2000, 100, 4, "cudaMemcpyAsync");
    f.op(SliceKind::Memcpy, 0, 7, 70000, 10000, "Memcpy HtoD", 4);
    f.memset(0, 7, 80000, 1000);
    f.launch(3000, 100, 5, "cudaGraphLaunch");
    f.kernel(0, 7, 130000, 10000, "K4", 5);
    f.launch(4000, 100, 6);
    f.kernel(0, 7, 135000, 15000, "K5", 6);
    f.launch(150000, 100, 7);
    f.kernel(0, 7, 160000, 10000, "K6", 7);
    f.launch(5000, 100, 8);
    f.kernel(0, 7, 200000, 10000, "K7", 8);
    f.launch(50000, 100, 9);
    f.kernel(0, 8, 60000, 1000, "K8", 9);
    f.launch(-100, 50, 10);
    f.kernel(1, 7, 0, 1000, "A", 10);
    f.launch(1200, 50, 11);
    f.kernel(1, 7, 1500, 1000, "B", 11);
    f.launch(1500, 50, 12);
    f.kernel(1, 7, 3000, 500, "C", 12);
    return f.build();
}

struct WantIdle {
    int32_t device;
    int64_t stream;
    uint64_t ops, withoutLaunch;
    TimeNs hostWait, kernelWait, other;
    uint64_t hostWaitN, kernelWaitN, otherN;
};

void check(const StreamIdle& s, const WantIdle& w) {
    QCOMPARE(s.device, w.device);
    QCOMPARE(s.stream, w.stream);
    QCOMPARE(s.ops, w.ops);
    QCOMPARE(s.withoutLaunch, w.withoutLaunch);
    QCOMPARE(s.split.hostWait, w.hostWait);
    QCOMPARE(s.split.kernelWait, w.kernelWait);
    QCOMPARE(s.split.other, w.other);
    QCOMPARE(s.split.hostWaitIntervals, w.hostWaitN);
    QCOMPARE(s.split.kernelWaitIntervals, w.kernelWaitN);
    QCOMPARE(s.split.otherIntervals, w.otherN);
}

void checkSeries(const StreamQueue& q, const std::vector<QueuePoint>& want) {
    QCOMPARE(q.series.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
        QCOMPARE(q.series[i].time, want[i].time);
        QCOMPARE(q.series[i].length, want[i].length);
    }
}

} // namespace

class TstIdleBreakdown : public QObject {
    Q_OBJECT
private slots:
    void idlePerStreamUnderHtasRule() {
        const auto trace = handMade();
        const IdleBreakdown b = idleBreakdown(*trace, collectGpuOps(*trace));
        QCOMPARE(b.kernelDelay, TimeNs(30000));
        QCOMPARE(b.streams.size(), size_t(3));
        check(b.streams[0], {0, 7, 9, 1, 2000, 10000, 119000, 1, 4, 3});
        check(b.streams[1], {0, 8, 1, 0, 0, 0, 0, 0, 0, 0});
        check(b.streams[2], {1, 7, 3, 0, 500, 500, 0, 1, 1, 0});
    }

    // A delay of 0: only a negative interval (K5) is still under it; S1's 0 and K3's, K6's
    // intervals become other: 5000 + 40000 + 0 + 49000 + 10000 + 30000 = 134000 (6).
    void kernelDelaySetsTheKernelWait() {
        const auto trace = handMade();
        const IdleBreakdown b = idleBreakdown(*trace, collectGpuOps(*trace), 0);
        check(b.streams[0], {0, 7, 9, 1, 2000, -5000, 134000, 1, 1, 6});
        check(b.streams[2], {1, 7, 3, 0, 500, 0, 500, 1, 0, 1});
    }

    void queueLengthOverTime() {
        const auto trace = handMade();
        const LaunchQueue q = launchQueue(*trace, collectGpuOps(*trace), 3);
        QCOMPARE(q.limit, int64_t(3));
        QCOMPARE(q.notLaunched, uint64_t(2)); // S1 (no launch) and K4 (cudaGraphLaunch)
        QCOMPARE(q.streams.size(), size_t(3));
        const StreamQueue& s7 = q.streams[0];
        QCOMPARE(s7.device, 0);
        QCOMPARE(s7.stream, int64_t(7));
        QCOMPARE(s7.launches, uint64_t(7));
        checkSeries(s7, {{-5000, 1},
                         {0, 0},
                         {1000, 1},
                         {2000, 2},
                         {4000, 3},
                         {5000, 4},
                         {11000, 5},
                         {12000, 4},
                         {25000, 3},
                         {70000, 2},
                         {135000, 1},
                         {150000, 2},
                         {160000, 1},
                         {200000, 0}});
        QCOMPARE(s7.maxLength, int64_t(5));
        QCOMPARE(s7.timeAtMax, TimeNs(1000));
        QCOMPARE(s7.timeAtLimit, TimeNs(66000));
        const StreamQueue& s8 = q.streams[1];
        QCOMPARE(s8.stream, int64_t(8));
        checkSeries(s8, {{50000, 1}, {60000, 0}});
        QCOMPARE(s8.maxLength, int64_t(1));
        QCOMPARE(s8.timeAtMax, TimeNs(10000));
        QCOMPARE(s8.timeAtLimit, TimeNs(0));
    }

    // At equal times an op's start comes before a launch: the length never reads 2.
    void startsBeforeLaunchesAtEqualTimes() {
        const auto trace = handMade();
        const LaunchQueue q = launchQueue(*trace, collectGpuOps(*trace));
        QCOMPARE(q.limit, int64_t(1024));
        const StreamQueue& d1 = q.streams[2];
        QCOMPARE(d1.device, 1);
        QCOMPARE(d1.stream, int64_t(7));
        checkSeries(d1, {{-100, 1}, {0, 0}, {1200, 1}, {1500, 0}, {1500, 1}, {3000, 0}});
        QCOMPARE(d1.maxLength, int64_t(1));
        QCOMPARE(d1.timeAtMax, TimeNs(1900));
        QCOMPARE(q.streams[0].timeAtLimit, TimeNs(0));
    }

    void launchNamesAreHtas() {
        for (const char* n :
             {"cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx",
              "cudaMemcpyAsync", "cudaMemsetAsync", "hipLaunchKernel", "hipExtModuleLaunchKernel",
              "hipMemcpyAsync", "hipMemsetAsync", "hipMemcpyWithStream"})
            QVERIFY2(isQueueLaunchName(n), n);
        for (const char* n : {"cudaGraphLaunch", "cudaMemcpy", "cudaLaunchCooperativeKernel", ""})
            QVERIFY2(!isQueueLaunchName(n), n);
    }

    // HTA's loader with two steps keeps the ops launched before ProfilerStep#2 starts (100000):
    // S1 (no launch) and K6 (launched at 150000) are left out. Stream 7 is then K1 K2 K3 M1 K4
    // K5 K7: host wait K2 2000; kernel wait K3 5000, K5 -5000 = 0 (2); other M1 40000, K4
    // 130000 - 80000 = 50000, K7 200000 - 150000 = 50000 = 140000 (3).
    void htaKeepsWhatTheProfiledStepsLaunched() {
        const auto trace = handMade(2);
        GpuOpList ops = collectGpuOps(*trace);
        const HtaApplied kept = applyHtaConventions(*trace, ops, {true, false});
        QVERIFY(kept.stepsApplied);
        QCOMPARE(kept.lastStepStart, TimeNs(100000));
        QCOMPARE(kept.dropped, uint64_t(2));
        const IdleBreakdown b = idleBreakdown(*trace, ops);
        check(b.streams[0], {0, 7, 7, 0, 2000, 0, 140000, 1, 2, 3});
        // One step: HTA keeps everything.
        const auto one = handMade(1);
        GpuOpList all = collectGpuOps(*one);
        const HtaApplied none = applyHtaConventions(*one, all, {true, false});
        QVERIFY(!none.stepsApplied);
        QCOMPARE(none.dropped, uint64_t(0));
        QCOMPARE(all.ops.size(), size_t(13));
    }

    // HTA's loader cuts fractional µs: starts up, ends down, launches up. Stream 5 of device 0:
    // K1 [100, 2900) launched 0, K2 [3500, 5200) launched 2950, K3 [5200, 5800) launched 100.
    // Exact: host wait 600 (2950 > 2900), kernel wait 0. In whole µs: K1 [1000, 2000), K2
    // [4000, 5000) launched 3000 > 2000: host wait 2000; K3 [6000, 5000) (ends before it starts,
    // as HTA keeps it) launched 1000: kernel wait 6000 - 5000 = 1000. Queue in µs: 0 1, 1000 0,
    // 1000 1, 3000 2, 4000 1, 6000 0: max 2 for 1000.
    void htaCutsToWholeMicroseconds() {
        GpuTraceFixture f;
        f.launch(0, 10, 1);
        f.kernel(0, 5, 100, 2800, "K1", 1);
        f.launch(2950, 10, 2);
        f.kernel(0, 5, 3500, 1700, "K2", 2);
        f.launch(100, 10, 3);
        f.kernel(0, 5, 5200, 600, "K3", 3);
        const auto trace = f.build();
        const GpuOpList exact = collectGpuOps(*trace);
        check(idleBreakdown(*trace, exact).streams[0], {0, 5, 3, 0, 600, 0, 0, 1, 1, 0});
        GpuOpList ops = collectGpuOps(*trace);
        const HtaApplied applied = applyHtaConventions(*trace, ops, {false, true});
        QVERIFY(!applied.stepsApplied);
        QCOMPARE(applied.dropped, uint64_t(0));
        QCOMPARE(ops.ops[2].start, TimeNs(6000));
        QCOMPARE(ops.ops[2].end, TimeNs(5000));
        const IdleBreakdown b =
            idleBreakdown(*trace, ops, IdleBreakdown::kDefaultKernelDelay, true);
        check(b.streams[0], {0, 5, 3, 0, 2000, 1000, 0, 1, 1, 0});
        const LaunchQueue q = launchQueue(*trace, ops, LaunchQueue::kDefaultLimit, true);
        checkSeries(q.streams[0], {{0, 1}, {1000, 0}, {1000, 1}, {3000, 2}, {4000, 1}, {6000, 0}});
        QCOMPARE(q.streams[0].maxLength, int64_t(2));
        QCOMPARE(q.streams[0].timeAtMax, TimeNs(1000));
        // Rounding below zero too.
        QCOMPARE(htaStart(-1500, true), TimeNs(-1000));
        QCOMPARE(htaEnd(0, -1500, true), TimeNs(-2000));
        QCOMPARE(htaStart(-1000, true), TimeNs(-1000));
        QCOMPARE(htaStart(1, true), TimeNs(1000));
        QCOMPARE(htaEnd(0, 1999, true), TimeNs(1000));
        QCOMPARE(htaEnd(500, 1999, false), TimeNs(1999));
        // As HTA's doubles hold them: 1712195495800675.001 µs parses to ...675.0 (a double's
        // step there is 0.25), whose ceil is 675; + 2.100 µs -> ...677.1, floor 677.
        QCOMPARE(htaStart(1712195495800675001, true), TimeNs(1712195495800675000));
        QCOMPARE(htaEnd(1712195495800675001, 1712195495800677101, true),
                 TimeNs(1712195495800677000));
        QCOMPARE(htaStart(1712195495800675200, true), TimeNs(1712195495800676000));
        QCOMPARE(htaStart(1, false), TimeNs(1));
    }

    void noOpsNoStreams() {
        GpuTraceFixture f;
        f.cpuOp(0, 100);
        const auto trace = f.build();
        QVERIFY(idleBreakdown(*trace, collectGpuOps(*trace)).streams.empty());
        QVERIFY(launchQueue(*trace, collectGpuOps(*trace)).streams.empty());
    }
};

STRATA_TEST_GUILESS_MAIN(TstIdleBreakdown)
#include "tst_idle_breakdown.moc"
