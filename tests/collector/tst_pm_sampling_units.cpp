// --gpu-metrics' plain parts (issue 51), without CUPTI: the metric sets STRATA_GPU_METRICS names
// (kernels/collector/gpu_metrics/metric_set.h), the options as the launcher passes them
// (record/record_options.h) and the collector reads them (collector_config.h), and which clock a
// PM sample's time runs on (gpu_clock_map.h).
// Clock readings are round numbers chosen here: the collector's clock at 1e12 ns (17 minutes
// after boot), CLOCK_REALTIME at 1.7e18 ns (2023), a CUPTI clock of its own at 4e17 + 1e12 ns.
#include "collector_config.h"
#include "gpu_metrics/gpu_clock_map.h"
#include "gpu_metrics/metric_set.h"
#include "record/record_options.h"
#include "support/test_main.h"

#include <QtTest>

#include <map>

using namespace strata;
using namespace strata::gpu_metrics;

namespace {

CollectorConfig configFrom(const std::map<std::string, std::string>& vars) {
    return readCollectorConfig([&](const char* name) -> const char* {
        auto it = vars.find(name);
        return it == vars.end() ? nullptr : it->second.c_str();
    });
}

bool hasWarning(const std::vector<std::string>& warnings, const char* part) {
    for (const auto& w : warnings)
        if (w.find(part) != std::string::npos) return true;
    return false;
}

QStringList labels(const std::vector<MetricSpec>& set) {
    QStringList out;
    for (const MetricSpec& m : set) out << QString::fromStdString(m.label);
    return out;
}

constexpr qint64 kCollector = 1'000'000'000'000;        // 1e12
constexpr qint64 kRealtime = 1'700'000'000'000'000'000; // 1.7e18
constexpr qint64 kCuptiOwn = 400'001'000'000'000'000;   // 4e17 + 1e12

} // namespace

class TestPmSamplingUnits : public QObject {
    Q_OBJECT
private slots:
    void defaultSet();
    void listsParsed();
    void optionsRead();
    void badOptionsAreWarnings();
    void launcherPassesThem();
    void clockChosenByFirstSample_data();
    void clockChosenByFirstSample();
    void clockDescribed();
};

void TestPmSamplingUnits::defaultSet() {
    const std::vector<MetricSpec>& set = defaultMetricSet();
    QCOMPARE(labels(set), QStringList({"SM Active %", "SM Occupancy %", "Tensor Active %",
                                       "DRAM Read GB/s", "DRAM Write GB/s", "PCIe Read GB/s",
                                       "PCIe Write GB/s", "NVLink RX GB/s", "NVLink TX GB/s"}));
    QCOMPARE(set[0].names.front(),
             std::string("sm__cycles_active.avg.pct_of_peak_sustained_elapsed"));
    QCOMPARE(set[2].names.size(), size_t(2)); // the tensor pipe's name differs by architecture
    QCOMPARE(set[3].names.front(), std::string("dram__bytes_read.sum.per_second"));
    // Percentages as CUPTI gives them; bytes per second as GB/s.
    QCOMPARE(set[0].divisor, 1.0);
    QCOMPARE(set[3].divisor, 1e9);
    QCOMPARE(set[8].divisor, 1e9);
    // PCIe and NVLink only where the chip has them.
    for (size_t i = 0; i < set.size(); ++i) QCOMPARE(set[i].optional, i >= 5);
}

void TestPmSamplingUnits::listsParsed() {
    std::vector<std::string> w;
    QCOMPARE(parseMetricSet("default", &w).size(), size_t(9));
    QCOMPARE(parseMetricSet(" default , default", &w).size(), size_t(9)); // once
    const auto own = parseMetricSet("sm__inst_executed.sum,lts__t_bytes.sum.per_second", &w);
    QCOMPARE(own.size(), size_t(2));
    QCOMPARE(own[0].names, std::vector<std::string>{"sm__inst_executed.sum"});
    QCOMPARE(own[0].label, std::string("sm__inst_executed.sum")); // named as the user named it
    QCOMPARE(own[1].divisor, 1.0);
    QVERIFY(!own[0].optional);
    // A name of the default set given again is the default's row, once.
    QCOMPARE(labels(parseMetricSet("default,dram__bytes_read.sum.per_second", &w)).size(), 9);
    QCOMPARE(labels(parseMetricSet("sm__inst_executed.sum,default", &w)).front(),
             QString("sm__inst_executed.sum"));
    QVERIFY(w.empty());
    QVERIFY(parseMetricSet("", &w).empty());
    QVERIFY(parseMetricSet(" , ,", &w).empty());
    QVERIFY(w.empty());
    const auto bad = parseMetricSet("sm__inst_executed.sum,rm -rf", &w);
    QCOMPARE(bad.size(), size_t(1));
    QCOMPARE(w.size(), size_t(1));
    QVERIFY(hasWarning(w, "GPU metric \"rm -rf\" ignored"));
}

void TestPmSamplingUnits::optionsRead() {
    const CollectorConfig off = configFrom({});
    QVERIFY(off.gpuMetrics.empty()); // off unless asked
    QCOMPARE(off.gpuMetricsIntervalUs, uint32_t(100));
    const CollectorConfig c =
        configFrom({{"STRATA_GPU_METRICS", "default"}, {"STRATA_GPU_METRICS_INTERVAL_US", "250"}});
    QVERIFY(c.warnings.empty());
    QCOMPARE(c.gpuMetrics.size(), size_t(9));
    QCOMPARE(c.gpuMetricsAsked, std::string("default"));
    QCOMPARE(c.gpuMetricsIntervalUs, uint32_t(250));
    const CollectorConfig one = configFrom({{"STRATA_GPU_METRICS", "dram__bytes.sum"}});
    QCOMPARE(one.gpuMetrics.size(), size_t(1));
    QCOMPARE(one.gpuMetricsIntervalUs, uint32_t(100));
    QCOMPARE(
        configFrom({{"STRATA_GPU_METRICS_INTERVAL_US", "1"}, {"STRATA_GPU_METRICS", "default"}})
            .gpuMetricsIntervalUs,
        uint32_t(1));
    QCOMPARE(configFrom(
                 {{"STRATA_GPU_METRICS_INTERVAL_US", "1000000"}, {"STRATA_GPU_METRICS", "default"}})
                 .gpuMetricsIntervalUs,
             uint32_t(1000000));
}

void TestPmSamplingUnits::badOptionsAreWarnings() {
    const CollectorConfig c =
        configFrom({{"STRATA_GPU_METRICS", "default"}, {"STRATA_GPU_METRICS_INTERVAL_US", "0"}});
    QCOMPARE(c.gpuMetrics.size(), size_t(9)); // the metrics stand, at the default interval
    QCOMPARE(c.gpuMetricsIntervalUs, uint32_t(100));
    QVERIFY(hasWarning(c.warnings, "STRATA_GPU_METRICS_INTERVAL_US=\"0\" ignored: expected an "
                                   "integer in [1, 1000000]; using 100"));
    const CollectorConfig big = configFrom(
        {{"STRATA_GPU_METRICS", "default"}, {"STRATA_GPU_METRICS_INTERVAL_US", "1000001"}});
    QCOMPARE(big.gpuMetricsIntervalUs, uint32_t(100));
    const CollectorConfig alone = configFrom({{"STRATA_GPU_METRICS_INTERVAL_US", "50"}});
    QVERIFY(alone.gpuMetrics.empty());
    QVERIFY(hasWarning(alone.warnings, "STRATA_GPU_METRICS_INTERVAL_US given without "
                                       "STRATA_GPU_METRICS: no GPU metrics are recorded"));
    const CollectorConfig junk = configFrom({{"STRATA_GPU_METRICS", "$$$"}});
    QVERIFY(junk.gpuMetrics.empty());
    QVERIFY(hasWarning(junk.warnings, "GPU metric \"$$$\" ignored"));
    QVERIFY(hasWarning(junk.warnings, "STRATA_GPU_METRICS=\"$$$\" ignored: expected default or a "
                                      "list of CUPTI metric names; using no GPU metrics"));
}

void TestPmSamplingUnits::launcherPassesThem() {
    using Env = std::vector<std::pair<std::string, std::string>>;
    auto gpuVariables = [](const Env& env) {
        Env out;
        for (const auto& kv : env)
            if (kv.first.rfind("STRATA_GPU_METRICS", 0) == 0) out.push_back(kv);
        return out;
    };
    RecordOptions o;
    o.command = {"python3"};
    QVERIFY(gpuVariables(toCollectorEnvironment(o, "f.strata")).empty()); // off: nothing set
    o.gpuMetrics = "default";
    QCOMPARE(gpuVariables(toCollectorEnvironment(o, "f.strata")),
             (Env{{"STRATA_GPU_METRICS", "default"}, {"STRATA_GPU_METRICS_INTERVAL_US", "100"}}));
    QCOMPARE(recordArguments(o), std::vector<std::string>{"--gpu-metrics=default"});
    o.gpuMetrics = "sm__inst_executed.sum,dram__bytes.sum";
    o.gpuMetricsIntervalUs = 250;
    QCOMPARE(gpuVariables(toCollectorEnvironment(o, "f.strata")),
             (Env{{"STRATA_GPU_METRICS", "sm__inst_executed.sum,dram__bytes.sum"},
                  {"STRATA_GPU_METRICS_INTERVAL_US", "250"}}));
    QCOMPARE(recordArguments(o),
             (std::vector<std::string>{"--gpu-metrics=sm__inst_executed.sum,dram__bytes.sum",
                                       "--gpu-metrics-interval-us", "250"}));
    std::string error;
    QVERIFY(validateRecordOptions(o, &error));
    o.gpuMetricsIntervalUs = 0;
    QVERIFY(!validateRecordOptions(o, &error));
    QCOMPARE(error, std::string("the GPU metrics interval must be 1..1000000 us"));
    o.gpuMetricsIntervalUs = 100;
    o.gpuMetrics = "default,,x";
    QVERIFY(!validateRecordOptions(o, &error));
    QCOMPARE(error, std::string("--gpu-metrics expects default or a comma list of CUPTI metric "
                                "names (letters, digits, '_' and '.'), got ''"));
}

void TestPmSamplingUnits::clockChosenByFirstSample_data() {
    QTest::addColumn<qint64>("cupti");
    QTest::addColumn<quint64>("firstSample");
    QTest::addColumn<int>("base");
    QTest::addColumn<qint64>("offset");
    const int collector = int(ClockBase::Collector), cupti = int(ClockBase::Cupti),
              realtime = int(ClockBase::Realtime);
    // CUPTI's time is the collector's (its timestamp callback): two clocks to tell apart.
    QTest::newRow("collector clock")
        << kCollector << quint64(kCollector + 80000) << collector << qint64(0);
    QTest::newRow("realtime") << kCollector << quint64(kRealtime + 80000) << realtime
                              << qint64(kRealtime - kCollector);
    // A sample taken before the readings (the first one, already in the buffer) still lies
    // nearest its own clock.
    QTest::newRow("realtime, sample before the reading")
        << kCollector << quint64(kRealtime - 5'000'000) << realtime
        << qint64(kRealtime - kCollector);
    // CUPTI's default clock is CLOCK_REALTIME: read 2 us apart, the same clock.
    QTest::newRow("cupti is realtime") << kRealtime + 2000 << quint64(kRealtime + 80000) << realtime
                                       << qint64(kRealtime - kCollector);
    // A clock of CUPTI's own, as the stand-in plays it (tst_pm_sampling lostSamplesSaid).
    QTest::newRow("cupti's own clock")
        << kCuptiOwn << quint64(kCuptiOwn + 80000) << cupti << qint64(kCuptiOwn - kCollector);
    QTest::newRow("cupti's own clock, sample on the collector's")
        << kCuptiOwn << quint64(kCollector + 80000) << collector << qint64(0);
}

void TestPmSamplingUnits::clockChosenByFirstSample() {
    QFETCH(qint64, cupti);
    QFETCH(quint64, firstSample);
    QFETCH(int, base);
    QFETCH(qint64, offset);
    const ClockReadings at{kCollector, cupti, kRealtime};
    const ClockMapping m = chooseClockMapping(at, firstSample);
    QCOMPARE(int(m.base), base);
    QCOMPARE(m.offsetNs, offset);
    // The sample lands on the trace's clock where the collector's clock stood then.
    QCOMPARE(m.toTrace(firstSample), int64_t(firstSample) - offset);
}

void TestPmSamplingUnits::clockDescribed() {
    QCOMPARE(describeClockMapping({ClockBase::Collector, 0}),
             std::string("the collector's clock (trace = sample - 0 ns)"));
    QCOMPARE(describeClockMapping({ClockBase::Cupti, 400000000000000000}),
             std::string("CUPTI timestamp (trace = sample - 400000000000000000 ns)"));
    QCOMPARE(describeClockMapping({ClockBase::Realtime, -5}),
             std::string("CLOCK_REALTIME (trace = sample + 5 ns)"));
}

STRATA_TEST_GUILESS_MAIN(TestPmSamplingUnits)
#include "tst_pm_sampling_units.moc"
