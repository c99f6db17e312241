// The TensorBoard plugin's kernel metrics (issue 46, analysis/ops/kernel_metrics.h) on a
// hand-made trace with Kineto's kernel args; every figure worked out by hand here.
//
// ProfilerStep#1 [0, 1000) on the CPU (no runtime call: not stretched): the window is [0, 1000).
// Device 0, stream 7 unless said (blocks per SM, est. achieved occupancy %):
//   volta_h884gemm  [0, 100)    0.5, 40    tensor cores (h884)
//   volta_h884gemm  [200, 300)  1.5, 60
//   elementwise     [50, 150)   0.25, 20   stream 8
//   noargs          [400, 500)  -, -
//   negative        [600, 700)  -1, -5     (not > 0 / not >= 0: out of the device figures)
//   zero            [800, 800)  3, 10      (0 ns: weight 0)
//   late            [950, 1050) 2, 50      (inside the window for [950, 1000) only)
// Device 1: xmma_gemm_relu [0, 200) 0.5, 30 (tensor cores: xmma_gemm).
// Per name (duration-weighted): volta_h884gemm (0.5*100 + 1.5*100) / 200 = 1, (4000 + 6000) /
//   200 = 50; elementwise 0.25, 20; noargs none; negative -1, -5; zero 0, 0 (all weight 0: the
//   plugin's 0); late 2, 50; xmma_gemm_relu 0.5, 30.
// Device 0 SM efficiency: [0, 50) 0.5 -> 25, [50, 100) 0.75 -> 37.5, [100, 150) 0.25 -> 12.5,
//   [200, 300) min(1.5, 1) -> 100, [950, 1000) min(2, 1) -> 50: 225 / 1000 = 0.225. Occupancy:
//   (40*100 + 20*100 + 60*100 + 50*50) / 350 = 14500 / 350.
// Device 1: SM efficiency 0.5 * 200 / 1000 = 0.1, occupancy 30.
// Tensor cores: device 0 200 of 600 ns, device 1 200 of 200; overall 400 / 800 = 0.5.
#include "analysis/json/kernel_metrics_json.h"
#include "analysis/json/op_stats_json.h"
#include "analysis/ops/gpu_ops.h"
#include "analysis/ops/kernel_metrics.h"
#include "analysis/trace_analysis.h"
#include "support/analysis_trace_fixture.h"
#include "support/test_main.h"

#include <QtTest>

#include <optional>

using namespace strata;
using strata::test::GpuTraceFixture;

namespace {

// A kernel carrying Kineto's two args where given.
void kernelWithArgs(GpuTraceFixture& f, int32_t device, int64_t stream, TimeNs start, TimeNs dur,
                    const char* name, std::optional<double> blocksPerSm,
                    std::optional<double> occupancy) {
    GpuActivity g;
    g.device = device;
    g.stream = stream;
    SliceInput s;
    s.start = start;
    s.dur = dur;
    s.name = f.b.intern(name);
    s.category = f.b.intern("kernel");
    s.kind = SliceKind::Kernel;
    s.gpu = &g;
    if (blocksPerSm || occupancy) {
        ArgStore& a = f.b.args();
        a.begin();
        a.addInt(f.b.intern("registers per thread"), 32);
        if (blocksPerSm) a.addDouble(f.b.intern("blocks per SM"), *blocksPerSm);
        if (occupancy) a.addDouble(f.b.intern("est. achieved occupancy %"), *occupancy);
        s.args = a.finish();
    }
    f.b.addSlice(f.b.gpuStreamTrack(device, stream, device, stream), s);
}

void addKernels(GpuTraceFixture& f) {
    kernelWithArgs(f, 0, 7, 0, 100, "volta_h884gemm", 0.5, 40);
    kernelWithArgs(f, 0, 7, 200, 100, "volta_h884gemm", 1.5, 60);
    kernelWithArgs(f, 0, 8, 50, 100, "elementwise", 0.25, 20);
    kernelWithArgs(f, 0, 7, 400, 100, "noargs", std::nullopt, std::nullopt);
    kernelWithArgs(f, 0, 7, 600, 100, "negative", -1, -5);
    kernelWithArgs(f, 0, 7, 800, 0, "zero", 3, 10);
    kernelWithArgs(f, 0, 7, 950, 100, "late", 2, 50);
    kernelWithArgs(f, 1, 7, 0, 200, "xmma_gemm_relu", 0.5, 30);
}

std::shared_ptr<const Trace> metricsTrace() {
    GpuTraceFixture f;
    f.annotation(0, 1000, "ProfilerStep#1");
    addKernels(f);
    return f.build();
}

const KernelNameMetrics& byName(const Trace& t, const KernelMetrics& m, const char* name) {
    const KernelNameMetrics* k = m.find(t.strings().find(name));
    if (!k) qFatal("no kernel named %s", name);
    return *k;
}

} // namespace

class TstKernelMetrics : public QObject {
    Q_OBJECT
private slots:
    void tensorCorePatterns_data();
    void tensorCorePatterns();
    void perName();
    void perDevice();
    void windowWithoutSteps();
    void windowOfTheCpuOps();
    void noArgsAtAll();
    void json();
};

void TstKernelMetrics::tensorCorePatterns_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("tc");
    QTest::newRow("h884") << "volta_h884gemm_64x64_ldg8_nn" << true;
    QTest::newRow("s1688") << "turing_s1688gemm_fp16_128x128" << true;
    QTest::newRow("16816") << "sm80_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x32_16816"
                           << true;
    QTest::newRow("cutlass 16816") << "cutlass_80_tensorop_s16816gemm_relu" << true;
    QTest::newRow("hmma") << "ampere_hmma_gemm" << true;
    QTest::newRow("case-sensitive") << "HMMA_gemm" << false;
    QTest::newRow("sgemm") << "volta_sgemm_64x64_nt" << false;
    QTest::newRow("elementwise") << "vectorized_elementwise_kernel" << false;
}

void TstKernelMetrics::tensorCorePatterns() {
    QFETCH(QString, name);
    QFETCH(bool, tc);
    QCOMPARE(usesTensorCores(name.toStdString()), tc);
}

void TstKernelMetrics::perName() {
    const auto t = metricsTrace();
    const GpuOpList ops = collectGpuOps(*t);
    const KernelMetrics m = computeKernelMetrics(*t, ops, kernelMetricsWindow(*t, ops, {}));
    QCOMPARE(m.byName.size(), size_t(7));
    QCOMPARE(m.withBlocksPerSm, uint64_t(7));
    QCOMPARE(m.withOccupancy, uint64_t(7));
    const KernelNameMetrics& gemm = byName(*t, m, "volta_h884gemm");
    QVERIFY(gemm.tensorCores);
    QCOMPARE(*gemm.blocksPerSm, 1.0);
    QCOMPARE(*gemm.occupancyPct, 50.0);
    const KernelNameMetrics& ew = byName(*t, m, "elementwise");
    QVERIFY(!ew.tensorCores);
    QCOMPARE(*ew.blocksPerSm, 0.25);
    QCOMPARE(*ew.occupancyPct, 20.0);
    const KernelNameMetrics& none = byName(*t, m, "noargs");
    QVERIFY(!none.blocksPerSm && !none.occupancyPct);
    const KernelNameMetrics& neg = byName(*t, m, "negative");
    QCOMPARE(*neg.blocksPerSm, -1.0);
    QCOMPARE(*neg.occupancyPct, -5.0);
    const KernelNameMetrics& zero = byName(*t, m, "zero");
    QCOMPARE(*zero.blocksPerSm, 0.0);
    QCOMPARE(*zero.occupancyPct, 0.0);
    QCOMPARE(*byName(*t, m, "late").blocksPerSm, 2.0);
    const KernelNameMetrics& x = byName(*t, m, "xmma_gemm_relu");
    QVERIFY(x.tensorCores);
    QCOMPARE(*x.occupancyPct, 30.0);
}

void TstKernelMetrics::perDevice() {
    const auto t = metricsTrace();
    const GpuOpList ops = collectGpuOps(*t);
    const TimeRange w = kernelMetricsWindow(*t, ops, {});
    QCOMPARE(w.start, TimeNs(0));
    QCOMPARE(w.end, TimeNs(1000));
    const KernelMetrics m = computeKernelMetrics(*t, ops, w);
    QCOMPARE(m.byDevice.size(), size_t(2));
    const DeviceKernelMetrics& d0 = m.byDevice[0];
    QCOMPARE(d0.device, 0);
    QCOMPARE(*d0.smEfficiency, 0.225);
    QCOMPARE(*d0.occupancyPct, 14500.0 / 350.0);
    QCOMPARE(d0.kernelTime, TimeNs(600));
    QCOMPARE(d0.tensorCoreTime, TimeNs(200));
    QCOMPARE(d0.tensorCoreShare, 200.0 / 600.0);
    const DeviceKernelMetrics& d1 = m.byDevice[1];
    QCOMPARE(d1.device, 1);
    QCOMPARE(*d1.smEfficiency, 0.1);
    QCOMPARE(*d1.occupancyPct, 30.0);
    QCOMPARE(d1.tensorCoreShare, 1.0);
    QCOMPARE(m.kernelTime, TimeNs(800));
    QCOMPARE(m.tensorCoreTime, TimeNs(400));
    QCOMPARE(m.tensorCoreShare, 0.5);
}

// No step and no CPU op: the window is the kernels' extent, [0, 1050). Device 0's SM efficiency:
// the same spans with late whole, [950, 1050) min(2, 1) -> 100: 275 / 1050; occupancy (14500 +
// 50*50) / 400 = 17000 / 400. Device 1: 100 / 1050.
void TstKernelMetrics::windowWithoutSteps() {
    GpuTraceFixture f;
    addKernels(f);
    const auto t = f.build();
    const GpuOpList ops = collectGpuOps(*t);
    const TimeRange w = kernelMetricsWindow(*t, ops, {});
    QCOMPARE(w.start, TimeNs(0));
    QCOMPARE(w.end, TimeNs(1050));
    const KernelMetrics m = computeKernelMetrics(*t, ops, w);
    QCOMPARE(*m.byDevice[0].smEfficiency, 275.0 / 1050.0);
    QCOMPARE(*m.byDevice[0].occupancyPct, 17000.0 / 400.0);
    QCOMPARE(*m.byDevice[1].smEfficiency, 100.0 / 1050.0);
}

// No step, but CPU ops: the window is their extent, as the plugin's one step "0": aten::mm
// [100, 900); a DataLoader span [0, 1000) does not count. Device 0: elementwise [100, 150) 0.25 ->
// 12.5, volta_h884gemm [200, 300) -> 100: 112.5 / 800.
void TstKernelMetrics::windowOfTheCpuOps() {
    GpuTraceFixture f;
    f.cpuOp(100, 800, "aten::mm");
    f.cpuOp(0, 1000, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");
    addKernels(f);
    const auto t = f.build();
    const GpuOpList ops = collectGpuOps(*t);
    const TimeRange w = kernelMetricsWindow(*t, ops, {});
    QCOMPARE(w.start, TimeNs(100));
    QCOMPARE(w.end, TimeNs(900));
    const KernelMetrics m = computeKernelMetrics(*t, ops, w);
    QCOMPARE(*m.byDevice[0].smEfficiency, 112.5 / 800.0);
}

void TstKernelMetrics::noArgsAtAll() {
    GpuTraceFixture f;
    f.kernel(0, 7, 0, 100, "hmma_kernel");
    f.kernel(0, 7, 100, 300, "plain");
    f.memcpy(0, 7, 400, 100); // not a kernel: in no figure
    const auto t = f.build();
    const GpuOpList ops = collectGpuOps(*t);
    const KernelMetrics m = computeKernelMetrics(*t, ops, kernelMetricsWindow(*t, ops, {}));
    QCOMPARE(m.withBlocksPerSm, uint64_t(0));
    QCOMPARE(m.byDevice.size(), size_t(1));
    QVERIFY(!m.byDevice[0].smEfficiency);
    QVERIFY(!m.byDevice[0].occupancyPct);
    QCOMPARE(m.tensorCoreShare, 0.25);
    QVERIFY(byName(*t, m, "hmma_kernel").tensorCores);
    QVERIFY(!byName(*t, m, "plain").blocksPerSm);
}

void TstKernelMetrics::json() {
    const TraceAnalysis a(metricsTrace());
    nlohmann::json j = opStatsToJson(a.opStats(), a.gapCauses(), false);
    addKernelMetricsToJson(j, a.opStats(), a.kernelMetrics());
    bool sawGemm = false, sawNoArgs = false;
    for (const nlohmann::json& k : j.at("kernels")) {
        if (k.at("name") == "volta_h884gemm") {
            sawGemm = true;
            QCOMPARE(k.at("tensor_cores").get<bool>(), true);
            QCOMPARE(k.at("blocks_per_sm").get<double>(), 1.0);
            QCOMPARE(k.at("achieved_occupancy_pct").get<double>(), 50.0);
        }
        if (k.at("name") == "noargs") {
            sawNoArgs = true;
            QCOMPARE(k.at("tensor_cores").get<bool>(), false);
            QVERIFY(k.at("blocks_per_sm").is_null());
            QVERIFY(k.at("achieved_occupancy_pct").is_null());
        }
    }
    QVERIFY(sawGemm && sawNoArgs);
    const nlohmann::json& m = j.at("kernel_metrics");
    QCOMPARE(m.at("window_us").get<double>(), 1.0);
    QCOMPARE(m.at("tensor_core_share").get<double>(), 0.5);
    QCOMPARE(m.at("kernel_time_us").get<double>(), 0.8);
    QCOMPARE(m.at("devices")[0].at("sm_efficiency").get<double>(), 0.225);
    QCOMPARE(m.at("devices")[1].at("achieved_occupancy_pct").get<double>(), 30.0);
}

STRATA_TEST_GUILESS_MAIN(TstKernelMetrics)
#include "tst_kernel_metrics.moc"
