// HTA's critical path (analysis/critical_path/critical_path.h) on hand-made Kineto traces read as
// a user's file is, each path and weight worked out by hand below (µs). The real traces are
// checked edge by edge against HTA itself by check_critical_path.py.
//
// Launches (thread 1): a step with two ops, each launching a kernel on stream 7, then a
// cudaStreamSynchronize (blocking) and its Stream Sync:
//   step [0, 100]: mm [5, 25] > L1 cudaLaunchKernel [10, 15] -> K1 [20, 60]
//                  add [30, 40] > L2 cudaLaunchKernel [32, 36] -> K2 [62, 70]
//                  S cudaStreamSynchronize [45, 90], Stream Sync on stream 7 [45, 90]
//   K1: queue 1 at L1, 0 at its start, nothing before it: launch delay L1.s -> K1.s = 10.
//   K2: queue 1 then 0, but K1 ended (60) after L2 (32): kernel-kernel K1.e -> K2.s = 2.
//   Stream Sync: K2.e -> S.e (0). S's own time is 0 (a blocking call).
//   Path: step.s -5-> mm.s -5-> L1.s -10-> K1.s -40-> K1.e -2-> K2.s -8-> K2.e -0-> S.e
//   -10-> step.e: 80 µs (the CPU alone: 5+5+5+10+5+2+4+4+5+0+10 = 55). Bounds: cpu 5+5+10 =
//   20 (step, mm, step), compute 48, launch 10, kernel-kernel 2, sync 0.
// Event sync (thread 1, all top level): A cudaLaunchKernel [0, 5] -> KA stream 7 [10, 110];
//   cudaEventRecord R [6, 8] (corr 12); cudaStreamWaitEvent W [9, 11] with a Stream Wait Event
//   on stream 8 waiting on R's event on stream 7; B cudaLaunchKernel [12, 16] -> KB stream 8
//   [112, 120]; D cudaDeviceSynchronize [20, 130] with its Context Sync.
//   KA: launch delay 10. W: R's stream 7's last launch before R is A -> KA; the next launch on
//   stream 8 from thread 1 after W is B -> KB waits on KA: sync KA.e -> KB.s. KB: its sync ended
//   (110) after B (12): no launch delay, no previous op: only the 0-weight launch edge. The
//   Context Sync: the last ops of both streams -> D.e.
//   Path: A.s -10-> KA.s -100-> KA.e -0-> KB.s -8-> KB.e = 118; D.e is as far (KB.e -0-> D.e)
//   but later in topological order, and the path ends at the first node of greatest distance
//   (networkx's dag_longest_path, as HTA).
#include "analysis/critical_path/critical_path.h"
#include "support/kineto_json_fixture.h"
#include "support/test_main.h"

#include <QtTest>

using namespace strata;
using strata::test::KinetoJson;

namespace {

constexpr TimeNs kUs = 1000;

std::string gpu(int64_t stream, int64_t correlation) {
    return "\"device\":0,\"stream\":" + std::to_string(stream) +
           ",\"correlation\":" + std::to_string(correlation);
}

std::shared_ptr<const Trace> launches() {
    KinetoJson j;
    j.cpuOp("step", 1, 0, 100).cpuOp("mm", 1, 5, 20).cpuOp("add", 1, 30, 10);
    j.call("cudaLaunchKernel", 1, 10, 5, 1).call("cudaLaunchKernel", 1, 32, 4, 2);
    j.call("cudaStreamSynchronize", 1, 45, 45, 3);
    j.kernel("K1", 20, 40, 1).kernel("K2", 62, 8, 2);
    j.x("cuda_sync", "Stream Sync", 0, 7, 45, 45, gpu(7, 3));
    return j.load();
}

std::shared_ptr<const Trace> eventSync() {
    KinetoJson j;
    j.call("cudaLaunchKernel", 1, 0, 5, 11).call("cudaEventRecord", 1, 6, 2, 12);
    j.call("cudaStreamWaitEvent", 1, 9, 2, 13).call("cudaLaunchKernel", 1, 12, 4, 14);
    j.call("cudaDeviceSynchronize", 1, 20, 110, 15);
    j.x("kernel", "KA", 0, 7, 10, 100, gpu(7, 11));
    j.x("kernel", "KB", 0, 8, 112, 8, gpu(8, 14));
    j.x("cuda_sync", "Stream Wait Event", 0, 8, 9, 1,
        gpu(8, 13) + ",\"wait_on_stream\":7,\"wait_on_cuda_event_record_corr_id\":12");
    j.x("cuda_sync", "Context Sync", 0, -1, 20, 110, gpu(-1, 15));
    return j.load();
}

struct WantEdge {
    const char* from;
    bool fromStart;
    const char* to;
    bool toStart;
    CpEdgeType type;
    TimeNs weightUs;
    CpBound bound;
};

void checkPath(const Trace& trace, const CriticalPath& cp, const std::vector<WantEdge>& want) {
    QVERIFY2(cp.ok, cp.error.c_str());
    QCOMPARE(cp.edges.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
        const CpPathEdge& e = cp.edges[i];
        const CpPoint& a = cp.points[e.from];
        const CpPoint& b = cp.points[e.to];
        const QString at = QStringLiteral("edge %1").arg(i);
        QVERIFY2(trace.name(a.event) == want[i].from && a.isStart == want[i].fromStart,
                 qPrintable(at));
        QVERIFY2(trace.name(b.event) == want[i].to && b.isStart == want[i].toStart, qPrintable(at));
        QCOMPARE(e.type, want[i].type);
        QCOMPARE(e.weight, want[i].weightUs * kUs);
        QCOMPARE(e.bound, want[i].bound);
    }
}

} // namespace

class TestCriticalPath : public QObject {
    Q_OBJECT
private slots:
    void launchAndKernelKernelDelays() {
        const auto trace = launches();
        QVERIFY(trace);
        const CriticalPath cp = criticalPath(*trace, {});
        using T = CpEdgeType;
        using B = CpBound;
        checkPath(*trace, cp,
                  {{"step", true, "mm", true, T::Operator, 5, B::Cpu},
                   {"mm", true, "cudaLaunchKernel", true, T::Operator, 5, B::Cpu},
                   {"cudaLaunchKernel", true, "K1", true, T::LaunchDelay, 10, B::LaunchOverhead},
                   {"K1", true, "K1", false, T::Operator, 40, B::GpuCompute},
                   {"K1", false, "K2", true, T::KernelKernelDelay, 2, B::KernelKernelOverhead},
                   {"K2", true, "K2", false, T::Operator, 8, B::GpuCompute},
                   {"K2", false, "cudaStreamSynchronize", false, T::Sync, 0, B::None},
                   {"cudaStreamSynchronize", false, "step", false, T::Operator, 10, B::Cpu}});
        QCOMPARE(cp.length, 80 * kUs);
        QCOMPARE(cp.byBound[size_t(B::Cpu)], 20 * kUs);
        QCOMPARE(cp.byBound[size_t(B::GpuCompute)], 48 * kUs);
        QCOMPARE(cp.byBound[size_t(B::LaunchOverhead)], 10 * kUs);
        QCOMPARE(cp.byBound[size_t(B::KernelKernelOverhead)], 2 * kUs);
        QCOMPARE(cp.boundTotal, 80 * kUs);
        // 8 events with nodes (step, mm, add, L1, L2, S, K1, K2); the Stream Sync has none.
        QCOMPARE(cp.events, size_t(8));
        QCOMPARE(cp.pathEvents.size(), size_t(6)); // step, mm, L1, K1, K2, S
    }

    void eventAndContextSyncs() {
        const auto trace = eventSync();
        QVERIFY(trace);
        const CriticalPath cp = criticalPath(*trace, {});
        using T = CpEdgeType;
        using B = CpBound;
        checkPath(*trace, cp,
                  {{"cudaLaunchKernel", true, "KA", true, T::LaunchDelay, 10, B::LaunchOverhead},
                   {"KA", true, "KA", false, T::Operator, 100, B::GpuCompute},
                   {"KA", false, "KB", true, T::Sync, 0, B::None},
                   {"KB", true, "KB", false, T::Operator, 8, B::GpuCompute}});
        QCOMPARE(cp.length, 118 * kUs);
        // Sync edges: KA -> KB, and the Context Sync's two (KA.e and KB.e -> D.e).
        QCOMPARE(cp.edgesByType[size_t(T::Sync)], size_t(3));
    }

    void windowByAnnotation() {
        const auto trace = launches();
        TimeRange w;
        std::string error;
        QVERIFY(criticalPathWindow(*trace, "add", 0, 0, {}, &w, &error));
        QCOMPARE(w.start, 30 * kUs);
        QCOMPARE(w.end, 40 * kUs);
        // Instances 0 to 1 of the launches: L1 [10, 15] and L2 [32, 36].
        QVERIFY(criticalPathWindow(*trace, "cudaLaunchKernel", 0, 1, {}, &w, &error));
        QCOMPARE(w.start, 10 * kUs);
        QCOMPARE(w.end, 36 * kUs);
        QVERIFY(!criticalPathWindow(*trace, "nothing", 0, 0, {}, &w, &error));
        QVERIFY(error.find("nothing") != std::string::npos);
        QVERIFY(!criticalPathWindow(*trace, "add", 1, 1, {}, &w, &error));
        QVERIFY(error.find("instance 1") != std::string::npos);
    }

    void windowLimitsTheGraph() {
        // Only add and L2 start in [30, 40]; K2 goes with L2. Path: add.s -2-> L2.s -0-> K2.s
        // ... K2's launch delay: queue 1 at L2, 0 at K2's start, but K1 (outside the window)
        // is not in the graph, so no op precedes K2 on the stream: launch delay 62 - 32 = 30.
        // add.s -2-> L2.s -30-> K2.s -8-> K2.e = 40 beats add.s -> add.e (10).
        const auto trace = launches();
        CriticalPathOptions options;
        options.window = TimeRange{30 * kUs, 40 * kUs};
        const CriticalPath cp = criticalPath(*trace, options);
        QVERIFY2(cp.ok, cp.error.c_str());
        QCOMPARE(cp.length, 40 * kUs);
        QCOMPARE(cp.events, size_t(3));
        options.window = TimeRange{200 * kUs, 300 * kUs};
        const CriticalPath none = criticalPath(*trace, options);
        QVERIFY(!none.ok);
        QVERIFY(!none.error.empty());
    }
};

STRATA_TEST_GUILESS_MAIN(TestCriticalPath)
#include "tst_critical_path.moc"
