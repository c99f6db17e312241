// strata-cli summary end to end on small hand-made traces (tests/data/analysis/). Every expected
// number below is computed by hand in the comments (and agrees with expected_summary.py).
#include "support/process_run.h"
#include "support/test_main.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using CliRun = strata::test::ProcessRun;

// strata-cli summary ARGS.
CliRun runSummary(const QStringList& args) {
    return strata::test::runStrataCli(QStringList{QStringLiteral("summary")} + args);
}

QString fixture(const char* name) {
    return QStringLiteral(STRATA_TEST_DATA "/analysis/") + QString::fromLatin1(name);
}

QJsonObject runJson(const QStringList& args) {
    const CliRun r = runSummary(QStringList{QStringLiteral("--json")} + args);
    if (r.exitCode != 0) qWarning("strata-cli failed (%d): %s", r.exitCode, r.err.constData());
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
    if (error.error != QJsonParseError::NoError)
        qWarning("bad JSON: %s", qPrintable(error.errorString()));
    return doc.object();
}

// µs values are exact multiples of 1 ns; compare at 1e-9 µs.
bool near(double got, double want) {
    return std::abs(got - want) < 1e-9;
}

} // namespace

class TstCliSummary : public QObject {
    Q_OBJECT
private slots:
    void kinetoTwoDevices();
    void thresholdIsStrict();
    void rangeRestriction();
    void tableOutput();
    void tableEscapesControlBytes();
    void oldKinetoSchema();
    void chromeTraceWithoutGpu();
    void missingFile();
    void malformedFile();
    void truncatedFileWarns();
    void usageErrors_data();
    void usageErrors();
    void help();
};

// A kernel named with ESC ] 0 ; ... BEL (a terminal retitle), ESC [ 31 m (red), a C1 CSI
// (U+009B) and a tab: the table shows them escaped, JSON keeps them exact.
void TstCliSummary::tableEscapesControlBytes() {
    QTemporaryDir dir;
    const QString path = dir.filePath("esc.json");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":"
            "\"k\\u001b]0;pwned\\u0007\\u001b[31m\\u009b\\ttab\",\"pid\":0,\"tid\":7,"
            "\"ts\":1,\"dur\":2,\"args\":{\"device\":0,\"stream\":7}}]}");
    f.close();
    const CliRun r = runSummary({path});
    QCOMPARE(r.exitCode, 0);
    for (char c : r.out)
        QVERIFY2(uchar(c) >= 0x20 || c == '\n',
                 qPrintable(QString("byte 0x%1").arg(uchar(c), 2, 16)));
    QVERIFY(!r.out.contains("\xc2\x9b"));
    QVERIFY2(r.out.contains("k\\x1b]0;pwned\\x07\\x1b[31m\\u009b\\x09tab"), r.out.constData());
    // JSON is exact: the name decodes to the original characters.
    const QJsonObject j = runJson({path});
    const QString name =
        j["gpu"].toObject()["top_kernels"].toArray()[0].toObject()["name"].toString();
    QCOMPARE(name, QString::fromUtf8("k\x1b]0;pwned\x07\x1b[31m\xc2\x9b\ttab"));
}

// kineto_two_devices.json, times in µs after B = 1712195495500000 (ns matter: a double would
// round B + 60.001 to a multiple of 0.25 µs).
// Device 0 stream 7: gemm [10, 15), relu [20.5, 22.75), gemm [40, 50)
// Device 0 stream 8: memcpy [25, 35), relu [60.001, 61.001)
// Device 1 stream 7: gemm [100, 103), no correlation
// Launches: corr 1 at 8, 2 at 9, 3 at 9.5, 4 (memcpy) at 9.8, 5 (cuLaunchKernel) at 50.001.
void TstCliSummary::kinetoTwoDevices() {
    const QJsonObject j = runJson({fixture("kineto_two_devices.json")});
    QVERIFY(!j.isEmpty());
    QCOMPARE(j["file"].toString(), fixture("kineto_two_devices.json"));
    QVERIFY(j["warnings"].isArray());
    QVERIFY(j.contains("load_ms"));
    QCOMPARE(j["flows"].toInt(), 1);
    const QJsonObject gpu = j["gpu"].toObject();
    QCOMPARE(gpu["kernels"].toInt(), 5);
    QCOMPARE(gpu["memcpy"].toInt(), 1);
    QCOMPARE(gpu["memset"].toInt(), 0);
    // Kernel time: device 0: 5 + 2.25 + 10 + 1 = 18.25; device 1: 3.
    const QJsonObject kt = gpu["kernel_time_us_by_device"].toObject();
    QCOMPARE(kt.size(), 2);
    QVERIFY(near(kt["0"].toDouble(), 18.25));
    QVERIFY(near(kt["1"].toDouble(), 3.0));
    // Busy (union of kernels and the memcpy): 5 + 2.25 + 10 + 10 + 1 = 28.25; total 31.25.
    QVERIFY(near(gpu["busy_us_by_device"].toObject()["0"].toDouble(), 28.25));
    QVERIFY(near(gpu["busy_us"].toDouble(), 31.25));
    // Top kernels: gemm 3 x (5, 10, 3) = 18; relu 2 x (2.25, 1) = 3.25.
    const QJsonArray top = gpu["top_kernels"].toArray();
    QCOMPARE(top.size(), 2);
    QCOMPARE(top[0].toObject()["name"].toString(), QStringLiteral("gemm"));
    QCOMPARE(top[0].toObject()["count"].toInt(), 3);
    QVERIFY(near(top[0].toObject()["total_us"].toDouble(), 18.0));
    QVERIFY(
        near(top[0].toObject()["median_us"].toDouble(), 5.0)); // sorted 3 5 10, rank ceil(1.5) = 2
    QVERIFY(near(top[0].toObject()["p95_us"].toDouble(), 10.0));
    QVERIFY(near(top[0].toObject()["share_of_busy"].toDouble(), 18.0 / 31.25));
    QCOMPARE(top[1].toObject()["name"].toString(), QStringLiteral("relu"));
    QCOMPARE(top[1].toObject()["count"].toInt(), 2);
    QVERIFY(near(top[1].toObject()["total_us"].toDouble(), 3.25));

    const QJsonObject gaps = j["gaps"].toObject();
    QVERIFY(near(gaps["threshold_us"].toDouble(), 10.0));
    const QJsonArray streams = gaps["by_stream"].toArray();
    QCOMPARE(streams.size(), 3);
    // Stream 7: gaps 20.5 - 15 = 5.5 and 40 - 22.75 = 17.25.
    QCOMPARE(streams[0].toObject()["device"].toInt(), 0);
    QCOMPARE(streams[0].toObject()["stream"].toInt(), 7);
    QCOMPARE(streams[0].toObject()["kernels"].toInt(), 3);
    QCOMPARE(streams[0].toObject()["gaps_over_threshold"].toInt(), 1);
    QVERIFY(near(streams[0].toObject()["idle_us"].toDouble(), 22.75));
    QVERIFY(near(streams[0].toObject()["longest_us"].toDouble(), 17.25));
    // Stream 8: memcpy [25,35) then relu [60.001,61.001): one kernel, one gap of 25.001 (copies are
    // busy time on their stream, and the stream idles after the copy).
    QCOMPARE(streams[1].toObject()["stream"].toInt(), 8);
    QCOMPARE(streams[1].toObject()["kernels"].toInt(), 1);
    QCOMPARE(streams[1].toObject()["gaps_over_threshold"].toInt(), 1);
    QVERIFY(near(streams[1].toObject()["idle_us"].toDouble(), 25.001));
    QCOMPARE(streams[2].toObject()["device"].toInt(), 1);
    // Device 0 union [10,15) [20.5,22.75) [25,35) [40,50) [60.001,61.001):
    // holes 5.5, 2.25, 5, 10.001 -> idle 22.751, longest 10.001, one over 10.
    const QJsonArray devices = gaps["by_device"].toArray();
    QCOMPARE(devices.size(), 2);
    QCOMPARE(devices[0].toObject()["device"].toInt(), 0);
    QCOMPARE(devices[0].toObject()["gaps_over_threshold"].toInt(), 1);
    QVERIFY(near(devices[0].toObject()["idle_us"].toDouble(), 22.751));
    QVERIFY(near(devices[0].toObject()["longest_us"].toDouble(), 10.001));
    QCOMPARE(devices[1].toObject()["gaps_over_threshold"].toInt(), 0);
    QVERIFY(near(devices[1].toObject()["idle_us"].toDouble(), 0.0));

    // Launch latency: 10 - 8 = 2, 20.5 - 9 = 11.5, 40 - 9.5 = 30.5, 60.001 - 50.001 = 10;
    // the device-1 kernel has no correlation. Sorted 2 10 11.5 30.5: median (rank 2) 10,
    // p95 (rank 4) 30.5, mean 54 / 4 = 13.5.
    const QJsonObject l = j["launch_latency"].toObject();
    QCOMPARE(l["kernels"].toInt(), 5);
    QCOMPARE(l["matched"].toInt(), 4);
    QCOMPARE(l["unmatched"].toInt(), 1);
    QCOMPARE(l["unmatched_without_correlation"].toInt(), 1);
    QCOMPARE(l["negative"].toInt(), 0);
    QVERIFY(near(l["min_us"].toDouble(), 2.0));
    QVERIFY(near(l["median_us"].toDouble(), 10.0));
    QVERIFY(near(l["p95_us"].toDouble(), 30.5));
    QVERIFY(near(l["max_us"].toDouble(), 30.5));
    QVERIFY(near(l["mean_us"].toDouble(), 13.5));
}

void TstCliSummary::thresholdIsStrict() {
    // Threshold 5: stream 7 gaps 5.5 and 17.25 are over; device holes 5.5 and 10.001 are over,
    // the hole of exactly 5 is not.
    const QJsonObject j = runJson({QStringLiteral("--gap-threshold-us"), QStringLiteral("5"),
                                   fixture("kineto_two_devices.json")});
    const QJsonObject gaps = j["gaps"].toObject();
    QVERIFY(near(gaps["threshold_us"].toDouble(), 5.0));
    QCOMPARE(gaps["by_stream"].toArray()[0].toObject()["gaps_over_threshold"].toInt(), 2);
    QCOMPARE(gaps["by_device"].toArray()[0].toObject()["gaps_over_threshold"].toInt(), 2);
    // Threshold 4.999: the hole of 5 is over too.
    const QJsonObject k = runJson({QStringLiteral("--gap-threshold-us"), QStringLiteral("4.999"),
                                   fixture("kineto_two_devices.json")});
    QCOMPARE(
        k["gaps"].toObject()["by_device"].toArray()[0].toObject()["gaps_over_threshold"].toInt(),
        3);
}

void TstCliSummary::rangeRestriction() {
    // The trace starts at B (aten::step). Range [0, 30) µs holds the GPU work that STARTS in it:
    // gemm at 10, relu at 20.5, memcpy at 25.
    const QJsonObject j = runJson(
        {QStringLiteral("--range-us"), QStringLiteral("0:30"), fixture("kineto_two_devices.json")});
    const QJsonObject gpu = j["gpu"].toObject();
    QCOMPARE(gpu["kernels"].toInt(), 2);
    QCOMPARE(gpu["memcpy"].toInt(), 1);
    QVERIFY(near(gpu["kernel_time_us_by_device"].toObject()["0"].toDouble(), 7.25));
    // Stream 7 (gap 5.5) and stream 8 (the memcpy alone: no gap).
    QCOMPARE(j["gaps"].toObject()["by_stream"].toArray().size(), 2);
    QVERIFY(
        near(j["gaps"].toObject()["by_stream"].toArray()[0].toObject()["idle_us"].toDouble(), 5.5));
    QCOMPARE(j["gaps"].toObject()["by_stream"].toArray()[1].toObject()["gaps"].toInt(), 0);
    QCOMPARE(j["launch_latency"].toObject()["matched"].toInt(), 2);
}

void TstCliSummary::tableOutput() {
    const CliRun r = runSummary({fixture("kineto_two_devices.json")});
    QCOMPARE(r.exitCode, 0);
    const QString out = QString::fromUtf8(r.out);
    QVERIFY2(out.contains(QStringLiteral("GPU: 5 kernels, 1 memcpy, 0 memset")), r.out.constData());
    QVERIFY(out.contains(QStringLiteral("gemm")));
    QVERIFY(out.contains(QStringLiteral("GPU idle gaps (threshold 10.000 us)")));
    QVERIFY(out.contains(QStringLiteral("4 matched, 1 unmatched")));
}

void TstCliSummary::oldKinetoSchema() {
    // 2021 Kineto: categories "Kernel", "Memset", "Runtime", string tids "stream 7".
    // Kernels [130,134) and [160,166), memset [140,142) (µs after 1620000000000000).
    // Stream holes (the memset is busy time) 140 - 134 = 6 and 160 - 142 = 18, as the device's.
    // Latencies 130-110 = 20, 160-120 = 40.
    const QJsonObject j = runJson({fixture("kineto_2021_schema.json")});
    const QJsonObject gpu = j["gpu"].toObject();
    QCOMPARE(gpu["kernels"].toInt(), 2);
    QCOMPARE(gpu["memset"].toInt(), 1);
    QVERIFY(near(gpu["kernel_time_us_by_device"].toObject()["0"].toDouble(), 10.0));
    const QJsonArray streams = j["gaps"].toObject()["by_stream"].toArray();
    QCOMPARE(streams.size(), 1);
    QCOMPARE(streams[0].toObject()["stream"].toInt(), 7);
    QCOMPARE(streams[0].toObject()["gaps_over_threshold"].toInt(), 1);
    QVERIFY(near(streams[0].toObject()["idle_us"].toDouble(), 24.0));
    QVERIFY(near(streams[0].toObject()["longest_us"].toDouble(), 18.0));
    const QJsonObject dev = j["gaps"].toObject()["by_device"].toArray()[0].toObject();
    QCOMPARE(dev["gaps_over_threshold"].toInt(), 1);
    QVERIFY(near(dev["idle_us"].toDouble(), 24.0));
    const QJsonObject l = j["launch_latency"].toObject();
    QCOMPARE(l["matched"].toInt(), 2);
    QVERIFY(near(l["mean_us"].toDouble(), 30.0));
}

void TstCliSummary::chromeTraceWithoutGpu() {
    // B/E frame [100, 200) with X draw inside, one counter sample: no GPU work at all.
    const QJsonObject j = runJson({fixture("chrome_cpu_only.json")});
    QCOMPARE(j["slices"].toInt(), 2);
    QCOMPARE(j["counters"].toInt(), 1);
    const QJsonObject gpu = j["gpu"].toObject();
    QCOMPARE(gpu["kernels"].toInt(), 0);
    QCOMPARE(gpu["top_kernels"].toArray().size(), 0);
    QCOMPARE(gpu["kernel_time_us_by_device"].toObject().size(), 0);
    QCOMPARE(j["gaps"].toObject()["by_stream"].toArray().size(), 0);
    QCOMPARE(j["gaps"].toObject()["by_device"].toArray().size(), 0);
    QCOMPARE(j["launch_latency"].toObject()["kernels"].toInt(), 0);
}

void TstCliSummary::missingFile() {
    const QString path = fixture("does_not_exist.json");
    const CliRun r = runSummary({QStringLiteral("--json"), path});
    QCOMPARE(r.exitCode, 1);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(QString::fromUtf8(r.err).contains(path), r.err.constData());
}

void TstCliSummary::malformedFile() {
    // A missing comma in the top-level object, on line 2 (not a trace's structure: a broken event
    // would be skipped): an error naming the file, the line and a byte offset; no output.
    const CliRun r = runSummary({QStringLiteral("--json"), fixture("malformed.json")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY(r.out.isEmpty());
    const QString err = QString::fromUtf8(r.err);
    QVERIFY2(err.contains(QStringLiteral("malformed.json")), r.err.constData());
    QVERIFY2(err.contains(QStringLiteral("byte")), r.err.constData());
}

void TstCliSummary::truncatedFileWarns() {
    // A trace cut in the middle of its second event (a crashed profiler's .tmp file) loads what
    // it holds; the cut is reported in "warnings", not hidden.
    const QJsonObject j = runJson({fixture("truncated.json")});
    QCOMPARE(j["gpu"].toObject()["kernels"].toInt(), 1);
    QVERIFY(!j["warnings"].toArray().isEmpty());
}

void TstCliSummary::usageErrors_data() {
    QTest::addColumn<QStringList>("args");
    const QString f = fixture("kineto_two_devices.json");
    QTest::newRow("no file") << QStringList{};
    QTest::newRow("only --json") << QStringList{QStringLiteral("--json")};
    QTest::newRow("unknown option") << QStringList{QStringLiteral("--frobnicate"), f};
    QTest::newRow("threshold missing") << QStringList{f, QStringLiteral("--gap-threshold-us")};
    QTest::newRow("threshold not a number")
        << QStringList{QStringLiteral("--gap-threshold-us"), QStringLiteral("ten"), f};
    QTest::newRow("threshold negative")
        << QStringList{QStringLiteral("--gap-threshold-us"), QStringLiteral("-1"), f};
    QTest::newRow("range reversed")
        << QStringList{QStringLiteral("--range-us"), QStringLiteral("30:10"), f};
    QTest::newRow("range no colon")
        << QStringList{QStringLiteral("--range-us"), QStringLiteral("30"), f};
    // (Two FILEs are the ranks of a job since issue 29: tst_cli_ranks.)
}

void TstCliSummary::usageErrors() {
    QFETCH(QStringList, args);
    const CliRun r = runSummary(args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.contains("usage: strata-cli summary"), r.err.constData());
}

void TstCliSummary::help() {
    const CliRun r = runSummary({QStringLiteral("--help")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains("--gap-threshold-us"));
}

STRATA_TEST_GUILESS_MAIN(TstCliSummary)
#include "tst_cli_summary.moc"
