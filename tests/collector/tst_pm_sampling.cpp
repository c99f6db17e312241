// --gpu-metrics end to end on the stand-in CUPTI (issue 51): the collector's real code starts PM
// sampling on the device of each new context, decodes the samples the harness queues
// (collector_harness_gpu_metrics.cpp) at each flush and at its end, and writes them as counter
// rows `GPU 0 <metric>` read back here with loadTrace; recorded directly and through
// `strata-cli record --gpu-metrics --gpu-metrics-interval-us 20`.
//
// The scenario "gpu_metrics" (times in us on the collector's clock, which its samples run on):
// kernels on device 0: copy [100, 150), gemm [160, 180), gemm [240, 260); idle [180, 240).
// Sample i = 0..9 starts at 80 + 20 i and lasts 20; as rows (CUPTI's bytes/s / 1e9 = GB/s):
//   start        80  100  120  140  160  180  200  220  240  260
//   SM Active %   0  100  100   50  100    0    0    0  100    0
//   SM Occ. %     0   50   50   25   75    0    0    0   75    0
//   Tensor %      0    0    0    0   80    0    0    0   80    -   (sample 9 has none)
//   DRAM Read     0 2000 2000 1000   50    0    0    0   50    0
//   DRAM Write    0 2000 2000 1000   10    0    0    0   10    0
//   PCIe Read     1    0    0    0    0    0    0    0    0    0
//   PCIe Write    0    0    0    0    0    0    2    0    0    0
// No NVLink rows: the chip lacks them (optional: said in the metadata, no warning).
// Means over a kernel, each value holding until the next sample:
//   copy [100, 150): SM Active (100*20 + 100*20 + 50*10) / 50 = 90; SM Occupancy
//     (50*20 + 50*20 + 25*10) / 50 = 45; DRAM Read and Write (2000*20 + 2000*20 + 1000*10) / 50
//     = 1800; PCIe 0; covered 50 us.
//   gemm [160, 180) and [240, 260): the samples at 160 and 240 alone: SM Active 100, DRAM Read
//     50, DRAM Write 10; per kernel name, both runs: the same, covered 40 us. Tensor 80 over the
//     first; its row's last sample (240, sample 9 has none) holds for no time, so the second
//     has no tensor mean and the name's is 80 over 20 us.
//   the idle gap [180, 240): samples at 180, 200, 220: SM Active 0.
// The first flush decodes samples 0..4 into an image of 4 (the stand-in's limit): full once, the
// image initialised at the start, after the full image and after the fifth sample: 3 times.
#include "analysis/ops/gpu_metric_means.h"
#include "analysis/ops/gpu_ops.h"
#include "model/names/track_names.h"
#include "support/collector_fixture.h"
#include "support/counter_mean.h"
#include "support/process_run.h"
#include "support/test_main.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace {

const QStringList kGpuMetricsEnv{"STRATA_GPU_METRICS=default", "STRATA_GPU_METRICS_INTERVAL_US=20",
                                 // only the scenario's own flushes decode
                                 "STRATA_FLUSH_MS=3600000"};

const char* const kDefaultNames =
    "sm__cycles_active.avg.pct_of_peak_sustained_elapsed,"
    "sm__warps_active.avg.pct_of_peak_sustained_elapsed,"
    "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed,"
    "dram__bytes_read.sum.per_second,dram__bytes_write.sum.per_second,"
    "pcie__read_bytes.sum.per_second,pcie__write_bytes.sum.per_second";

struct Row {
    const char* name;
    std::vector<TimeNs> ts;
    std::vector<double> values;
};

std::vector<TimeNs> sampleTimes(int count) {
    std::vector<TimeNs> ts;
    for (int i = 0; i < count; ++i) ts.push_back(80000 + 20000 * TimeNs(i));
    return ts;
}

const std::vector<Row>& expectedRows() {
    static const std::vector<Row> rows{
        {"GPU 0 SM Active %", sampleTimes(10), {0, 100, 100, 50, 100, 0, 0, 0, 100, 0}},
        {"GPU 0 SM Occupancy %", sampleTimes(10), {0, 50, 50, 25, 75, 0, 0, 0, 75, 0}},
        {"GPU 0 Tensor Active %", sampleTimes(9), {0, 0, 0, 0, 80, 0, 0, 0, 80}},
        {"GPU 0 DRAM Read GB/s", sampleTimes(10), {0, 2000, 2000, 1000, 50, 0, 0, 0, 50, 0}},
        {"GPU 0 DRAM Write GB/s", sampleTimes(10), {0, 2000, 2000, 1000, 10, 0, 0, 0, 10, 0}},
        {"GPU 0 PCIe Read GB/s", sampleTimes(10), {1, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
        {"GPU 0 PCIe Write GB/s", sampleTimes(10), {0, 0, 0, 0, 0, 0, 2, 0, 0, 0}},
    };
    return rows;
}

const Track* counterNamed(const Trace& t, std::string_view name) {
    for (TrackId i = 0; i < t.tracks().size(); ++i)
        if (t.track(i).kind == TrackKind::Counter && t.str(t.track(i).name) == name)
            return &t.track(i);
    return nullptr;
}

QStringList gpuRows(const Trace& t) {
    QStringList out;
    for (const GpuMetricRow& r : gpuMetricRows(t))
        out << QString::fromStdString(gpuCounterName(r.device, r.metric));
    return out;
}

double meanOf(const std::vector<MetricMean>& means, const char* metric, TimeNs* covered) {
    for (const MetricMean& m : means)
        if (m.metric == metric) {
            *covered = m.coveredNs;
            return m.mean;
        }
    *covered = -1;
    return -1;
}

// "CUPTI timestamp (trace = sample - N ns)": N.
qint64 clockOffset(const QString& text) {
    const auto m = QRegularExpression(R"(trace = sample - (\d+) ns)").match(text);
    return m.hasMatch() ? m.captured(1).toLongLong() : -1;
}

} // namespace

class TestPmSampling : public QObject, public CollectorFiles {
    Q_OBJECT
    std::shared_ptr<const Trace> trace_; // the "gpu_metrics" scenario recorded directly

    void checkRecording(const QMap<QString, QString>& out, const Trace& t);

private slots:
    void initTestCase();
    void recordedThroughTheCollector();
    void recordedThroughStrataCliRecord();
    void kernelMeans();
    void statsPrintsThem();
    void idleGap();
    void offCostsNothing();
    void refusedIsAWarning_data();
    void refusedIsAWarning();
    void lostSamplesSaid();
    void recordHelpNamesTheOptions();
    void recordRefusesBadOptions_data();
    void recordRefusesBadOptions();
};

void TestPmSampling::initTestCase() {
    QVERIFY(dir_.isValid());
}

// What both ways of recording the scenario must give.
void TestPmSampling::checkRecording(const QMap<QString, QString>& out, const Trace& t) {
    // What the collector asked of CUPTI: the interval option in ns, a fixed-time trigger, the
    // oldest samples kept (an overflow is reported), the metrics the chip has, one session for
    // the device's two contexts, one profiler initialisation, one host object left alive.
    QCOMPARE(out.value("context_delivered"), QString("1"));
    QCOMPARE(out.value("flushed_pm_state"), QString("2")); // started
    QCOMPARE(out.value("flushed_pm_interval"), QString("20000"));
    QCOMPARE(out.value("flushed_pm_trigger"), QString("1")); // GPU_TIME_INTERVAL
    QCOMPARE(out.value("flushed_pm_append"), QString("0"));  // KEEP_OLDEST
    QCOMPARE(out.value("flushed_pm_hardware_buffer"), QString::number(128 << 20));
    QCOMPARE(out.value("flushed_pm_metrics"), QString(kDefaultNames));
    QCOMPARE(out.value("pm_enables"), QString("1"));
    QCOMPARE(out.value("pm_starts"), QString("1"));
    QCOMPARE(out.value("profiler_initializations"), QString("1"));
    QCOMPARE(out.value("flushed_pm_host_objects"), QString("1"));
    QCOMPARE(out.value("flushed_pm_full_stops"), QString("1"));
    QCOMPARE(out.value("flushed_pm_image_inits"), QString("3"));

    // The rows, every time and value.
    QStringList names;
    for (const Row& r : expectedRows()) names << r.name;
    QStringList sortedNames = names;
    sortedNames.sort();
    QStringList rows = gpuRows(t);
    rows.sort();
    QCOMPARE(rows, sortedNames); // no NVLink rows
    for (const Row& r : expectedRows()) {
        const Track* row = counterNamed(t, r.name);
        QVERIFY2(row, r.name);
        QCOMPARE(row->pid, int64_t(0)); // the device's pid: drawn under GPU 0
        QCOMPARE(row->counter.size(), r.ts.size());
        for (size_t i = 0; i < r.ts.size(); ++i) {
            QCOMPARE(row->counter.ts[i], r.ts[i]);
            QCOMPARE(row->counter.value[i], r.values[i]);
        }
    }

    QCOMPARE(meta(t, "gpu_metrics"), QString("default every 20 us"));
    const QString device = meta(t, "gpu_metrics_device_0");
    QVERIFY2(device.startsWith("GH100, every 20 us: SM Active % "
                               "(sm__cycles_active.avg.pct_of_peak_sustained_elapsed), SM "
                               "Occupancy % (sm__warps_active.avg.pct_of_peak_sustained_elapsed)"),
             qPrintable(device));
    QVERIFY2(device.endsWith("; not on this chip: NVLink RX GB/s, NVLink TX GB/s"),
             qPrintable(device));
    QCOMPARE(meta(t, "gpu_metrics_clock_0"),
             QString("the collector's clock (trace = sample - 0 ns)"));
    QCOMPARE(meta(t, "gpu_metrics_samples"), QString("10"));
    QCOMPARE(meta(t, "gpu_metrics_missing_values"), QString("1"));
    QCOMPARE(meta(t, "gpu_metrics_overflows"), QString("0"));
    QCOMPARE(meta(t, "gpu_metrics_samples_lost"), QString("0"));
    QVERIFY(!hasWarning(t, "GPU metrics"));

    QCOMPARE(slicesNamed(t, "copy(float*, float*)").size(), size_t(1));
    QCOMPARE(slicesNamed(t, "gemm()").size(), size_t(2));
}

void TestPmSampling::recordedThroughTheCollector() {
    const QString file = path("gpu_metrics.strata");
    const Run r = runHarness("gpu_metrics", QStringList{"STRATA_OUTPUT=" + file} + kGpuMetricsEnv);
    QCOMPARE(r.status, 0);
    trace_ = load(file);
    QVERIFY(trace_);
    checkRecording(r.out, *trace_);
}

void TestPmSampling::recordedThroughStrataCliRecord() {
#ifndef STRATA_CLI
    QSKIP("strata-cli is not built in this configuration");
#else
    const QString file = path("cli.strata");
    const test::ProcessRun p =
        test::runProcess(STRATA_CLI,
                         {"record", "-q", "-o", file, "--collector", STRATA_COLLECTOR_FAKE_SO,
                          "--gpu-metrics", "--gpu-metrics-interval-us", "20", "--flush-ms",
                          "3600000", "--", STRATA_COLLECTOR_HARNESS, "gpu_metrics"},
                         QProcessEnvironment::systemEnvironment(), 60000);
    QCOMPARE(p.exitCode, 0);
    QMap<QString, QString> out;
    for (const QString& line : QString::fromLocal8Bit(p.out).split('\n', Qt::SkipEmptyParts))
        if (const int eq = line.indexOf('='); eq > 0) out.insert(line.left(eq), line.mid(eq + 1));
    auto t = load(file);
    QVERIFY(t);
    checkRecording(out, *t);
#endif
}

void TestPmSampling::kernelMeans() {
    QVERIFY(trace_);
    const Trace& t = *trace_;
    const std::vector<GpuMetricRow> rows = gpuMetricRows(t);
    TimeNs covered = 0;
    const auto copy = gpuMetricMeans(t, rows, only(t, "copy(float*, float*)"));
    QCOMPARE(meanOf(copy, "SM Active %", &covered), 90.0);
    QCOMPARE(covered, TimeNs(50000));
    QCOMPARE(meanOf(copy, "SM Occupancy %", &covered), 45.0);
    QCOMPARE(meanOf(copy, "DRAM Read GB/s", &covered), 1800.0);
    QCOMPARE(meanOf(copy, "DRAM Write GB/s", &covered), 1800.0);
    QCOMPARE(meanOf(copy, "PCIe Read GB/s", &covered), 0.0);
    QCOMPARE(copy.size(), size_t(7));

    auto gemms = slicesNamed(t, "gemm()");
    QCOMPARE(gemms.size(), size_t(2));
    std::sort(gemms.begin(), gemms.end(),
              [&](SliceRef a, SliceRef b) { return t.start(a) < t.start(b); });
    for (SliceRef g : gemms) {
        const auto m = gpuMetricMeans(t, rows, g);
        QCOMPARE(meanOf(m, "SM Active %", &covered), 100.0);
        QCOMPARE(covered, TimeNs(20000));
        QCOMPARE(meanOf(m, "DRAM Read GB/s", &covered), 50.0);
        QCOMPARE(meanOf(m, "DRAM Write GB/s", &covered), 10.0);
    }
    QCOMPARE(meanOf(gpuMetricMeans(t, rows, gemms[0]), "Tensor Active %", &covered), 80.0);
    QCOMPARE(meanOf(gpuMetricMeans(t, rows, gemms[1]), "Tensor Active %", &covered), -1.0);
    QCOMPARE(covered, TimeNs(-1)); // no tensor mean: nothing covers it
    // Per kernel name (what strata-cli stats --gpu-metrics prints).
    const auto perName = kernelMetricMeans(t, collectGpuOps(t));
    const auto gemm = std::find_if(perName.begin(), perName.end(),
                                   [](const KernelMetricMeans& k) { return k.name == "gemm()"; });
    QVERIFY(gemm != perName.end());
    QCOMPARE(gemm->runs, uint64_t(2));
    QCOMPARE(meanOf(gemm->means, "SM Active %", &covered), 100.0);
    QCOMPARE(covered, TimeNs(40000));
    QCOMPARE(meanOf(gemm->means, "Tensor Active %", &covered), 80.0);
    QCOMPARE(covered, TimeNs(20000));
}

// strata-cli stats --json on the same recording: gpu_metrics, the copy kernel's means.
void TestPmSampling::statsPrintsThem() {
#ifndef STRATA_CLI
    QSKIP("strata-cli is not built in this configuration");
#else
    const test::ProcessRun p =
        test::runProcess(STRATA_CLI, {"stats", "--json", path("gpu_metrics.strata")},
                         QProcessEnvironment::systemEnvironment(), 60000);
    QCOMPARE(p.exitCode, 0);
    const QJsonArray kernels =
        QJsonDocument::fromJson(p.out).object().value("gpu_metrics").toArray();
    QJsonObject copy;
    for (const QJsonValue& k : kernels)
        if (k.toObject().value("name").toString() == "copy(float*, float*)") copy = k.toObject();
    const QJsonObject means = copy.value("means").toObject();
    QCOMPARE(means.value("SM Active %").toObject().value("mean").toDouble(), 90.0);
    QCOMPARE(means.value("DRAM Read GB/s").toObject().value("mean").toDouble(), 1800.0);
    QCOMPARE(means.value("DRAM Read GB/s").toObject().value("covered_us").toDouble(), 50.0);
#endif
}

void TestPmSampling::idleGap() {
    QVERIFY(trace_);
    const Track* active = counterNamed(*trace_, "GPU 0 SM Active %");
    QVERIFY(active);
    QCOMPARE(test::counterMeanOver(*active, 180000, 240000), 0.0);
    QCOMPARE(test::counterMeanOver(*active, 160000, 180000),
             100.0); // the first gemm, by the same rule
}

void TestPmSampling::offCostsNothing() {
    // The same program without --gpu-metrics: no context callback, nothing of CUPTI's profiler.
    const QString file = path("off.strata");
    const Run r = runHarness("gpu_metrics", {"STRATA_OUTPUT=" + file});
    QCOMPARE(r.status, 0);
    QCOMPARE(r.out.value("context_delivered"), QString("0"));
    QCOMPARE(r.out.value("context_callback_enabled"), QString("0"));
    QCOMPARE(r.out.value("profiler_initializations"), QString("0"));
    QCOMPARE(r.out.value("pm_enables"), QString("0"));
    auto t = load(file);
    QVERIFY(t);
    QVERIFY(gpuRows(*t).isEmpty());
    QCOMPARE(meta(*t, "gpu_metrics"), QString("<absent>"));
    QCOMPARE(slicesNamed(*t, "gemm()").size(), size_t(2));
}

// Sampling refused one way or another: one warning (in the trace and on stderr), the program runs
// on, its kernel recorded. Where some metrics are left out, the others are recorded: the sample
// at 100 us (SM Active 100).
void TestPmSampling::refusedIsAWarning_data() {
    QTest::addColumn<QString>("fail");
    QTest::addColumn<QString>("set");
    QTest::addColumn<QString>("warning");
    QTest::addColumn<QString>("smRow");
    QTest::addColumn<int>("rows");
    QTest::newRow("no privileges")
        << "privileges"
        << "default"
        << "GPU metrics on device 0 not recorded: cuptiPmSamplingGetCounterAvailability: "
           "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (35): this user may not read the GPU's "
           "performance counters (run as root, or load the driver with "
           "NVreg_RestrictProfilingToAdminUsers=0); the program runs on without them"
        << "" << 0;
    QTest::newRow("configuration refused")
        << "config"
        << "default"
        << "GPU metrics on device 0 not recorded: cuptiPmSamplingSetConfig: "
           "CUPTI_ERROR_NOT_SUPPORTED (27); the program runs on without them"
        << "" << 0;
    QTest::newRow("unsupported device")
        << "unsupported"
        << "default"
        << "GPU metrics on device 0 not recorded: the device does not support PM sampling: its "
           "architecture; the program runs on without them"
        << "" << 0;
    QTest::newRow("a metric the chip lacks")
        << "metric"
        << "sm__cycles_active.avg.pct_of_peak_sustained_elapsed,bogus__metric.sum"
        << "GPU metrics on device 0 (GH100): not on this chip, not recorded: bogus__metric.sum"
        << "GPU 0 sm__cycles_active.avg.pct_of_peak_sustained_elapsed" << 1;
    QTest::newRow("no metric the chip has")
        << "metric"
        << "bogus__metric.sum"
        << "GPU metrics on device 0 not recorded: the chip (GH100) has none of the metrics asked "
           "for; the program runs on without them"
        << "" << 0;
    // Five metrics per pass: the four optional ones go, the last first.
    QTest::newRow("more than one pass")
        << "passes"
        << "default"
        << "GPU metrics on device 0 (GH100): NVLink TX GB/s, NVLink RX GB/s, PCIe Write GB/s, "
           "PCIe Read GB/s left out: with them the set needs more than one pass, and PM sampling "
           "takes one"
        << "GPU 0 SM Active %" << 5;
}

void TestPmSampling::refusedIsAWarning() {
    QFETCH(QString, fail);
    QFETCH(QString, set);
    QFETCH(QString, warning);
    QFETCH(QString, smRow);
    QFETCH(int, rows);
    const QString file =
        path("refused-" + QString(QTest::currentDataTag()).replace(' ', '_') + ".strata");
    const Run r =
        runHarness("gpu_metrics_refused", {"STRATA_OUTPUT=" + file, "STRATA_GPU_METRICS=" + set,
                                           "STRATA_FLUSH_MS=3600000", "HARNESS_PM_FAIL=" + fail});
    QCOMPARE(r.status, 0);
    QVERIFY2(r.stderrText.contains("[strata] " + warning), qPrintable(r.stderrText));
    auto t = load(file);
    QVERIFY(t);
    QVERIFY2(hasWarning(*t, warning), qPrintable(meta(*t, "gpu_metrics_device_0")));
    QCOMPARE(slicesNamed(*t, "copy(float*, float*)").size(), size_t(1)); // recorded all the same
    QCOMPARE(gpuRows(*t).size(), rows);
    if (rows == 0) {
        QVERIFY(meta(*t, "gpu_metrics_device_0").startsWith("not recorded: "));
        QCOMPARE(r.out.value("pm_state"), QString("0")); // nothing left enabled
        QCOMPARE(r.out.value("pm_host_objects"), QString("0"));
        QCOMPARE(meta(*t, "gpu_metrics_samples"), QString("0"));
    } else {
        const Track* sm = counterNamed(*t, smRow.toStdString());
        QVERIFY(sm);
        QCOMPARE(sm->counter.size(), size_t(1));
        QCOMPARE(sm->counter.ts[0], TimeNs(100000));
        QCOMPARE(sm->counter.value[0], 100.0);
    }
}

// The hardware buffer overflows twice in "gpu_metrics_lost", whose samples run on a clock of
// CUPTI's own, 4e17 ns ahead of the collector's: samples 0 and 1 (80, 100 us); an overflow flag
// with sample 4 (160 us): 2 and 3 lost, (160 - 120) / 20; then decoding refused (sampling started
// again) and sample 7 (220 us): 5 and 6 lost, (220 - 180) / 20. So 4 samples, 2 overflows, 4
// lost. The clock's offset is measured (cuptiGetTimestamp beside the collector's clock, read
// right after): 4e17 and the time between the two readings, under a second.
void TestPmSampling::lostSamplesSaid() {
    const QString file = path("lost.strata");
    const Run r =
        runHarness("gpu_metrics_lost", QStringList{"STRATA_OUTPUT=" + file} + kGpuMetricsEnv);
    QCOMPARE(r.status, 0);
    QCOMPARE(r.out.value("pm_starts"), QString("2"));
    auto t = load(file);
    QVERIFY(t);
    QCOMPARE(meta(*t, "gpu_metrics_samples"), QString("4"));
    QCOMPARE(meta(*t, "gpu_metrics_overflows"), QString("2"));
    QCOMPARE(meta(*t, "gpu_metrics_samples_lost"), QString("4"));
    const QString said = "GPU metrics on device 0: the PM sampling buffer overflowed 2 times, "
                         "about 4 samples lost (a longer --gpu-metrics-interval-us, or fewer "
                         "metrics, keeps up)";
    QVERIFY(hasWarning(*t, said));
    QVERIFY(r.stderrText.contains("[strata] " + said));

    const QString clock = meta(*t, "gpu_metrics_clock_0");
    QVERIFY2(clock.startsWith("CUPTI timestamp (trace = sample - "), qPrintable(clock));
    const qint64 epoch = 400'000'000'000'000'000, offset = clockOffset(clock);
    QVERIFY2(offset >= epoch && offset < epoch + 1'000'000'000, qPrintable(clock));
    const Track* active = counterNamed(*t, "GPU 0 SM Active %");
    QVERIFY(active);
    const TimeNs at[] = {80000, 100000, 160000, 220000};
    const double values[] = {0, 100, 100, 0};
    QCOMPARE(active->counter.size(), size_t(4));
    for (size_t i = 0; i < 4; ++i) {
        QCOMPARE(active->counter.ts[i], TimeNs(epoch + at[i] - offset));
        QCOMPARE(active->counter.value[i], values[i]);
    }
}

void TestPmSampling::recordHelpNamesTheOptions() {
#ifndef STRATA_CLI
    QSKIP("strata-cli is not built in this configuration");
#else
    const test::ProcessRun p = test::runProcess(STRATA_CLI, {"record", "--help"},
                                                QProcessEnvironment::systemEnvironment(), 30000);
    const QString help = QString::fromLocal8Bit(p.out + p.err);
    QVERIFY2(help.contains("--gpu-metrics[=SET]"), qPrintable(help));
    QVERIFY(help.contains("--gpu-metrics-interval-us N"));
#endif
}

// strata-cli record says what is wrong and runs nothing (exit 2).
void TestPmSampling::recordRefusesBadOptions_data() {
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("said");
    QTest::newRow("interval alone") << QStringList{"--gpu-metrics-interval-us", "50"}
                                    << "--gpu-metrics-interval-us needs --gpu-metrics";
    QTest::newRow("interval 0") << QStringList{"--gpu-metrics", "--gpu-metrics-interval-us", "0"}
                                << "--gpu-metrics-interval-us expects 1..1000000 us, got '0'";
    QTest::newRow("a bad name") << QStringList{"--gpu-metrics=sm__x.sum,a b"}
                                << "--gpu-metrics expects default or a comma list of CUPTI "
                                   "metric names (letters, digits, '_' and '.'), got 'a b'";
}

void TestPmSampling::recordRefusesBadOptions() {
#ifndef STRATA_CLI
    QSKIP("strata-cli is not built in this configuration");
#else
    QFETCH(QStringList, options);
    QFETCH(QString, said);
    const QString file = path("refused-options.strata");
    const test::ProcessRun p = test::runProcess(
        STRATA_CLI,
        QStringList{"record", "-q", "-o", file, "--collector", STRATA_COLLECTOR_FAKE_SO} + options +
            QStringList{"--", STRATA_COLLECTOR_HARNESS, "small"},
        QProcessEnvironment::systemEnvironment(), 30000);
    QCOMPARE(p.exitCode, 2);
    QVERIFY2(QString::fromLocal8Bit(p.err).contains(said), p.err.constData());
    QVERIFY(!QFile::exists(file));
#endif
}

STRATA_TEST_GUILESS_MAIN(TestPmSampling)
#include "tst_pm_sampling.moc"
