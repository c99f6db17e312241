// strata-cli synth's generator: deterministic bytes, exactly N events, and the reader recovers the
// generator's own totals exactly (kernel count and kernel time per device, copies, sets, flows).
#include "io/json/chrome_json_reader.h"
#include "io/synthetic/synthetic_trace.h"
#include "io/trace_loader.h"
#include "support/test_main.h"

#include <map>
#include <tuple>

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace strata;

namespace {

std::string generate(const SynthOptions& o, SynthTotals* t) {
    std::string out;
    std::string error;
    const bool ok = generateSyntheticTrace(
        o, [&](const char* p, size_t n) { out.append(p, n); }, t, &error);
    return ok ? out : std::string();
}

} // namespace

class TestSyntheticTrace : public QObject {
    Q_OBJECT

private slots:
    void deterministic();
    void exactEventCount();
    void readerRecoversTotals_data();
    void readerRecoversTotals();
    void builtTraceEqualsTheLoadedOne();
    void badOptions();
};

void TestSyntheticTrace::deterministic() {
    SynthOptions o{20000, 7, 2, 3};
    SynthTotals a, b;
    const std::string x = generate(o, &a), y = generate(o, &b);
    QVERIFY(!x.empty());
    QVERIFY(x == y);
    o.seed = 8;
    SynthTotals c;
    QVERIFY(generate(o, &c) != x);
}

void TestSyntheticTrace::exactEventCount() {
    for (uint64_t n : {uint64_t(16), uint64_t(17), uint64_t(1000), uint64_t(12345)}) {
        SynthOptions o{n, 3, 2, 3};
        SynthTotals t;
        const std::string text = generate(o, &t);
        QVERIFY(!text.empty());
        QCOMPARE(t.events, n);
        const nlohmann::json j = nlohmann::json::parse(text);
        QCOMPARE(uint64_t(j["traceEvents"].size()), n);
        QCOMPARE(t.bytes, uint64_t(text.size()));
    }
}

void TestSyntheticTrace::readerRecoversTotals_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("devices");
    QTest::addColumn<int>("streams");
    QTest::newRow("plain 1x1") << "t.json" << 1 << 1;
    QTest::newRow("plain 2x3") << "t.json" << 2 << 3;
    QTest::newRow("gzip 3x2") << "t.json.gz" << 3 << 2;
    QTest::newRow("strata 2x3") << "t.strata" << 2 << 3; // the same program, recorded
}

void TestSyntheticTrace::readerRecoversTotals() {
    QFETCH(QString, name);
    QFETCH(int, devices);
    QFETCH(int, streams);
    QTemporaryDir dir;
    const std::string path = dir.filePath(name).toStdString();
    SynthOptions o{50000, 11, devices, streams};
    SynthTotals t;
    std::string error;
    QVERIFY2(writeSyntheticTrace(o, path, &t, &error), error.c_str());
    const LoadResult r = loadTrace(path);
    QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
    const Trace& tr = *r.trace;
    QVERIFY2(tr.warnings().empty(), tr.warnings().empty() ? "" : tr.warnings()[0].c_str());
    std::vector<uint64_t> kernels(size_t(devices), 0);
    std::vector<int64_t> kernelNs(size_t(devices), 0);
    uint64_t copies = 0, sets = 0, cpu = 0;
    for (const Track& track : tr.tracks()) {
        for (SliceIndex i = 0; i < track.slices.size(); ++i) {
            const SliceKind k = track.slices.kind[i];
            if (k == SliceKind::Kernel) {
                QVERIFY(track.kind == TrackKind::GpuStream);
                ++kernels[size_t(track.device)];
                kernelNs[size_t(track.device)] += track.slices.dur[i];
            }
            copies += k == SliceKind::Memcpy;
            sets += k == SliceKind::Memset;
            cpu += track.kind == TrackKind::Thread;
        }
    }
    for (int d = 0; d < devices; ++d) {
        QCOMPARE(kernels[size_t(d)], t.kernelsPerDevice[size_t(d)]);
        QCOMPARE(kernelNs[size_t(d)], t.kernelTimeNsPerDevice[size_t(d)]);
    }
    QCOMPARE(copies, t.memcpys);
    QCOMPARE(sets, t.memsets);
    QCOMPARE(cpu, t.cpuSlices);
    // JSON links launch and GPU op by an explicit flow; a recording by the correlation id alone.
    if (!name.endsWith(".strata")) QCOMPARE(uint64_t(tr.flows().size()), t.flowPairs);
    QCOMPARE(tr.sliceCount(), size_t(t.cpuSlices + t.kernels + t.memcpys + t.memsets));
    QCOMPARE(tr.bounds().start, TimeNs(t.firstNs));
    QCOMPARE(tr.bounds().end, TimeNs(t.lastNs));
    QCOMPARE(tr.devices().size(), size_t(devices));
    // Every kernel's launch is found through its correlation id.
    for (TrackId id = 0; id < tr.tracks().size(); ++id) {
        const Track& track = tr.track(id);
        if (track.kind != TrackKind::GpuStream || track.slices.size() == 0) continue;
        const SliceRef k{id, 0};
        const SliceRef launch = tr.launchOf(k);
        QVERIFY(launch.valid());
        QCOMPARE(tr.extra(launch)->correlation, tr.extra(k)->correlation);
    }
}

void TestSyntheticTrace::builtTraceEqualsTheLoadedOne() {
    // buildSyntheticTrace (the render benchmark's) gives the slices the JSON form loads to:
    // same count, and the same start, duration and name of each slice of each thread and stream.
    SynthOptions o{30000, 5, 2, 2};
    std::string text = generate(o, nullptr);
    const LoadResult json = readChromeJsonBuffer(text, "synth.json");
    QVERIFY(json.ok());
    const auto built = buildSyntheticTrace(o);
    QVERIFY(built);
    QCOMPARE(built->sliceCount(), json.trace->sliceCount());
    QCOMPARE(built->bounds(), json.trace->bounds());
    auto byKey = [](const Trace& t) {
        std::map<std::tuple<int, int64_t, int64_t>, std::vector<std::string>> m;
        for (const Track& tr : t.tracks())
            for (SliceIndex i = 0; i < tr.slices.size(); ++i)
                m[{int(tr.kind), tr.device, tr.tid}].push_back(
                    std::to_string(tr.slices.start[i]) + "+" + std::to_string(tr.slices.dur[i]) +
                    " " + std::string(t.str(tr.slices.name[i])));
        return m;
    };
    QVERIFY(byKey(*built) == byKey(*json.trace));
}

void TestSyntheticTrace::badOptions() {
    SynthOptions o{3, 1, 2, 2};
    std::string error;
    QVERIFY(!generateSyntheticTrace(
        o, [](const char*, size_t) {}, nullptr, &error));
    QVERIFY(error.find("at least") != std::string::npos);
    o = SynthOptions{100, 1, 0, 1};
    QVERIFY(!generateSyntheticTrace(
        o, [](const char*, size_t) {}, nullptr, &error));
}

STRATA_TEST_GUILESS_MAIN(TestSyntheticTrace)
#include "tst_synthetic_trace.moc"
