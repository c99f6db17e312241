// The summary's JSON contract (the keys strata-cli summary --json promises), on a trace built by
// hand, independent of any reader. Expected numbers computed by hand in the comments.
#include "analysis/json/trace_summary_json.h"
#include "analysis/trace_summary.h"
#include "support/analysis_trace_fixture.h"
#include "support/test_main.h"

#include <QtTest>

using namespace strata;
using nlohmann::json;
using strata::test::GpuTraceFixture;

class TstTraceSummary : public QObject {
    Q_OBJECT
private slots:
    void jsonContract();
    void emptyTrace();
    void topKernelsLimit();
    void rangeInJson();
};

void TstTraceSummary::jsonContract() {
    // Device 0 stream 7: a [0, 1000) launched at -500 (corr 1), b [3000, 3500) launched at 2000
    // (corr 2); memset on stream 8 [1500, 2000). Device 3 stream 1: a [0, 250).
    // Stream gap 3000 - 1000 = 2000 ns (over 1 µs); device 0 holes 500 and 1000 (1000 not over).
    GpuTraceFixture f;
    f.launch(-500, 100, 1);
    f.kernel(0, 7, 0, 1000, "a", 1);
    f.launch(2000, 100, 2);
    f.kernel(0, 7, 3000, 500, "b", 2);
    f.memset(0, 8, 1500, 500);
    f.kernel(3, 1, 0, 250, "a");
    const auto trace = f.build();
    SummaryOptions options;
    options.gapThreshold = 1000;
    const json j = summaryToJson(summarizeTrace(*trace, options), "x.json");

    QCOMPARE(j["file"].get<std::string>(), std::string("x.json"));
    QCOMPARE(j["slices"].get<int>(), 6);
    QCOMPARE(j["counters"].get<int>(), 0);
    QCOMPARE(j["flows"].get<int>(), int(trace->flows().size()));
    QVERIFY(j["warnings"].is_array());
    QVERIFY(!j.contains("range_us"));

    const json& gpu = j["gpu"];
    QCOMPARE(gpu["kernels"].get<int>(), 3);
    QCOMPARE(gpu["memcpy"].get<int>(), 0);
    QCOMPARE(gpu["memset"].get<int>(), 1);
    QCOMPARE(gpu["kernel_time_us_by_device"]["0"].get<double>(), 1.5);
    QCOMPARE(gpu["kernel_time_us_by_device"]["3"].get<double>(), 0.25);
    QCOMPARE(gpu["busy_us_by_device"]["0"].get<double>(), 2.0);
    QCOMPARE(gpu["busy_us"].get<double>(), 2.25);
    QCOMPARE(gpu["top_kernels"].size(), size_t(2));
    QCOMPARE(gpu["top_kernels"][0]["name"].get<std::string>(), std::string("a"));
    QCOMPARE(gpu["top_kernels"][0]["count"].get<int>(), 2);
    QCOMPARE(gpu["top_kernels"][0]["total_us"].get<double>(), 1.25);
    QCOMPARE(gpu["top_kernels"][0]["median_us"].get<double>(), 0.25); // lower middle of 2
    QCOMPARE(gpu["top_kernels"][0]["share_of_busy"].get<double>(), 1.25 / 2.25);
    QCOMPARE(gpu["top_kernels"][1]["name"].get<std::string>(), std::string("b"));

    const json& gaps = j["gaps"];
    QCOMPARE(gaps["threshold_us"].get<double>(), 1.0);
    QCOMPARE(gaps["by_stream"].size(), size_t(3)); // (0, 7), (0, 8) (the memset) and (3, 1)
    QCOMPARE(gaps["by_stream"][0]["device"].get<int>(), 0);
    QCOMPARE(gaps["by_stream"][0]["stream"].get<int>(), 7);
    QCOMPARE(gaps["by_stream"][0]["kernels"].get<int>(), 2);
    QCOMPARE(gaps["by_stream"][0]["gaps_over_threshold"].get<int>(), 1);
    QCOMPARE(gaps["by_stream"][0]["idle_us"].get<double>(), 2.0);
    QCOMPARE(gaps["by_stream"][0]["longest_us"].get<double>(), 2.0);
    QCOMPARE(gaps["by_stream"][1]["stream"].get<int>(), 8);
    QCOMPARE(gaps["by_stream"][1]["kernels"].get<int>(), 0);
    QCOMPARE(gaps["by_stream"][1]["gaps"].get<int>(), 0);
    QCOMPARE(gaps["by_stream"][2]["device"].get<int>(), 3);
    QCOMPARE(gaps["by_device"].size(), size_t(2));
    QCOMPARE(gaps["by_device"][0]["gaps_over_threshold"].get<int>(), 0);
    QCOMPARE(gaps["by_device"][0]["gaps"].get<int>(), 2);
    QCOMPARE(gaps["by_device"][0]["idle_us"].get<double>(), 1.5);
    QCOMPARE(gaps["by_device"][0]["longest_us"].get<double>(), 1.0);

    // Latencies 0 - (-500) = 500 and 3000 - 2000 = 1000; the device-3 kernel is unmatched.
    const json& l = j["launch_latency"];
    QCOMPARE(l["kernels"].get<int>(), 3);
    QCOMPARE(l["matched"].get<int>(), 2);
    QCOMPARE(l["unmatched"].get<int>(), 1);
    QCOMPARE(l["min_us"].get<double>(), 0.5);
    QCOMPARE(l["max_us"].get<double>(), 1.0);
    QCOMPARE(l["mean_us"].get<double>(), 0.75);
}

void TstTraceSummary::emptyTrace() {
    GpuTraceFixture f;
    const auto trace = f.build();
    const json j = summaryToJson(summarizeTrace(*trace), "empty.json");
    QCOMPARE(j["slices"].get<int>(), 0);
    QCOMPARE(j["gpu"]["kernels"].get<int>(), 0);
    QVERIFY(j["gpu"]["kernel_time_us_by_device"].is_object());
    QVERIFY(j["gpu"]["kernel_time_us_by_device"].empty());
    QVERIFY(j["gpu"]["top_kernels"].is_array());
    QVERIFY(j["gpu"]["top_kernels"].empty());
    QCOMPARE(j["gaps"]["threshold_us"].get<double>(), 10.0);
    QVERIFY(j["gaps"]["by_stream"].is_array());
    QVERIFY(j["gaps"]["by_device"].is_array());
    QCOMPARE(j["launch_latency"]["matched"].get<int>(), 0);
}

void TstTraceSummary::topKernelsLimit() {
    // 12 names with totals 10..120 ns: the JSON lists the 10 largest, largest first.
    GpuTraceFixture f;
    for (int i = 1; i <= 12; ++i) f.kernel(0, 7, i * 1000, i * 10, "k" + std::to_string(i));
    const auto trace = f.build();
    const TraceSummary s = summarizeTrace(*trace);
    const json j = summaryToJson(s, "t");
    QCOMPARE(j["gpu"]["kernel_names"].get<int>(), 12);
    QCOMPARE(j["gpu"]["top_kernels"].size(), size_t(10));
    QCOMPARE(j["gpu"]["top_kernels"][0]["name"].get<std::string>(), std::string("k12"));
    QCOMPARE(j["gpu"]["top_kernels"][9]["name"].get<std::string>(), std::string("k3"));
    QCOMPARE(summaryToJson(s, "t", 3)["gpu"]["top_kernels"].size(), size_t(3));
}

void TstTraceSummary::rangeInJson() {
    GpuTraceFixture f;
    f.kernel(0, 7, 0, 10);
    f.kernel(0, 7, 5000, 10);
    const auto trace = f.build();
    SummaryOptions options;
    options.range = TimeRange{0, 2000};
    const json j = summaryToJson(summarizeTrace(*trace, options), "t");
    QCOMPARE(j["gpu"]["kernels"].get<int>(), 1);
    QCOMPARE(j["range_us"][0].get<double>(), 0.0);
    QCOMPARE(j["range_us"][1].get<double>(), 2.0);
}

STRATA_TEST_GUILESS_MAIN(TstTraceSummary)
#include "tst_trace_summary.moc"
