// Memory in use per device (core/analysis/memory_usage.h) from hand-made Kineto traces (issue 44):
// the 2021 `[memory]` schema (only "Bytes": a running sum of them), memory events that name a
// device the kernels do not run on (mapped when the kernels run on one device, else a warning
// naming the ids), and each device's peak in `strata-cli summary --json`. Every figure worked out
// by hand beside its check.
#include "analysis/json/trace_summary_json.h"
#include "analysis/memory_usage.h"
#include "analysis/trace_analysis.h"
#include "analysis/trace_summary.h"
#include "io/json/chrome_json_reader.h"
#include "support/test_main.h"

#include <QtTest>

#include <algorithm>
#include <string>
#include <vector>

using namespace strata;

namespace {

// A kernel of 5 µs at `ts` µs on `device`.
std::string kernel(int device, int ts) {
    return "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":" +
           std::to_string(ts) + ",\"dur\":5,\"args\":{\"device\":" + std::to_string(device) +
           ",\"stream\":7}}";
}

// A `[memory]` instant at `ts` µs; `total` < 0: the 2021 schema (no "Total Allocated").
std::string memory(int ts, int deviceType, int device, long long bytes, long long total = -1) {
    std::string args = "\"Device Type\":" + std::to_string(deviceType) +
                       ",\"Device Id\":" + std::to_string(device) +
                       ",\"Addr\":4096,\"Bytes\":" + std::to_string(bytes);
    if (total >= 0)
        args += ",\"Total Allocated\":" + std::to_string(total) +
                ",\"Total Reserved\":" + std::to_string(2 * total);
    return "{\"ph\":\"i\",\"cat\":\"cpu_instant_event\",\"s\":\"t\",\"name\":\"[memory]\","
           "\"pid\":1,\"tid\":1,\"ts\":" +
           std::to_string(ts) + ",\"args\":{" + args + "}}";
}

std::shared_ptr<const Trace> load(const std::vector<std::string>& events) {
    std::string text = "{\"traceEvents\":[";
    for (size_t i = 0; i < events.size(); ++i) text += (i ? ",\n" : "\n") + events[i];
    text += "]}";
    const LoadResult r = readChromeJsonBuffer(text, "memory.json");
    return r.ok() ? r.trace : nullptr;
}

std::vector<int64_t> allocated(const MemorySeries& s) {
    std::vector<int64_t> v;
    for (const MemorySample& x : s.samples) v.push_back(x.allocated);
    return v;
}

} // namespace

class TstMemoryUsage : public QObject {
    Q_OBJECT
private slots:
    void schema2021IsARunningSum() {
        // Out of time order in the file: +1000 at 10, +500 at 20, -1000 at 30, +200 at 40 µs:
        // 1000, 1500, 500, 700; the peak 1500 at 20 µs.
        const auto t = load({kernel(0, 0), memory(30, 1, 0, -1000), memory(10, 1, 0, 1000),
                             memory(40, 1, 0, 200), memory(20, 1, 0, 500)});
        QVERIFY(t);
        const MemoryUsage u = memoryUsage(*t);
        QVERIFY(u.warnings.empty());
        const MemorySeries* s = u.of(0);
        QVERIFY(s);
        QVERIFY(s->summed);
        QCOMPARE(allocated(*s), (std::vector<int64_t>{1000, 1500, 500, 700}));
        QCOMPARE(s->peak, size_t(1));
        QCOMPARE(s->samples[s->peak].ts, TimeNs(20'000));
        QVERIFY(!s->hasReserved);
    }

    void schema2021FreesOfEarlierBlocks() {
        // A free of 300 bytes allocated before the capture, then +1000: the sums -300, 700 are
        // raised by 300 (held at the start): 0, 1000.
        const auto t = load({kernel(0, 0), memory(10, 1, 0, -300), memory(20, 1, 0, 1000)});
        QVERIFY(t);
        const MemoryUsage u = memoryUsage(*t);
        const MemorySeries* s = u.of(0);
        QVERIFY(s);
        QCOMPARE(allocated(*s), (std::vector<int64_t>{0, 1000}));
    }

    void totalsWinOverTheSum() {
        // The current schema: "Total Allocated" as recorded (not the sum of Bytes).
        const auto t =
            load({kernel(0, 0), memory(10, 1, 0, 100, 5000), memory(20, 1, 0, 50, 4000)});
        QVERIFY(t);
        const MemoryUsage u = memoryUsage(*t);
        const MemorySeries* s = u.of(0);
        QVERIFY(s);
        QVERIFY(!s->summed);
        QCOMPARE(allocated(*s), (std::vector<int64_t>{5000, 4000}));
        QCOMPARE(s->samples[s->reservedPeak].reserved, int64_t(10000));
    }

    void deviceMappedToTheKernels() {
        // A vLLM capture: memory on device 0, every kernel on device 2: drawn as device 2's.
        // Host memory (Device Type 0) stays the host's.
        const auto t = load({kernel(2, 0), kernel(2, 50), memory(10, 1, 0, 100, 100),
                             memory(20, 1, 0, 300, 400), memory(30, 0, 0, 64)});
        QVERIFY(t);
        const MemoryUsage u = memoryUsage(*t);
        QVERIFY(u.warnings.empty());
        QVERIFY(!u.of(0));
        const MemorySeries* s = u.of(2);
        QVERIFY(s);
        QCOMPARE(s->recordedDevice, 0);
        QCOMPARE(allocated(*s), (std::vector<int64_t>{100, 400}));
        QVERIFY(u.of(-1));
        QCOMPARE(u.of(-1)->samples.size(), size_t(1));
    }

    void unmappableDeviceIsSaid() {
        // Kernels on devices 2 and 3, memory on 0: which device is meant is unknown.
        const auto t = load({kernel(2, 0), kernel(3, 0), memory(10, 1, 0, 100, 100)});
        QVERIFY(t);
        const MemoryUsage u = memoryUsage(*t);
        QVERIFY(u.of(0));
        QCOMPARE(u.warnings.size(), size_t(1));
        QCOMPARE(u.warnings[0],
                 std::string("memory events name GPU device 0, on which no kernel runs (kernels "
                             "on device 2, 3): not drawn, as which device they mean is unknown"));
        // The summary says it among its warnings.
        const TraceAnalysis a(t);
        const auto& w = a.summary().warnings;
        QVERIFY(std::find(w.begin(), w.end(), u.warnings[0]) != w.end());
    }

    void summaryReportsEachDevicesPeak() {
        // Device 2 (recorded as 0): 100 at 10 µs, 400 at 20 µs, 150 at 30 µs: peak 400 at 20 µs.
        // Host: a running sum 64 at 15 µs.
        const auto t = load({kernel(2, 0), memory(10, 1, 0, 100, 100), memory(20, 1, 0, 300, 400),
                             memory(30, 1, 0, -250, 150), memory(15, 0, 0, 64)});
        QVERIFY(t);
        const nlohmann::json j = summaryToJson(summarizeTrace(*t), "memory.json");
        const nlohmann::json& m = j["memory"];
        QCOMPARE(m.size(), size_t(2));
        QCOMPARE(m[0]["device"].get<int>(), -1);
        QCOMPARE(m[0]["peak_bytes"].get<int64_t>(), int64_t(64));
        QCOMPARE(m[0]["running_sum"].get<bool>(), true);
        QCOMPARE(m[1]["device"].get<int>(), 2);
        QCOMPARE(m[1]["recorded_device"].get<int>(), 0);
        QCOMPARE(m[1]["peak_bytes"].get<int64_t>(), int64_t(400));
        QCOMPARE(m[1]["peak_ts_us"].get<double>(), 20.0);
        QCOMPARE(m[1]["reserved_peak_bytes"].get<int64_t>(), int64_t(800));
        QCOMPARE(m[1]["samples"].get<int>(), 3);
        QVERIFY(!m[1].contains("running_sum"));
        // Over [25, 45) µs: 400 held at its start (the sample at 20 µs), then 150 at 30: the
        // peak is 400 at 25 µs, one sample in the range.
        SummaryOptions o;
        o.range = TimeRange{25'000, 45'000};
        const std::vector<MemoryPeak> p = summarizeTrace(*t, o).memory;
        QCOMPARE(p.size(), size_t(2));
        QCOMPARE(p[1].bytes, int64_t(400));
        QCOMPARE(p[1].at, TimeNs(25'000));
        QCOMPARE(p[1].samples, size_t(1));
        // Before anything was recorded: nothing held, no peak.
        o.range = TimeRange{0, 5'000};
        QVERIFY(summarizeTrace(*t, o).memory.empty());
    }
};

STRATA_TEST_GUILESS_MAIN(TstMemoryUsage)
#include "tst_memory_usage.moc"
