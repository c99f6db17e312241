// --kernel-metrics on a real GPU (issue 51; CTest label "gpu"): kernels/samples/gpu_metrics_probe
// recorded through `strata-cli record --kernel-metrics '^(copy|burn)\('` with the real collector
// and CUPTI's range profiler, read back with loadTrace. Skips (QSKIP, with the reason) where no
// GPU is usable, as tst_gpu_record does. Expectations, from what the probe does by construction:
//   - all four launches (the warm-up's two, then the timed copy and burn) are measured, and
//     carry the default set's values as args; none is a warning;
//   - the timed copy moves copy_bytes through DRAM: dram__bytes_read.sum + dram__bytes_write.sum
//     within 10 % of it;
//   - the timed burn runs 4 FMAs per round, ITERS (1 << 20) rounds, in sms * 8 * 256 threads:
//     sm__sass_thread_inst_executed_op_ffma_pred_on.sum within 1 % of that; no FP64 FMA;
//   - gpu__time_duration.sum is positive;
//   - the roofline (analysis/ops/roofline.h): device 0 has a DRAM and an FP32 ceiling from the
//     peak counters, within 2x of the card's data sheet (H100/H200 SXM: 3.35-4.8 TB/s, 67 FP32
//     TFLOP/s), the copy is memory-bound and the burn compute-bound, the burn within 10-100 % of
//     its roof.
// What the run chose (the passes, the metrics the chip lacks) is printed for the record.
#include "analysis/ops/gpu_ops.h"
#include "analysis/ops/roofline.h"
#include "io/trace_loader.h"
#include "model/trace.h"
#include "support/gpu_available.h"
#include "support/gpu_probe.h"
#include "support/slice_lookup.h"
#include "support/test_main.h"

#include <QtTest>

#include <cmath>

using namespace strata;

namespace {

// A numeric arg of the slice, NaN when absent.
double argOf(const Trace& t, SliceRef s, const char* key) {
    ArgValue v;
    const ArgSetId args = t.track(s.track).slices.args[s.index];
    return t.argStore().find(args, t.strings().find(key), &v) ? v.toDouble() : std::nan("");
}

} // namespace

class TestGpuKernelMetrics : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::shared_ptr<const Trace> trace_;
    QMap<QString, QString> values_; // the probe's key=value lines
    QString stderr_;

private slots:
    void initTestCase();
    void everyMatchingLaunchMeasured();
    void copyBytes();
    void burnFmas();
    void roofline();
};

void TestGpuKernelMetrics::initTestCase() {
    const QString why = test::gpuUnavailableReason();
    if (!why.isEmpty()) QSKIP(qPrintable(why + " (kernel metrics checks owed)"));
#ifndef STRATA_CLI
    QSKIP("strata-cli is not built in this configuration");
#else
    if (!QFile::exists(test::gpuProbePath())) QSKIP("kernels/samples were not built (no nvcc)");
    QVERIFY(dir_.isValid());
    const test::ProbeRecording r = test::recordProbe(
        STRATA_CLI, dir_.filePath("probe.strata"), {"--kernel-metrics", "^(copy|burn)\\("}, 600000);
    stderr_ = r.err;
    qInfo("%s", qPrintable(stderr_));
    QCOMPARE(r.exitCode, 0);
    values_ = r.values;
    QVERIFY2(r.loadError.isEmpty(), qPrintable(r.loadError));
    trace_ = r.trace;
#endif
}

void TestGpuKernelMetrics::everyMatchingLaunchMeasured() {
    const Trace& t = *trace_;
    qInfo("kernel_metrics: %s", qPrintable(test::metadataText(t, "kernel_metrics")));
    qInfo("kernel_metrics_device_0: %s",
          qPrintable(test::metadataText(t, "kernel_metrics_device_0")));
    for (const auto& w : t.warnings()) qInfo("warning: %s", w.c_str());
    QVERIFY2(stderr_.contains("[strata] kernel metrics: /^(copy|burn)\\(/: 21 metrics (default)"),
             qPrintable(stderr_));
    QVERIFY(test::metadataText(t, "kernel_metrics").contains("each matching launch is serialised"));
    QCOMPARE(test::metadataText(t, "kernel_metrics_launches"), QString("4"));
    const auto copies = test::slicesNamed(t, "copy(const float4*, float4*, unsigned long, int)");
    const auto burns = test::slicesNamed(t, "burn(float*, long)");
    QCOMPARE(copies.size(), size_t(2));
    QCOMPARE(burns.size(), size_t(2));
    for (SliceRef k : {copies[0], copies[1], burns[0], burns[1]}) {
        const double ns = argOf(t, k, "gpu__time_duration.sum");
        qInfo("%s: gpu__time_duration.sum %.0f ns, traced %lld ns",
              std::string(t.str(t.track(k.track).slices.name[k.index])).c_str(), ns,
              static_cast<long long>(t.duration(k)));
        QVERIFY(ns > 0);
    }
}

void TestGpuKernelMetrics::copyBytes() {
    const Trace& t = *trace_;
    const SliceRef copy =
        test::slicesNamed(t, "copy(const float4*, float4*, unsigned long, int)")[1];
    const double read = argOf(t, copy, "dram__bytes_read.sum");
    const double written = argOf(t, copy, "dram__bytes_write.sum");
    const double bytes = values_.value("copy_bytes").toDouble();
    qInfo("copy: %.0f bytes read + %.0f written by the metrics, %.0f by construction", read,
          written, bytes);
    QVERIFY(bytes > 0);
    QVERIFY(std::abs(read + written - bytes) <= 0.10 * bytes);
}

void TestGpuKernelMetrics::burnFmas() {
    const Trace& t = *trace_;
    const SliceRef burn = test::slicesNamed(t, "burn(float*, long)")[1];
    const double sms = values_.value("sms").toDouble();
    const double expected = sms * 8 * 256 * 4 * double(1 << 20);
    const double ffma = argOf(t, burn, "sm__sass_thread_inst_executed_op_ffma_pred_on.sum");
    qInfo("burn: %.0f FFMA thread instructions, %.0f by construction; DFMA %.0f", ffma, expected,
          argOf(t, burn, "sm__sass_thread_inst_executed_op_dfma_pred_on.sum"));
    QVERIFY(sms > 0);
    QVERIFY(std::abs(ffma - expected) <= 0.01 * expected);
    QCOMPARE(argOf(t, burn, "sm__sass_thread_inst_executed_op_dfma_pred_on.sum"), 0.0);
}

void TestGpuKernelMetrics::roofline() {
    const Trace& t = *trace_;
    const Roofline r = computeRoofline(t, collectGpuOps(t));
    const RooflineCeilings* c = r.ceilings(0);
    QVERIFY(c && c->bytesPerSecond && c->flopsPerSecond[size_t(FlopPrecision::Fp32)]);
    const double bw = *c->bytesPerSecond, fp32 = *c->flopsPerSecond[size_t(FlopPrecision::Fp32)];
    qInfo("ceilings: DRAM %.3g B/s, FP32 %.3g FLOP/s", bw, fp32);
    QVERIFY(bw > 3.35e12 / 2 && bw < 4.8e12 * 2);
    QVERIFY(fp32 > 67e12 / 2 && fp32 < 67e12 * 2);
    for (const RooflineKernel& k : r.kernels) {
        const std::string name(t.str(k.nameId));
        qInfo("%s: intensity %.3g FLOP/B, achieved %.3g FLOP/s, %.0f %% of its roof", name.c_str(),
              k.intensity().value_or(-1), k.achieved().value_or(-1),
              100 * k.roofShare().value_or(-0.01));
        if (name.starts_with("copy")) QVERIFY(k.bound == RooflineBound::Memory);
        if (name.starts_with("burn")) {
            QVERIFY(k.bound == RooflineBound::Compute);
            QVERIFY(k.roofShare() && *k.roofShare() >= 0.10 && *k.roofShare() <= 1.0);
        }
    }
}

STRATA_TEST_GUILESS_MAIN(TestGpuKernelMetrics)
#include "tst_gpu_kernel_metrics.moc"
