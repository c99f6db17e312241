// --gpu-metrics on a real GPU (issue 51; CTest label "gpu"): kernels/samples/gpu_metrics_probe
// recorded through `strata-cli record --gpu-metrics` with the real collector and CUPTI, read back
// with loadTrace. Skips (QSKIP, with the reason) where no GPU is usable, as tst_gpu_record does.
// Expectations, from what the probe does by construction:
//   - the copy kernel moves copy_bytes (read + written, all DRAM traffic): the mean of DRAM Read
//     GB/s + DRAM Write GB/s over the kernel is within 10 % of copy_bytes / its duration (bytes
//     per ns = GB/s);
//   - the compute kernel keeps every SM busy: SM Active's mean over it is at least 90 %;
//   - in the idle gap between them (less one sample interval at each end) SM Active's mean is at
//     most 5 %;
//   - the samples line up with the kernels (the clock mapping, gpu_clock_map.h): SM Active first
//     passes 50 % within two intervals of the compute kernel's start.
// What the run chose (the metrics' names on this chip, the clock) is printed for the record.
#include "analysis/ops/gpu_metric_means.h"
#include "io/trace_loader.h"
#include "model/trace.h"
#include "support/counter_mean.h"
#include "support/gpu_available.h"
#include "support/gpu_probe.h"
#include "support/slice_lookup.h"
#include "support/test_main.h"

#include <QtTest>

#include <algorithm>

using namespace strata;

namespace {

// The last kernel of that name (the probe's timed one: its warm-up comes first).
SliceRef lastKernelNamed(const Trace& t, std::string_view name) {
    const std::vector<SliceRef> all = test::slicesNamed(t, name);
    return all.empty() ? SliceRef{} : all.back();
}

const Track* rowNamed(const Trace& t, std::string_view name) {
    for (TrackId i = 0; i < t.tracks().size(); ++i)
        if (t.track(i).kind == TrackKind::Counter && t.str(t.track(i).name) == name)
            return &t.track(i);
    return nullptr;
}

double meanOf(const std::vector<MetricMean>& means, const char* metric) {
    for (const MetricMean& m : means)
        if (m.metric == metric) return m.mean;
    return -1;
}

} // namespace

class TestGpuPmSampling : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::shared_ptr<const Trace> trace_;
    QMap<QString, QString> values_; // the probe's key=value lines

private slots:
    void initTestCase();
    void recorded();
    void copyThroughput();
    void computeKeepsSmsActive();
    void idleGapIsIdle();
    void samplesLineUpWithKernels();
};

void TestGpuPmSampling::initTestCase() {
    const QString why = test::gpuUnavailableReason();
    if (!why.isEmpty())
        QSKIP(qPrintable(why + " (GPU metrics checks owed: see docs/gpu-validation.md)"));
#ifndef STRATA_CLI
    QSKIP("strata-cli is not built in this configuration");
#else
    if (!QFile::exists(test::gpuProbePath())) QSKIP("kernels/samples were not built (no nvcc)");
    QVERIFY(dir_.isValid());
    const test::ProbeRecording r =
        test::recordProbe(STRATA_CLI, dir_.filePath("probe.strata"), {"--gpu-metrics"}, 300000);
    qInfo("%s", qPrintable(r.err));
    QCOMPARE(r.exitCode, 0);
    values_ = r.values;
    QVERIFY2(r.loadError.isEmpty(), qPrintable(r.loadError));
    trace_ = r.trace;
#endif
}

void TestGpuPmSampling::recorded() {
    const Trace& t = *trace_;
    const QString device = test::metadataText(t, "gpu_metrics_device_0");
    qInfo("gpu_metrics_device_0: %s", qPrintable(device));
    qInfo("gpu_metrics_clock_0: %s", qPrintable(test::metadataText(t, "gpu_metrics_clock_0")));
    qInfo("samples %s, overflows %s, lost %s",
          qPrintable(test::metadataText(t, "gpu_metrics_samples")),
          qPrintable(test::metadataText(t, "gpu_metrics_overflows")),
          qPrintable(test::metadataText(t, "gpu_metrics_samples_lost")));
    for (const auto& w : t.warnings()) qInfo("warning: %s", w.c_str());
    QVERIFY2(!device.startsWith("not recorded"), qPrintable(device));
    for (const char* row : {"GPU 0 SM Active %", "GPU 0 DRAM Read GB/s", "GPU 0 DRAM Write GB/s"})
        QVERIFY2(rowNamed(t, row), row);
    QVERIFY(lastKernelNamed(t, "copy(const float4*, float4*, unsigned long, int)").valid());
    QVERIFY(lastKernelNamed(t, "burn(float*, long)").valid());
}

void TestGpuPmSampling::copyThroughput() {
    const Trace& t = *trace_;
    const SliceRef copy = lastKernelNamed(t, "copy(const float4*, float4*, unsigned long, int)");
    QVERIFY(copy.valid());
    const auto means = gpuMetricMeans(t, gpuMetricRows(t), copy);
    const double read = meanOf(means, "DRAM Read GB/s"), write = meanOf(means, "DRAM Write GB/s");
    QVERIFY2(read >= 0 && write >= 0, "no sample covers the copy kernel (the clock mapping?)");
    const double bytes = values_.value("copy_bytes").toDouble();
    const double expected = bytes / double(t.duration(copy)); // bytes per ns = GB/s
    qInfo("copy: %.0f GB/s read + %.0f GB/s written by the metrics, %.0f GB/s by construction "
          "(%.0f bytes in %lld ns)",
          read, write, expected, bytes, static_cast<long long>(t.duration(copy)));
    QVERIFY(bytes > 0);
    QVERIFY(std::abs(read + write - expected) <= 0.10 * expected);
}

void TestGpuPmSampling::computeKeepsSmsActive() {
    const Trace& t = *trace_;
    const SliceRef burn = lastKernelNamed(t, "burn(float*, long)");
    QVERIFY(burn.valid());
    const double active = meanOf(gpuMetricMeans(t, gpuMetricRows(t), burn), "SM Active %");
    qInfo("burn: SM Active %.1f %% over %lld ns", active, static_cast<long long>(t.duration(burn)));
    QVERIFY(active >= 90.0);
}

void TestGpuPmSampling::idleGapIsIdle() {
    const Trace& t = *trace_;
    const SliceRef copy = lastKernelNamed(t, "copy(const float4*, float4*, unsigned long, int)");
    const SliceRef burn = lastKernelNamed(t, "burn(float*, long)");
    QVERIFY(copy.valid() && burn.valid());
    const TimeNs interval = 100000; // the default
    const TimeNs a = t.start(copy) + t.duration(copy) + interval, b = t.start(burn) - interval;
    QVERIFY(b - a > 10 * interval); // the probe idles 40 ms
    const Track* row = rowNamed(t, "GPU 0 SM Active %");
    QVERIFY(row);
    const double idle = test::counterMeanOver(*row, a, b);
    qInfo("idle gap: SM Active %.2f %% over %lld ns", idle, static_cast<long long>(b - a));
    QVERIFY(idle <= 5.0);
}

void TestGpuPmSampling::samplesLineUpWithKernels() {
    const Trace& t = *trace_;
    const SliceRef burn = lastKernelNamed(t, "burn(float*, long)");
    const Track* row = rowNamed(t, "GPU 0 SM Active %");
    QVERIFY(burn.valid() && row);
    const TimeNs start = t.start(burn), interval = 100000;
    TimeNs rises = -1;
    for (size_t i = 0; i < row->counter.size(); ++i)
        if (row->counter.ts[i] >= start - 5 * interval && row->counter.value[i] > 50) {
            rises = row->counter.ts[i];
            break;
        }
    QVERIFY2(rises >= 0, "SM Active never passes 50 % near the compute kernel");
    qInfo("SM Active passes 50 %% %lld ns after the compute kernel starts (interval %lld ns)",
          static_cast<long long>(rises - start), static_cast<long long>(interval));
    QVERIFY(std::abs(rises - start) <= 2 * interval);
}

STRATA_TEST_GUILESS_MAIN(TestGpuPmSampling)
#include "tst_gpu_pm_sampling.moc"
