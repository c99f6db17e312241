// Why the GPU waited (core/analysis/gap_causes): one gap of each cause on a hand-made trace, where
// each gap's time went on the launching thread, the blocking call of a synchronization gap, the
// clock-skew warning, steps, edges, graph replays, capture cuts and `strata-cli gaps --json`.
// Times in ns, threshold 10 ns; expectations worked out by hand from the fixtures (the issue 27
// cases are in tst_gap_breakdown).
#include "analysis/gaps/gap_causes.h"
#include "support/analysis_trace_fixture.h"
#include "support/test_main.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <nlohmann/json.hpp>

using namespace strata;
using strata::test::GpuTraceFixture;

namespace {

// gapCausesTrace() (analysis_trace_fixture.h): one gap of each cause, worked out there.
std::shared_ptr<const Trace> causesTrace() {
    return strata::test::gapCausesTrace();
}

} // namespace

class TestGapCauses : public QObject {
    Q_OBJECT
private slots:
    void oneOfEachCause() {
        const auto t = causesTrace();
        const GapCauses g = explainGpuGaps(*t, 10);
        QCOMPARE(g.deviceGaps.size(), size_t(4));
        QCOMPARE(g.streamGaps.size(), size_t(4)); // one stream: the same gaps
        const GapCause expected[] = {GapCause::LaunchBound, GapCause::Synchronization,
                                     GapCause::Dependency, GapCause::Unattributed};
        for (size_t i = 0; i < 4; ++i) {
            QCOMPARE(g.deviceGaps[i].gap.start, TimeNs(100 + 200 * TimeNs(i)));
            QCOMPARE(g.deviceGaps[i].gap.duration(), TimeNs(100));
            QCOMPARE(int(g.deviceGaps[i].cause), int(expected[i]));
            QCOMPARE(int(g.streamGaps[i].cause), int(expected[i]));
            QCOMPARE(g.streamGaps[i].gap.stream, int64_t(7));
        }
        // launch_bound (gapCausesTrace): 60 ns late; untraced 10 + aten::add 40 + untraced 10 +
        // the launch call 5 + queued 35.
        const ExplainedGap& lb = g.deviceGaps[0];
        QCOMPARE(lb.late, TimeNs(60));
        QVERIFY(lb.launchedLate);
        const GapBreakdown& b = lb.breakdown;
        QCOMPARE(b.of(GapPartKind::Cpu), TimeNs(40));
        QCOMPARE(b.of(GapPartKind::Untraced), TimeNs(20));
        QCOMPARE(b.of(GapPartKind::Launch), TimeNs(5));
        QCOMPARE(b.of(GapPartKind::Queued), TimeNs(35));
        QCOMPARE(b.of(GapPartKind::Blocked), TimeNs(0));
        QCOMPARE(b.parts.size(), size_t(4));
        QCOMPARE(t->str(b.parts[0].name), std::string_view("aten::add"));
        QCOMPARE(b.parts[0].time, TimeNs(40));
        QCOMPARE(int(b.parts[1].kind), int(GapPartKind::Queued));
        QCOMPARE(int(b.parts[2].kind), int(GapPartKind::Untraced));
        QCOMPARE(b.parts[2].name, kNoName); // outside any slice
        QCOMPARE(t->str(b.parts[3].name), std::string_view("cudaLaunchKernel"));
        QCOMPARE(lb.tracedShare(), 0.45);
        QVERIFY(!lb.blockingCall.valid());
        // synchronization: blocked 70 of the 100 ns in cudaDeviceSynchronize [250,370).
        const ExplainedGap& sy = g.deviceGaps[1];
        QVERIFY(sy.blockingCall.valid());
        QCOMPARE(t->name(sy.blockingCall), std::string_view("cudaDeviceSynchronize"));
        QCOMPARE(sy.late, TimeNs(80));
        QCOMPARE(sy.breakdown.of(GapPartKind::Blocked), TimeNs(70));
        QCOMPARE(sy.breakdown.of(GapPartKind::Untraced), TimeNs(10));
        QCOMPARE(sy.breakdown.of(GapPartKind::Launch), TimeNs(5));
        QCOMPARE(sy.breakdown.of(GapPartKind::Queued), TimeNs(15));
        // dependency: launched at [386,396), before the gap: all of it queued, not late.
        const ExplainedGap& de = g.deviceGaps[2];
        QVERIFY(!de.launchedLate);
        QCOMPARE(de.breakdown.of(GapPartKind::Queued), TimeNs(100));
        QVERIFY(!g.deviceGaps[3].breakdown.known); // unattributed: no thread to look at
        // Per cause over the device gaps: one each of 100 ns, no launch overhead.
        for (int c = 0; c < kGapCauseCount; ++c) {
            const bool none = GapCause(c) == GapCause::LaunchOverhead;
            QCOMPARE(g.byCause[size_t(c)].count, uint64_t(none ? 0 : 1));
            QCOMPARE(g.byCause[size_t(c)].idle, TimeNs(none ? 0 : 100));
        }
        QVERIFY(g.warnings.empty());
    }

    void blockingNames() {
        for (const char* n : {"cudaDeviceSynchronize", "cudaStreamSynchronize", "cuCtxSynchronize",
                              "cudaEventSynchronize", "cudaMemcpy", "cuMemcpyHtoD_v2", "cudaFree",
                              "cudaMemset", "hipDeviceSynchronize", "hipMemcpy",
                              "hipMemcpyWithStream", "hipFree", "cuMemFree_v2"})
            QVERIFY2(isBlockingCallName(n), n);
        for (const char* n :
             {"cudaMemcpyAsync", "cudaLaunchKernel", "cudaMemsetAsync", "cudaStreamWaitEvent",
              "cudaEventRecord", "hipMemcpyAsync", "hipLaunchKernel", "cudaFreeAsync",
              "cuMemcpyHtoDAsync_v2", "cuLaunchKernel"})
            QVERIFY2(!isBlockingCallName(n), n);
    }

    void clockSkewIsSaid() {
        GpuTraceFixture f;
        f.launch(150, 10, 9);
        f.kernel(0, 7, 100, 10, "early", 9); // starts before its launch call
        const GapCauses g = explainGpuGaps(*f.build(), 10);
        QCOMPARE(g.warnings.size(), size_t(1));
        QVERIFY2(g.warnings[0].find("1 of 1 kernel(s) start before their launch call (by up to "
                                    "50 ns)") == 0,
                 g.warnings[0].c_str());
        QCOMPARE(g.clock.startBeforeLaunch, uint64_t(1));
        QCOMPARE(g.clock.suggestedShift, TimeNs(50)); // the kernel 50 ns later meets its call
        QVERIFY2(g.warnings[0].find("--gpu-shift-us 0.05)") != std::string::npos,
                 g.warnings[0].c_str());
    }

    void dependencyNamesWhatItWaitedOn() {
        // Stream 7: K1 [0,100); stream 8: a copy [100,300); stream 7: K2 [350,450), launched at
        // -30 after a cudaStreamWaitEvent at -35. Stream 7's gap [100,350) and the device gap
        // [300,350) are dependencies that waited on the copy (it ended last inside them).
        GpuTraceFixture f;
        f.launch(-50, 5, 1);
        f.kernel(0, 7, 0, 100, "K1", 1);
        f.launch(-40, 4, 5, "cudaMemcpyAsync");
        f.op(SliceKind::Memcpy, 0, 8, 100, 200, "Memcpy HtoD", 5);
        f.launch(-35, 2, -1, "cudaStreamWaitEvent");
        f.launch(-30, 5, 2);
        f.kernel(0, 7, 350, 100, "K2", 2);
        const auto t = f.build();
        const GapCauses g = explainGpuGaps(*t, 10);
        QCOMPARE(g.deviceGaps.size(), size_t(1));
        const ExplainedGap& d = g.deviceGaps[0];
        QCOMPARE(d.gap.start, TimeNs(300));
        QCOMPARE(int(d.cause), int(GapCause::Dependency));
        QVERIFY(d.waitedOn.valid());
        QCOMPARE(t->name(d.waitedOn), std::string_view("Memcpy HtoD"));
        QCOMPARE(t->name(d.waitCall), std::string_view("cudaStreamWaitEvent"));
        const ExplainedGap* s7 = nullptr;
        for (const ExplainedGap& e : g.streamGaps)
            if (e.gap.stream == 7) s7 = &e;
        QVERIFY(s7);
        QCOMPARE(s7->gap.start, TimeNs(100));
        QCOMPARE(s7->gap.end, TimeNs(350));
        QCOMPARE(t->name(s7->waitedOn), std::string_view("Memcpy HtoD"));
    }

    void perStepAndEdges() {
        // ProfilerStep#1 [0,500), ProfilerStep#2 [500,1000). Kernels [0,100) (launched at -10),
        // [300,400) launched at 250: gap [100,300) launch_bound; [600,700) launched at 280,
        // before gap [400,600) began: dependency (it starts in step 1).
        // Step 1 idle: 200 + [400,500) 100 = 300 ns; step 2: [500,600) 100 + after the last op
        // [700,1000) 300 = 400 ns. Edges: 0 before the first op, 300 after the last.
        GpuTraceFixture f;
        f.cpuOp(0, 500, "ProfilerStep#1");
        f.cpuOp(500, 500, "ProfilerStep#2");
        f.launch(-10, 5, 1);
        f.kernel(0, 7, 0, 100, "A", 1);
        f.launch(250, 5, 2);
        f.kernel(0, 7, 300, 100, "B", 2);
        f.launch(280, 5, 3);
        f.kernel(0, 7, 600, 100, "C", 3);
        const GapCauses g = explainGpuGaps(*f.build(), 10);
        QCOMPARE(g.steps.size(), size_t(2));
        QCOMPARE(g.steps[0].step.name, std::string("ProfilerStep#1"));
        QCOMPARE(g.steps[0].idle, TimeNs(300));
        QCOMPARE(g.steps[0].byCause[size_t(GapCause::LaunchBound)].count, uint64_t(1));
        QCOMPARE(g.steps[0].byCause[size_t(GapCause::LaunchBound)].idle, TimeNs(200));
        QCOMPARE(g.steps[0].byCause[size_t(GapCause::Dependency)].idle, TimeNs(200));
        QCOMPARE(g.steps[1].idle, TimeNs(400));
        QCOMPARE(g.steps[1].byCause[size_t(GapCause::Dependency)].count, uint64_t(0));
        QCOMPARE(g.edges.size(), size_t(1));
        QCOMPARE(g.edges[0].before, TimeNs(10)); // the trace starts with the launch at -10
        QCOMPARE(g.edges[0].after, TimeNs(300));
    }

    void graphReplaysMissingKernels() {
        // Three cudaGraphLaunch calls of graph 5: the first ran 3 kernels, the second 1 (two
        // missing), the third none in the trace.
        GpuTraceFixture f;
        auto graphKernel = [&](TimeNs start, int64_t corr, int64_t node) {
            GpuActivity a;
            a.device = 0;
            a.stream = 7;
            a.graphId = 5;
            a.graphNodeId = node;
            SliceInput s;
            s.start = start;
            s.dur = 10;
            s.name = f.b.intern("node");
            s.category = f.b.intern("kernel");
            s.kind = SliceKind::Kernel;
            s.correlation = corr;
            s.gpu = &a;
            f.b.addSlice(f.b.gpuStreamTrack(0, 7, 0, 7), s);
        };
        f.launch(0, 5, 10, "cudaGraphLaunch");
        for (int n = 0; n < 3; ++n) graphKernel(100 + 20 * n, 10, n);
        f.launch(200, 5, 11, "cudaGraphLaunch");
        graphKernel(300, 11, 0);
        f.launch(400, 5, 12, "cudaGraphLaunch");
        const GapCauses g = explainGpuGaps(*f.build(), 10);
        QCOMPARE(g.warnings.size(), size_t(2));
        QVERIFY2(g.warnings[0].find("1 of 3 CUDA graph launches have no GPU work") == 0,
                 g.warnings[0].c_str());
        QVERIFY2(g.warnings[1].find("1 CUDA graph replay(s) have fewer kernels") == 0,
                 g.warnings[1].c_str());
    }

    void captureWindowCuts() {
        // A kernel at -500 whose launch is not in the trace (the capture began after it was
        // launched); K [0,100) launched at -50; a launch at 50 whose kernel is missing inside
        // the capture (lost); a launch at 200, after the last op, with no kernel (cut) inside
        // ProfilerStep#3 [150, 400).
        GpuTraceFixture f;
        f.kernel(0, 7, -500, 10, "early", 99);
        f.launch(-50, 5, 1);
        f.kernel(0, 7, 0, 100, "K", 1);
        f.launch(50, 5, 2);
        f.cpuOp(150, 250, "ProfilerStep#3");
        f.launch(200, 5, 3);
        const GapCauses g = explainGpuGaps(*f.build(), 10);
        QCOMPARE(g.warnings.size(), size_t(3));
        QVERIFY2(g.warnings[0].find("the capture ended inside ProfilerStep#3: 1 kernel launch(es) "
                                    "after the last GPU op") == 0,
                 g.warnings[0].c_str());
        QVERIFY2(
            g.warnings[1].find("the capture began inside a step (before ProfilerStep#3): 1 GPU "
                               "op(s)") == 0,
            g.warnings[1].c_str());
        QVERIFY2(g.warnings[2].find("1 kernel launch(es) inside the capture have no kernel") == 0,
                 g.warnings[2].c_str());
    }

    void cliJson() {
        // gapCausesTrace's first gap as Kineto JSON (µs, so the gap is 100 µs; threshold 10 µs):
        // untraced 10 + aten::add 40 + untraced 10 + the launch call 5 + queued 35.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("causes.json"));
        std::ofstream(path.toStdString()) << R"({"traceEvents": [
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":950,"dur":10,"args":{"correlation":1}},
{"ph":"X","cat":"kernel","name":"K1","pid":0,"tid":7,"ts":1000,"dur":100,"args":{"device":0,"stream":7,"correlation":1}},
{"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":1,"ts":1110,"dur":40},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":1160,"dur":5,"args":{"correlation":2}},
{"ph":"X","cat":"kernel","name":"K2","pid":0,"tid":7,"ts":1200,"dur":100,"args":{"device":0,"stream":7,"correlation":2}}
]})";
        QProcess p;
        p.start(QStringLiteral(STRATA_BINARY_DIR "/app/strata-cli"),
                {QStringLiteral("gaps"), QStringLiteral("--json"), path});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 0);
        const auto j = nlohmann::json::parse(p.readAllStandardOutput().toStdString());
        QCOMPARE(j["threshold_us"].get<double>(), 10.0);
        QVERIFY(j["analysis_ms"].is_number());
        QVERIFY(j["load_ms"].is_number());
        QCOMPARE(j["gaps"].size(), size_t(2)); // the device gap and the stream gap
        const auto& d = j["gaps"][0];
        QCOMPARE(d["device"].get<int>(), 0);
        QVERIFY(d["stream"].is_null());
        QCOMPARE(d["start_us"].get<double>(), 150.0); // 1100 - 950
        QCOMPARE(d["dur_us"].get<double>(), 100.0);
        QCOMPARE(d["cause"].get<std::string>(), std::string("launch_bound"));
        QCOMPARE(d["cause_label"].get<std::string>(), std::string("CPU-bound"));
        QCOMPARE(d["late_us"].get<double>(), 60.0);
        const auto& b = d["breakdown"];
        QCOMPARE(b["cpu_us"].get<double>(), 40.0);
        QCOMPARE(b["untraced_us"].get<double>(), 20.0);
        QCOMPARE(b["launch_us"].get<double>(), 5.0);
        QCOMPARE(b["queued_us"].get<double>(), 35.0);
        QCOMPARE(b["blocked_us"].get<double>(), 0.0);
        QCOMPARE(b["parts"][0]["kind"].get<std::string>(), std::string("cpu"));
        QCOMPARE(b["parts"][0]["name"].get<std::string>(), std::string("aten::add"));
        QVERIFY(b["parts"][0]["in"].is_null());
        QCOMPARE(b["parts"][0]["us"].get<double>(), 40.0);
        QCOMPARE(d["cpu_covered_share"].get<double>(), 0.45);
        QCOMPARE(d["dominant"]["name"].get<std::string>(), std::string("aten::add"));
        QCOMPARE(d["input_pipeline"].get<bool>(), false);
        QVERIFY(d["blocking_call"].is_null());
        QCOMPARE(j["gaps"][1]["stream"].get<int>(), 7);
        QCOMPARE(j["by_cause"]["launch_bound"]["count"].get<int>(), 1);
        QCOMPARE(j["by_cause"]["launch_bound"]["idle_us"].get<double>(), 100.0);
        // Its share of the device's span, K1's start to K2's end: 100 of 300 µs.
        QCOMPARE(j["by_cause"]["launch_bound"]["share_of_span"].get<double>(), 100.0 / 300.0);
        QCOMPARE(j["by_cause"]["dependency"]["count"].get<int>(), 0);
        QCOMPARE(j["by_cause"]["launch_overhead"]["count"].get<int>(), 0);
        QCOMPARE(j["clock"]["offset"].get<bool>(), false);
    }
};

STRATA_TEST_GUILESS_MAIN(TestGapCauses)
#include "tst_gap_causes.moc"
