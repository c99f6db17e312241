// The diff's CPU ops by the GPU time they launched, median and p95 on every table, and the names
// its tables show (core/analysis/compare/trace_diff.h; issue 44), on hand-made traces with every
// figure worked out by hand beside its check.
#include "analysis/compare/trace_diff.h"
#include "analysis/json/trace_diff_json.h"
#include "analysis/trace_analysis.h"
#include "support/analysis_trace_fixture.h"
#include "support/test_main.h"

#include <QtTest>

using namespace strata;
using strata::test::GpuTraceFixture;

namespace {

constexpr TimeNs kUs = 1000;

const DiffRow* row(const std::vector<DiffRow>& rows, const std::string& name) {
    for (const DiffRow& r : rows)
        if (r.name == name) return &r;
    return nullptr;
}

const char* const kSoftmax = "void (anonymous namespace)::softmax_warp_forward<float, float, "
                             "float, 10, false>(float*, float const*, int, int, int)";

// aten::conv [0, 50 µs) launching conv_k (correlation 1) of `convUs` µs at 100 µs; aten::relu
// three times, 10, 20 and 30 µs, at 2, 3 and 4 ms (launching nothing); two pageable copies of 2
// and 4 µs; the softmax kernel, 5 µs.
std::shared_ptr<const Trace> convTrace(TimeNs convUs) {
    GpuTraceFixture f;
    f.cpuOp(0, 50 * kUs, "aten::conv");
    f.launch(10 * kUs, 5 * kUs, 1);
    f.kernel(0, 7, 100 * kUs, convUs * kUs, "conv_k", 1);
    for (int i = 0; i < 3; ++i) f.cpuOp((2 + i) * 1000 * kUs, (10 + 10 * i) * kUs, "aten::relu");
    f.pageableCopy(30'000 * kUs, 2 * kUs, 4096);
    f.pageableCopy(30'100 * kUs, 4 * kUs, 4096);
    f.kernel(0, 7, 31'000 * kUs, 5 * kUs, kSoftmax);
    return f.build();
}

// Four steps of 1 ms; in each, aten::conv [s + 100, s + 200) µs launching conv_k of `convUs`
// µs, and aten::add [s + 300, s + 310) µs launching add_k of 20 µs.
std::shared_ptr<const Trace> steppedConv(TimeNs convUs) {
    GpuTraceFixture f;
    for (int i = 0; i < 4; ++i) {
        const TimeNs s = TimeNs(i) * 1000 * kUs;
        f.cpuOp(s, 1000 * kUs, "ProfilerStep#" + std::to_string(i + 1));
        f.cpuOp(s + 100 * kUs, 100 * kUs, "aten::conv");
        f.launch(s + 110 * kUs, 5 * kUs, 10 + i);
        f.kernel(0, 7, s + 400 * kUs, convUs * kUs, "conv_k", 10 + i);
        f.cpuOp(s + 300 * kUs, 10 * kUs, "aten::add");
        f.launch(s + 302 * kUs, 5 * kUs, 20 + i);
        f.kernel(0, 7, s + 700 * kUs, 20 * kUs, "add_k", 20 + i);
    }
    return f.build();
}

} // namespace

class TestTraceDiffOps : public QObject {
    Q_OBJECT
private slots:
    void opsByTheGpuTimeTheyLaunched() {
        // The convolution's own 50 µs the same; its kernel 1 ms -> 22.6 ms: the op is the same on
        // the CPU and changed on the GPU (+21.6 ms, past 5 % and 1 µs).
        const TraceAnalysis a(convTrace(1000)), b(convTrace(22'600));
        const TraceDiff d = diffTraces(a, b);
        QVERIFY(!d.bySteps);
        const DiffRow* conv = row(d.ops, "aten::conv");
        QVERIFY(conv);
        QCOMPARE(conv->status, DiffStatus::Same);
        QVERIFY(conv->launchesGpu);
        QCOMPARE(conv->baseline.gpuTotal, 1000 * kUs);
        QCOMPARE(conv->candidate.gpuTotal, 22'600 * kUs);
        QCOMPARE(conv->deltaGpu(), 21'600 * kUs);
        QCOMPARE(conv->gpuStatus, DiffStatus::Changed);
        // aten::relu launches nothing: no GPU verdict.
        const DiffRow* relu = row(d.ops, "aten::relu");
        QVERIFY(relu);
        QVERIFY(!relu->launchesGpu);
        QCOMPARE(relu->gpuStatus, DiffStatus::Same);
        // In the JSON: the op's GPU figures and verdict; none for aten::relu.
        std::string text;
        writeTraceDiffJson(d, traceDiffHeadToJson(d), [&](std::string_view s) { text += s; });
        const nlohmann::json j = nlohmann::json::parse(text);
        for (const nlohmann::json& r : j["ops"]) {
            if (r["name"] == "aten::conv") {
                QCOMPARE(r["gpu_status"].get<std::string>(), std::string("changed"));
                QCOMPARE(r["delta_gpu_us"].get<double>(), 21'600.0);
                QCOMPARE(r["baseline"]["gpu_total_us"].get<double>(), 1000.0);
                QCOMPARE(r["candidate"]["gpu_total_us"].get<double>(), 22'600.0);
            } else {
                QVERIFY(!r.contains("gpu_status"));
            }
        }
        // The same trace on both sides: nothing changed on the GPU either.
        const TraceAnalysis again(convTrace(1000));
        const TraceDiff same = diffTraces(a, again);
        QCOMPARE(row(same.ops, "aten::conv")->gpuStatus, DiffStatus::Same);
    }

    void opsByTheGpuTimeTheyLaunchedPerStep() {
        // Four steps each side; conv_k 100 µs -> 150 µs in every step (no spread): aten::conv's
        // GPU time per step 100 -> 150 µs, +50 past twice its standard error (0) and 1 %:
        // changed; its own 100 µs per step the same. aten::add launches 20 µs in each: same.
        const TraceAnalysis a(steppedConv(100)), b(steppedConv(150));
        const TraceDiff d = diffTraces(a, b);
        QVERIFY(d.bySteps);
        const DiffRow* conv = row(d.ops, "aten::conv");
        const DiffRow* add = row(d.ops, "aten::add");
        QVERIFY(conv && add);
        QCOMPARE(conv->status, DiffStatus::Same);
        QCOMPARE(conv->baseline.gpuStepMean, 100'000.0);
        QCOMPARE(conv->candidate.gpuStepMean, 150'000.0);
        QCOMPARE(conv->candidate.gpuStepSpread, 0.0);
        QCOMPARE(conv->gpuStatus, DiffStatus::Changed);
        QCOMPARE(add->status, DiffStatus::Same);
        QVERIFY(add->launchesGpu);
        QCOMPARE(add->gpuStatus, DiffStatus::Same);
        QCOMPARE(add->baseline.gpuTotal, 80 * kUs);
    }

    void medianAndP95OnEveryTable() {
        // aten::relu 10, 20, 30 µs: median (nearest rank, the 2nd of 3) 20 µs, p95 (the 3rd) 30
        // µs. The copies 2 and 4 µs: median the lower, 2 µs; p95 4 µs.
        const TraceAnalysis a(convTrace(1000)), b(convTrace(1000));
        const TraceDiff d = diffTraces(a, b);
        const DiffRow* relu = row(d.ops, "aten::relu");
        QVERIFY(relu);
        QCOMPARE(relu->baseline.median, 20 * kUs);
        QCOMPARE(relu->baseline.p95, 30 * kUs);
        QCOMPARE(relu->candidate.median, 20 * kUs);
        QCOMPARE(d.copies.size(), size_t(1));
        QCOMPARE(d.copies[0].name, std::string("HtoD (pageable)"));
        QCOMPARE(d.copies[0].baseline.median, 2 * kUs);
        QCOMPARE(d.copies[0].baseline.p95, 4 * kUs);
    }

    void namesAsTheRestOfStrataShowsThem() {
        // The kernel by its short name (display_name.h: the return type gone, template arguments
        // without brackets kept, the parameter list "(…)"), as the timeline and tables show it.
        const TraceAnalysis a(convTrace(1000)), b(convTrace(1000));
        const TraceDiff d = diffTraces(a, b);
        const DiffRow* softmax = row(d.kernels, kSoftmax);
        QVERIFY(softmax);
        QCOMPARE(softmax->shownName(),
                 std::string("(anonymous namespace)::softmax_warp_forward<float, float, float, "
                             "10, false>(…)"));
        QCOMPARE(softmax->shownName(), std::string(a.trace().displayName(std::string(kSoftmax))));
        // A kernel with a row per launch configuration: its short name, then the configuration.
        GpuTraceFixture fb, fc;
        const std::string kern = "void ns::kern<int>(int*)";
        fb.kernelWithGrid(0, 7, 0, 10 * kUs, kern, {128, 1, 1});
        fc.kernelWithGrid(0, 7, 0, 10 * kUs, kern, {256, 1, 1});
        const TraceAnalysis x(fb.build()), y(fc.build());
        const TraceDiff split = diffTraces(x, y);
        const DiffRow* removed = row(split.kernels, kern + " [grid 128x1x1, block 256x1x1]");
        const DiffRow* added = row(split.kernels, kern + " [grid 256x1x1, block 256x1x1]");
        QVERIFY(removed && added);
        QCOMPARE(removed->shownName(),
                 std::string("ns::kern<int>(…) [grid 128x1x1, block 256x1x1]"));
        QCOMPARE(added->shownName(), std::string("ns::kern<int>(…) [grid 256x1x1, block 256x1x1]"));
    }
};

STRATA_TEST_GUILESS_MAIN(TestTraceDiffOps)
#include "tst_trace_diff_ops.moc"
