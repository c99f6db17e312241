// --kernel-metrics end to end on the stand-in CUPTI (issue 51): the collector's real code measures
// the launches whose kernel name matches with the range profiler (fake_cupti_range.cpp), writes
// each launch's values as a KernelMetrics record, and the reader gives them to the kernel as args;
// recorded directly and through `strata-cli record --kernel-metrics`.
//
// The scenario "kernel_metrics" (collector_harness_kernel_metrics.cpp): gemm_tile() (runtime
// correlation 11), copy_kernel() (21), gemm_tile() (31) on device 0; three sets of values queued,
// each taken by the next launch measured:
//   metric                                               set A    set B    set C
//   dram__bytes_read.sum                                 4096     8192     1
//   dram__bytes_write.sum                                2048     1024     1
//   sm__sass_thread_inst_executed_op_ffma_pred_on.sum    1e6      3e6      1
//   gpu__time_duration.sum                               20000    19000    1
//   sm__throughput.avg.pct_of_peak_sustained_elapsed     87.5     90.25    1
// The default set's other 16 metrics evaluate to NaN: not measured, no arg. With
// STRATA_KERNEL_METRICS=gemm the gemm launches get A and B, copy_kernel nothing.
#include "record/record_options.h"
#include "support/collector_fixture.h"
#include "support/process_run.h"
#include "support/test_main.h"

#include <algorithm>
#include <map>

namespace {

const char* const kDefaultSet =
    "dram__bytes_read.sum,dram__bytes_write.sum,"
    "sm__sass_thread_inst_executed_op_ffma_pred_on.sum,"
    "sm__sass_thread_inst_executed_op_fadd_pred_on.sum,"
    "sm__sass_thread_inst_executed_op_fmul_pred_on.sum,"
    "sm__sass_thread_inst_executed_op_dfma_pred_on.sum,"
    "sm__sass_thread_inst_executed_op_dadd_pred_on.sum,"
    "sm__sass_thread_inst_executed_op_dmul_pred_on.sum,"
    "sm__sass_thread_inst_executed_op_hfma_pred_on.sum,"
    "sm__sass_thread_inst_executed_op_hadd_pred_on.sum,"
    "sm__sass_thread_inst_executed_op_hmul_pred_on.sum,gpu__time_duration.sum,"
    "sm__throughput.avg.pct_of_peak_sustained_elapsed,"
    "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed,"
    "sm__warps_active.avg.pct_of_peak_sustained_active,dram__bytes.sum.peak_sustained,"
    "dram__cycles_elapsed.avg.per_second,"
    "sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained,"
    "sm__sass_thread_inst_executed_op_dfma_pred_on.sum.peak_sustained,"
    "sm__sass_thread_inst_executed_op_hfma_pred_on.sum.peak_sustained,"
    "sm__cycles_elapsed.avg.per_second";

using Args = std::map<std::string, double>;

const Args kSetA{{"dram__bytes_read.sum", 4096},
                 {"dram__bytes_write.sum", 2048},
                 {"sm__sass_thread_inst_executed_op_ffma_pred_on.sum", 1e6},
                 {"gpu__time_duration.sum", 20000},
                 {"sm__throughput.avg.pct_of_peak_sustained_elapsed", 87.5}};
const Args kSetB{{"dram__bytes_read.sum", 8192},
                 {"dram__bytes_write.sum", 1024},
                 {"sm__sass_thread_inst_executed_op_ffma_pred_on.sum", 3e6},
                 {"gpu__time_duration.sum", 19000},
                 {"sm__throughput.avg.pct_of_peak_sustained_elapsed", 90.25}};

const QString kCostOnePass =
    "/gemm/: 21 metrics (default); device 0 (GH100): 21 measured in 1 pass: each matching "
    "launch is serialised (one pass: no replay)";

// The numeric args of a slice, by name.
Args numericArgs(const Trace& t, SliceRef s) {
    Args out;
    for (const Arg& a : t.argStore().decode(t.track(s.track).slices.args[s.index]))
        out[std::string(t.str(a.key))] = a.value.toDouble();
    return out;
}

// The slices of `name` by start.
std::vector<SliceRef> byStart(const Trace& t, std::string_view name) {
    auto all = slicesNamed(t, name);
    std::sort(all.begin(), all.end(),
              [&](SliceRef a, SliceRef b) { return t.start(a) < t.start(b); });
    return all;
}

int warningsAbout(const Trace& t, const QString& part) {
    int n = 0;
    for (const auto& w : t.warnings()) n += QString::fromStdString(w).contains(part) ? 1 : 0;
    return n;
}

Run runScenario(const QString& file, const QStringList& env) {
    return runHarness("kernel_metrics",
                      QStringList{"STRATA_OUTPUT=" + file, "STRATA_FLUSH_MS=3600000"} + env);
}

} // namespace

class TestKernelMetricsRecord : public QObject, public CollectorFiles {
    Q_OBJECT

    void checkMeasured(const Run& r, const Trace& t);

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }
    void measuredThroughTheCollector();
    void measuredThroughStrataCliRecord();
    void ownSetOfMetrics();
    void passesSaidUpFront();
    void setOptionsWarned();
    void refusedIsAWarning_data();
    void refusedIsAWarning();
    void invalidRegexIsAWarning();
    void offCostsNothing();
    void optionsReachTheEnvironment();
    void recordHelpNamesTheOptions();
    void recordRefusesBadOptions_data();
    void recordRefusesBadOptions();
};

// What both ways of recording the scenario with STRATA_KERNEL_METRICS=gemm must give.
void TestKernelMetricsRecord::checkMeasured(const Run& r, const Trace& t) {
    // The profiler: initialised once, enabled once on the context, configured and started for
    // each gemm launch (auto range, kernel replay, one range), the default set in the config.
    QCOMPARE(r.out.value("delivered_1"), QString("4"));
    QCOMPARE(r.out.value("launch_callback_enabled"), QString("1"));
    QCOMPARE(r.out.value("profiler_initializations"), QString("1"));
    QCOMPARE(r.out.value("range_enables"), QString("1"));
    QCOMPARE(r.out.value("range_set_configs"), QString("2"));
    QCOMPARE(r.out.value("range_starts"), QString("2"));
    QCOMPARE(r.out.value("range_state"), QString("1")); // enabled, stopped
    QCOMPARE(r.out.value("range_config"),
             QString("range=1 replay=2 ranges=1 nesting=1 metrics=") + kDefaultSet);

    // The cost, said once on stderr and in the metadata.
    QCOMPARE(r.stderrText.count("[strata] kernel metrics: "), 1);
    QVERIFY2(r.stderrText.contains("[strata] kernel metrics: " + kCostOnePass),
             qPrintable(r.stderrText));
    QCOMPARE(meta(t, "kernel_metrics"), kCostOnePass);
    QCOMPARE(meta(t, "kernel_metrics_device_0"),
             "GH100: 1 pass: " + QString(kDefaultSet).replace(",", ", "));
    QCOMPARE(meta(t, "kernel_metrics_launches"), QString("2"));
    QCOMPARE(warningsAbout(t, "kernel metrics"), 0);

    // Each gemm launch carries exactly its values; copy_kernel none.
    const auto gemms = byStart(t, "gemm_tile()");
    QCOMPARE(gemms.size(), size_t(2));
    QCOMPARE(t.extra(gemms[0])->correlation, int64_t(11)); // the runtime call's id
    QCOMPARE(numericArgs(t, gemms[0]), kSetA);
    QCOMPARE(t.extra(gemms[1])->correlation, int64_t(31));
    QCOMPARE(numericArgs(t, gemms[1]), kSetB);
    const SliceRef copy = only(t, "copy_kernel()");
    QCOMPARE(t.track(copy.track).slices.args[copy.index], kNoArgs);
}

void TestKernelMetricsRecord::measuredThroughTheCollector() {
    const QString file = path("measured.strata");
    const Run r = runScenario(file, {"STRATA_KERNEL_METRICS=gemm"});
    QCOMPARE(r.status, 0);
    auto t = load(file);
    QVERIFY(t);
    checkMeasured(r, *t);
}

void TestKernelMetricsRecord::measuredThroughStrataCliRecord() {
#ifndef STRATA_CLI
    QSKIP("strata-cli is not built in this configuration");
#else
    const QString file = path("cli.strata");
    const test::ProcessRun p = test::runProcess(
        STRATA_CLI,
        {"record", "-q", "-o", file, "--collector", STRATA_COLLECTOR_FAKE_SO, "--kernel-metrics",
         "gemm", "--flush-ms", "3600000", "--", STRATA_COLLECTOR_HARNESS, "kernel_metrics"},
        QProcessEnvironment::systemEnvironment(), 60000);
    QCOMPARE(p.exitCode, 0);
    Run r;
    r.stderrText = QString::fromLocal8Bit(p.err);
    for (const QString& line : QString::fromLocal8Bit(p.out).split('\n', Qt::SkipEmptyParts))
        if (const int eq = line.indexOf('='); eq > 0) r.out.insert(line.left(eq), line.mid(eq + 1));
    auto t = load(file);
    QVERIFY(t);
    checkMeasured(r, *t);
#endif
}

// A set of the user's own (through strata-cli record: --kernel-metrics-set reaches the collector
// too): those metrics alone are configured and written.
void TestKernelMetricsRecord::ownSetOfMetrics() {
#ifndef STRATA_CLI
    QSKIP("strata-cli is not built in this configuration");
#else
    const QString file = path("own.strata");
    const test::ProcessRun p = test::runProcess(
        STRATA_CLI,
        {"record", "-q", "-o", file, "--collector", STRATA_COLLECTOR_FAKE_SO, "--kernel-metrics",
         "^gemm_tile\\(\\)$", "--kernel-metrics-set", "gpu__time_duration.sum,dram__bytes_read.sum",
         "--flush-ms", "3600000", "--", STRATA_COLLECTOR_HARNESS, "kernel_metrics"},
        QProcessEnvironment::systemEnvironment(), 60000);
    QCOMPARE(p.exitCode, 0);
    QVERIFY2(QString::fromLocal8Bit(p.out).contains(
                 "range_config=range=1 replay=2 ranges=1 nesting=1 "
                 "metrics=gpu__time_duration.sum,dram__bytes_read.sum\n"),
             p.out.constData());
    auto t = load(file);
    QVERIFY(t);
    QCOMPARE(
        meta(*t, "kernel_metrics"),
        QString("/^gemm_tile\\(\\)$/: 2 metrics (gpu__time_duration.sum,dram__bytes_read.sum); "
                "device 0 (GH100): 2 measured in 1 pass: each matching launch is serialised "
                "(one pass: no replay)"));
    const auto gemms = byStart(*t, "gemm_tile()");
    QCOMPARE(gemms.size(), size_t(2));
    QCOMPARE(numericArgs(*t, gemms[0]),
             (Args{{"gpu__time_duration.sum", 20000}, {"dram__bytes_read.sum", 4096}}));
    QCOMPARE(numericArgs(*t, gemms[1]),
             (Args{{"gpu__time_duration.sum", 19000}, {"dram__bytes_read.sum", 8192}}));
#endif
}

// Eight metrics a pass: the default set's 21 need 3, said before the first replay.
void TestKernelMetricsRecord::passesSaidUpFront() {
    const QString file = path("passes.strata");
    const Run r = runScenario(file, {"STRATA_KERNEL_METRICS=gemm", "HARNESS_KM_FAIL=passes"});
    QCOMPARE(r.status, 0);
    const QString cost = "/gemm/: 21 metrics (default); device 0 (GH100): 21 measured in 3 "
                         "passes: each matching launch is serialised and replayed 3 times";
    QVERIFY2(r.stderrText.contains("[strata] kernel metrics: " + cost), qPrintable(r.stderrText));
    auto t = load(file);
    QVERIFY(t);
    QCOMPARE(meta(*t, "kernel_metrics"), cost);
    QVERIFY(meta(*t, "kernel_metrics_device_0").startsWith("GH100: 3 passes: "));
    QCOMPARE(numericArgs(*t, byStart(*t, "gemm_tile()")[0]), kSetA);
}

// STRATA_KERNEL_METRICS_SET read as STRATA_GPU_METRICS is: a bad item is a warning and the
// others are measured; the set without the expression measures nothing, and says so.
void TestKernelMetricsRecord::setOptionsWarned() {
    const QString file = path("set.strata");
    const Run r = runScenario(
        file, {"STRATA_KERNEL_METRICS=gemm", "STRATA_KERNEL_METRICS_SET=dram__bytes_read.sum,a b"});
    QCOMPARE(r.status, 0);
    auto t = load(file);
    QVERIFY(t);
    QVERIFY(hasWarning(*t, "kernel metric \"a b\" ignored: a CUPTI metric name has only letters, "
                           "digits, '_' and '.'"));
    const auto gemms = byStart(*t, "gemm_tile()");
    QCOMPARE(numericArgs(*t, gemms[0]), (Args{{"dram__bytes_read.sum", 4096}}));
    QCOMPARE(numericArgs(*t, gemms[1]), (Args{{"dram__bytes_read.sum", 8192}}));

    const QString alone = path("set-alone.strata");
    const Run a = runScenario(alone, {"STRATA_KERNEL_METRICS_SET=default"});
    QCOMPARE(a.status, 0);
    QCOMPARE(a.out.value("range_calls"), QString("0"));
    t = load(alone);
    QVERIFY(t);
    QVERIFY(hasWarning(*t, "STRATA_KERNEL_METRICS_SET given without STRATA_KERNEL_METRICS: no "
                           "kernel metrics are measured"));
    QCOMPARE(meta(*t, "kernel_metrics"), QString("<absent>"));
}

// CUPTI refusing one way or another: one warning (in the trace and on stderr), the kernels
// recorded all the same. A metric the chip lacks leaves the others measured.
void TestKernelMetricsRecord::refusedIsAWarning_data() {
    QTest::addColumn<QString>("fail");
    QTest::addColumn<QString>("warning");
    QTest::addColumn<bool>("measured");
    QTest::newRow("no privileges")
        << "privileges"
        << "kernel metrics on device 0 not measured: cuptiRangeProfilerEnable: "
           "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (35): this user may not read the GPU's "
           "performance counters (run as root, or load the driver with "
           "NVreg_RestrictProfilingToAdminUsers=0); its kernels are recorded without them"
        << false;
    QTest::newRow("unsupported device")
        << "unsupported"
        << "kernel metrics on device 0 not measured: the device does not support CUPTI's range "
           "profiler: its architecture; its kernels are recorded without them"
        << false;
    QTest::newRow("a metric the chip lacks")
        << "metric"
        << "kernel metrics on device 0 (GH100): not on this chip, not measured: "
           "sm__sass_thread_inst_executed_op_hfma_pred_on.sum.peak_sustained"
        << true;
    QTest::newRow("a launch CUPTI could not measure")
        << "launch"
        << "kernel metrics of gemm_tile() on device 0 not measured: cuptiRangeProfilerDecodeData: "
           "CUPTI_ERROR_UNKNOWN (999) (further failures counted: kernel_metrics_failed)"
        << false;
}

void TestKernelMetricsRecord::refusedIsAWarning() {
    QFETCH(QString, fail);
    QFETCH(QString, warning);
    QFETCH(bool, measured);
    const QString file = path("refused-" + fail + ".strata");
    const Run r = runScenario(file, {"STRATA_KERNEL_METRICS=gemm", "HARNESS_KM_FAIL=" + fail});
    QCOMPARE(r.status, 0);
    QVERIFY2(r.stderrText.contains("[strata] " + warning), qPrintable(r.stderrText));
    auto t = load(file);
    QVERIFY(t);
    QCOMPARE(warningsAbout(*t, "kernel metrics"), 1); // two gemm launches, one warning
    QVERIFY2(hasWarning(*t, warning), qPrintable(meta(*t, "kernel_metrics_device_0")));
    const auto gemms = byStart(*t, "gemm_tile()");
    QCOMPARE(gemms.size(), size_t(2)); // recorded all the same
    QCOMPARE(slicesNamed(*t, "copy_kernel()").size(), size_t(1));
    if (measured) {
        QCOMPARE(numericArgs(*t, gemms[0]), kSetA);
        QCOMPARE(numericArgs(*t, gemms[1]), kSetB);
        QCOMPARE(meta(*t, "kernel_metrics_launches"), QString("2"));
        QVERIFY(meta(*t, "kernel_metrics")
                    .contains("21 metrics (default); device 0 (GH100): "
                              "20 measured in 1 pass"));
        QVERIFY(meta(*t, "kernel_metrics_device_0")
                    .endsWith("; not on this chip (warned): "
                              "sm__sass_thread_inst_executed_op_hfma_pred_on.sum.peak_sustained"));
    } else {
        for (SliceRef g : gemms) QCOMPARE(t->track(g.track).slices.args[g.index], kNoArgs);
        QCOMPARE(meta(*t, "kernel_metrics_launches"), QString("0"));
    }
    if (fail == "launch") {
        QCOMPARE(meta(*t, "kernel_metrics_failed"), QString("2"));
    } else if (!measured) {
        QVERIFY(meta(*t, "kernel_metrics_device_0").startsWith("not measured: "));
        QCOMPARE(meta(*t, "kernel_metrics_unmeasured"), QString("2")); // both gemm launches
        QCOMPARE(r.out.value("range_state"), QString("0"));            // nothing left enabled
        QCOMPARE(r.out.value("host_objects"), QString("0"));           // nor held
    }
}

void TestKernelMetricsRecord::invalidRegexIsAWarning() {
    const QString file = path("regex.strata");
    const Run r = runScenario(file, {"STRATA_KERNEL_METRICS=gemm("});
    QCOMPARE(r.status, 0);
    const QString said = "kernel metrics off: STRATA_KERNEL_METRICS=\"gemm(\" is not a regular "
                         "expression (ECMAScript): ";
    QVERIFY2(r.stderrText.contains("[strata] " + said), qPrintable(r.stderrText));
    auto t = load(file);
    QVERIFY(t);
    QCOMPARE(warningsAbout(*t, "kernel metrics"), 1);
    QVERIFY(hasWarning(*t, said));
    QCOMPARE(meta(*t, "kernel_metrics"), QString("off: /gemm(/ is not a regular expression"));
    QCOMPARE(r.out.value("launch_callback_enabled"), QString("0"));
    QCOMPARE(r.out.value("range_calls"), QString("0"));
    QCOMPARE(slicesNamed(*t, "gemm_tile()").size(), size_t(2));
}

// Without STRATA_KERNEL_METRICS: no launch callback, nothing of CUPTI's profiler.
void TestKernelMetricsRecord::offCostsNothing() {
    const QString file = path("off.strata");
    const Run r = runScenario(file, {});
    QCOMPARE(r.status, 0);
    QCOMPARE(r.out.value("delivered_1"), QString("0"));
    QCOMPARE(r.out.value("launch_callback_enabled"), QString("0"));
    QCOMPARE(r.out.value("range_calls"), QString("0"));
    QCOMPARE(r.out.value("profiler_initializations"), QString("0"));
    QVERIFY(!r.stderrText.contains("kernel metrics"));
    auto t = load(file);
    QVERIFY(t);
    QCOMPARE(meta(*t, "kernel_metrics"), QString("<absent>"));
    const auto gemms = byStart(*t, "gemm_tile()");
    QCOMPARE(gemms.size(), size_t(2));
    QCOMPARE(t->track(gemms[0].track).slices.args[gemms[0].index], kNoArgs);
}

// The launcher's side: the variables the collector reads, and the arguments a remote run passes
// on (record/remote_record.h).
void TestKernelMetricsRecord::optionsReachTheEnvironment() {
    RecordOptions o;
    o.command = {"./bench"};
    o.python = PythonRecording::Sample; // the default: not passed on
    o.kernelMetrics = "gemm|softmax";
    o.kernelMetricsSet = "dram__bytes_read.sum";
    std::string error;
    QVERIFY2(validateRecordOptions(o, &error), error.c_str());
    const auto env = toCollectorEnvironment(o, "out.strata");
    const auto has = [&](const char* name, const char* value) {
        return std::find(env.begin(), env.end(),
                         std::pair<std::string, std::string>(name, value)) != env.end();
    };
    QVERIFY(has("STRATA_KERNEL_METRICS", "gemm|softmax"));
    QVERIFY(has("STRATA_KERNEL_METRICS_SET", "dram__bytes_read.sum"));
    QCOMPARE(recordArguments(o),
             (std::vector<std::string>{"--kernel-metrics", "gemm|softmax", "--kernel-metrics-set",
                                       "dram__bytes_read.sum"}));
    o.kernelMetricsSet.clear(); // the default set: the collector's own, nothing passed
    for (const auto& [name, value] : toCollectorEnvironment(o, "out.strata"))
        QVERIFY(name != "STRATA_KERNEL_METRICS_SET");
}

void TestKernelMetricsRecord::recordHelpNamesTheOptions() {
#ifndef STRATA_CLI
    QSKIP("strata-cli is not built in this configuration");
#else
    const test::ProcessRun p = test::runProcess(STRATA_CLI, {"record", "--help"},
                                                QProcessEnvironment::systemEnvironment(), 30000);
    const QString help = QString::fromLocal8Bit(p.out + p.err);
    QVERIFY2(help.contains("--kernel-metrics REGEX"), qPrintable(help));
    QVERIFY(help.contains("--kernel-metrics-set LIST"));
    QVERIFY(help.contains("serialised and replayed once per"));
#endif
}

// strata-cli record says what is wrong and runs nothing (exit 2).
void TestKernelMetricsRecord::recordRefusesBadOptions_data() {
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("said");
    QTest::newRow("set alone") << QStringList{"--kernel-metrics-set", "default"}
                               << "--kernel-metrics-set needs --kernel-metrics";
    QTest::newRow("not a regex") << QStringList{"--kernel-metrics", "gemm("}
                                 << "--kernel-metrics 'gemm(' is not a regular expression "
                                    "(ECMAScript): ";
    QTest::newRow("a bad name") << QStringList{"--kernel-metrics", "gemm", "--kernel-metrics-set",
                                               "dram__bytes_read.sum,a b"}
                                << "--kernel-metrics-set expects default or a comma list of "
                                   "CUPTI metric names (letters, digits, '_' and '.'), got 'a b'";
}

void TestKernelMetricsRecord::recordRefusesBadOptions() {
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

STRATA_TEST_GUILESS_MAIN(TestKernelMetricsRecord)
#include "tst_kernel_metrics_record.moc"
