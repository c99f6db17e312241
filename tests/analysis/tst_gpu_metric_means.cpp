// What the GPU's counters said while each kernel ran (issue 51; analysis/ops/gpu_metric_means.h),
// on tests/data/analysis/gpu_metrics.json, by hand (times in µs). Device 0 runs k1 [100, 200),
// k2 [300, 350), k1 [500, 600); device 1 runs k3 [100, 110). The counter events "GPU 0" make the
// rows "GPU 0 SM Active" (10 at 50, 90 at 150, 40 at 320, 0 at 550, 0 at 700) and "GPU 0 DRAM
// Read" (1 at 50, 3 at 150: the last sample holds for no time); "Memory used" is no GPU metric.
// A value holds from its sample until the next:
//   SM Active: k1 [100, 200): 50 x 10 + 50 x 90 = 5000 -> 50; k2 [300, 350): 20 x 90 + 30 x 40 =
//     3000 -> 60; k1 [500, 600): 50 x 40 + 50 x 0 = 2000 -> 20; k1 over both runs 7000 / 200 = 35.
//   DRAM Read: k1 [100, 150) only: 1, covering 50 of its 200 µs; k2 none.
//   k3: no row of device 1, no mean.
#include "analysis/ops/gpu_metric_means.h"
#include "analysis/ops/gpu_ops.h"
#include "io/export/export_sink.h"
#include "io/export/perfetto_json_export.h"
#include "io/set/trace_set_merge.h"
#include "io/trace_loader.h"
#include "model/build/trace_builder.h"
#include "model/names/track_names.h"
#include "support/process_run.h"
#include "support/slice_lookup.h"
#include "support/test_main.h"

#include <QTemporaryDir>
#include <QtTest>

#include <set>

#include <nlohmann/json.hpp>

using namespace strata;

namespace {

const std::string kFile = STRATA_TEST_DATA "/analysis/gpu_metrics.json";

// The i-th run of `kernel` (by start).
SliceRef runOf(const Trace& t, std::string_view kernel, size_t i) {
    std::vector<SliceRef> runs;
    for (TrackId tr = 0; tr < t.tracks().size(); ++tr)
        for (SliceIndex s = 0; s < t.track(tr).slices.size(); ++s)
            if (t.name({tr, s}) == kernel) runs.push_back({tr, s});
    std::sort(runs.begin(), runs.end(),
              [&](SliceRef a, SliceRef b) { return t.start(a) < t.start(b); });
    return i < runs.size() ? runs[i] : SliceRef{};
}

std::map<std::string, std::pair<double, TimeNs>> asMap(const std::vector<MetricMean>& means) {
    std::map<std::string, std::pair<double, TimeNs>> out;
    for (const MetricMean& m : means) out[m.metric] = {m.mean, m.coveredNs};
    return out;
}

using Means = std::map<std::string, std::pair<double, TimeNs>>;

} // namespace

class TestGpuMetricMeans : public QObject {
    Q_OBJECT

private slots:
    void counterNames() {
        using P = std::optional<std::pair<int32_t, std::string>>;
        QCOMPARE(parseGpuCounterName("GPU 0 SM Active"), (P{{0, "SM Active"}}));
        QCOMPARE(parseGpuCounterName("GPU 12 sclk"), (P{{12, "sclk"}}));
        QCOMPARE(parseGpuCounterName("GPU 0"), P{});
        QCOMPARE(parseGpuCounterName("GPU x SM Active"), P{});
        QCOMPARE(parseGpuCounterName("Memory used"), P{});
    }

    // The collector's memory counter ("GPU 0 memory allocated (bytes)", memory_usage.h) has a
    // GPU counter's name but is no hardware metric: a kernel [100, 200) ns on GPU 0 with it and
    // "GPU 0 SM Active" (40 from 0) has the SM Active mean alone.
    void memoryIsNoMetric() {
        QVERIFY(!gpuMetricOf("GPU 0 memory allocated (bytes)"));
        QCOMPARE(gpuMetricOf("GPU 0 SM Active"),
                 (std::optional<std::pair<int32_t, std::string>>{{0, "SM Active"}}));
        TraceBuilder b;
        const TrackId memory = b.counterTrack(0, b.intern("GPU 0 memory allocated (bytes)"));
        const TrackId active = b.counterTrack(0, b.intern("GPU 0 SM Active"));
        for (const TrackId c : {memory, active}) {
            b.addCounter(c, 0, 40);
            b.addCounter(c, 1000, 40);
        }
        GpuActivity g;
        g.device = 0;
        g.stream = 7;
        b.addSlice(b.gpuStreamTrack(0, 7, 0, 7), SliceInput{.start = 100,
                                                            .dur = 100,
                                                            .name = b.intern("k"),
                                                            .kind = SliceKind::Kernel,
                                                            .gpu = &g});
        const auto t = b.build();
        const std::vector<GpuMetricRow> rows = gpuMetricRows(*t);
        QCOMPARE(rows.size(), size_t(1));
        QCOMPARE(rows[0].metric, std::string("SM Active"));
        QCOMPARE(asMap(gpuMetricMeans(*t, rows, runOf(*t, "k", 0))),
                 (Means{{"SM Active", {40.0, 100}}}));
    }

    void meansByHand() {
        const LoadResult r = loadTrace(kFile);
        QVERIFY(r.ok());
        const Trace& t = *r.trace;
        const std::vector<GpuMetricRow> rows = gpuMetricRows(t);
        QCOMPARE(rows.size(), size_t(2)); // not "Memory used"
        QCOMPARE(rows[0].metric, std::string("DRAM Read"));
        QCOMPARE(rows[1].metric, std::string("SM Active"));
        QCOMPARE(asMap(gpuMetricMeans(t, rows, runOf(t, "k1", 0))),
                 (Means{{"SM Active", {50.0, 100'000}}, {"DRAM Read", {1.0, 50'000}}}));
        QCOMPARE(asMap(gpuMetricMeans(t, rows, runOf(t, "k2", 0))),
                 (Means{{"SM Active", {60.0, 50'000}}}));
        QCOMPARE(asMap(gpuMetricMeans(t, rows, runOf(t, "k1", 1))),
                 (Means{{"SM Active", {20.0, 100'000}}}));
        QVERIFY(gpuMetricMeans(t, rows, runOf(t, "k3", 0)).empty());

        const std::vector<KernelMetricMeans> k = kernelMetricMeans(t, collectGpuOps(t));
        QCOMPARE(k.size(), size_t(3));
        QCOMPARE(k[0].name, std::string("k1"));
        QCOMPARE(k[0].runs, uint64_t(2));
        QCOMPARE(k[0].totalNs, TimeNs(200'000));
        QCOMPARE(asMap(k[0].means),
                 (Means{{"SM Active", {35.0, 200'000}}, {"DRAM Read", {1.0, 50'000}}}));
        QCOMPARE(k[1].name, std::string("k2"));
        QCOMPARE(asMap(k[1].means), (Means{{"SM Active", {60.0, 50'000}}}));
        QCOMPARE(k[2].name, std::string("k3"));
        QVERIFY(k[2].means.empty());
    }

    // Two ranks of the same file in one window (io/set/trace_set_merge.h): rank 1's GPU 0 takes
    // another id there, and its metric rows go with it, so each run is measured by its own GPU's
    // rows alone: every k1 run's SM Active over its 100 µs, and k1 over its four runs 35 over 400.
    void rankSetKeepsEachGpusMetrics() {
        const LoadResult a = loadTrace(kFile), b = loadTrace(kFile);
        QVERIFY(a.ok() && b.ok());
        const LoadResult m = mergeTraceSet(
            {{a.trace.get(), "rank 0", 0, ""}, {b.trace.get(), "rank 1", 0, ""}}, "2 ranks");
        QVERIFY(m.ok());
        const Trace& t = *m.trace;
        const std::vector<GpuMetricRow> rows = gpuMetricRows(t);
        QCOMPARE(rows.size(), size_t(4)); // two metrics of two GPUs
        std::set<int32_t> devices;
        for (const GpuMetricRow& r : rows) devices.insert(r.device);
        QCOMPARE(devices.size(), size_t(2));
        for (size_t i = 0; i < 4; ++i) {
            const Means means = asMap(gpuMetricMeans(t, rows, runOf(t, "k1", i)));
            QCOMPARE(means.at("SM Active").second, TimeNs(100'000));
        }
        const std::vector<KernelMetricMeans> k = kernelMetricMeans(t, collectGpuOps(t));
        QCOMPARE(k[0].name, std::string("k1"));
        QCOMPARE(k[0].runs, uint64_t(4));
        QCOMPARE(asMap(k[0].means),
                 (Means{{"SM Active", {35.0, 400'000}}, {"DRAM Read", {1.0, 100'000}}}));

        // The set's Perfetto file names the rows as the window does, and reads back the same.
        QTemporaryDir dir;
        const std::string file = dir.filePath("set.json").toStdString();
        std::string error;
        auto sink = openExportSink(file, false, &error);
        QVERIFY2(sink, error.c_str());
        const PerfettoExportResult written = writePerfettoJsonSet(
            {{a.trace.get(), "rank 0", 0, ""}, {b.trace.get(), "rank 1", 0, ""}}, *sink);
        QVERIFY2(written.ok, written.error.c_str());
        QVERIFY2(sink->commit(), sink->error().c_str());
        const LoadResult back = loadTrace(file);
        QVERIFY(back.ok());
        std::set<int32_t> exported;
        for (const GpuMetricRow& r : gpuMetricRows(*back.trace)) exported.insert(r.device);
        QCOMPARE(exported, devices);
        QCOMPARE(asMap(kernelMetricMeans(*back.trace, collectGpuOps(*back.trace))[0].means),
                 asMap(k[0].means));
    }

    // `strata-cli stats --json` gives the same under "gpu_metrics"; the text names each kernel's.
    void cliStats() {
        const auto run = test::runStrataCli({"stats", "--json", QString::fromStdString(kFile)});
        QCOMPARE(run.exitCode, 0);
        const auto j = nlohmann::json::parse(run.out.toStdString()).at("gpu_metrics");
        QCOMPARE(j.size(), size_t(3));
        QCOMPARE(j[0].at("name").get<std::string>(), std::string("k1"));
        QCOMPARE(j[0].at("runs").get<int>(), 2);
        QCOMPARE(j[0].at("total_us").get<double>(), 200.0);
        QCOMPARE(j[0].at("means").at("SM Active").at("mean").get<double>(), 35.0);
        QCOMPARE(j[0].at("means").at("SM Active").at("covered_us").get<double>(), 200.0);
        QCOMPARE(j[0].at("means").at("DRAM Read").at("covered_us").get<double>(), 50.0);
        QVERIFY(j[2].at("means").empty());
        const auto text = test::runStrataCli({"stats", QString::fromStdString(kFile)});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("GPU metrics while each kernel ran"), text.out.constData());
        QVERIFY2(text.out.contains("(25% of its time covered)"), text.out.constData());
    }
};

STRATA_TEST_GUILESS_MAIN(TestGpuMetricMeans)
#include "tst_gpu_metric_means.moc"
