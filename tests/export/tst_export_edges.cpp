// The Perfetto JSON export at its edges (issue 34): counter values past 2^64 read back; in-kernel
// sections written as slices on per-SM threads (times and slots worked out by hand below) and
// those that cannot be placed counted; ids at the ends of their ranges keep sort indices in
// int32 (no signed overflow); SIGINT or SIGTERM during strata-cli export leaves no partial file.
#include "io/export/export_sink.h"
#include "io/export/perfetto_json_export.h"
#include "io/synthetic/synthetic_trace.h"
#include "io/trace_loader.h"
#include "model/build/trace_builder.h"
#include "model/trace.h"
#include "support/test_main.h"
#include "util/output_file.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <cstring>
#include <limits>
#include <map>

using namespace strata;

namespace {

const QString kChecker = QStringLiteral(STRATA_TEST_DATA "/export/check_perfetto_json.py");
const QString kCli = QStringLiteral(STRATA_BINARY_DIR "/app/strata-cli");

QString runChecker(const QString& path) {
    QProcess p;
    p.start(QStringLiteral("python3"), {kChecker, path});
    p.waitForFinished(120000);
    return QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError()).trimmed();
}

std::shared_ptr<const Trace> load(const std::string& path) {
    LoadResult r = loadTrace(path);
    if (!r.ok()) qWarning("%s", r.error->toString().c_str());
    return r.trace;
}

// One 48-byte device record (model/kernel_sections.h), clock cycles given apart.
std::string record(uint64_t ns0, uint64_t ns1, uint64_t cycles, uint32_t block, uint16_t section,
                   uint16_t sm) {
    std::string r(48, '\0');
    const uint64_t c0 = 5000, c1 = 5000 + cycles;
    std::memcpy(&r[0], &c0, 8);
    std::memcpy(&r[8], &c1, 8);
    std::memcpy(&r[16], &ns0, 8);
    std::memcpy(&r[24], &ns1, 8);
    std::memcpy(&r[32], &block, 4);
    std::memcpy(&r[40], &section, 2);
    std::memcpy(&r[42], &sm, 2);
    return r;
}

// A CPU slice over [0, 10000) ns (the origin), kernel "k" on device 0 stream 7 at [2000, 3000)
// with correlation 42, and its sections in device ns (first start 100000: shift -98000):
//   r1 block 0 SM 3 load [100000, 100400) 800 cycles  -> trace [2000, 2400)
//   r2 block 0 SM 3 math [100400, 101000) 1200 cycles -> trace [2400, 3000)
//   r3 block 1 SM 3 load [100200, 100500) 600 cycles  -> trace [2200, 2500)
//   r4 block 2 SM 5 math [100100, 100300) 400 cycles  -> trace [2100, 2300)
// and a launch 99 ("ghost") of two records whose kernel is not in the trace.
std::shared_ptr<const Trace> sectionsTrace() {
    TraceBuilder b;
    SliceInput cpu;
    cpu.dur = 10000;
    cpu.name = b.intern("main");
    b.addSlice(b.threadTrack(1, 1), cpu);
    GpuActivity g;
    g.device = 0;
    g.stream = 7;
    SliceInput k;
    k.start = 2000;
    k.dur = 1000;
    k.name = b.intern("k");
    k.kind = SliceKind::Kernel;
    k.correlation = 42;
    k.gpu = &g;
    b.addSlice(b.gpuStreamTrack(0, 7, 0, 7), k);
    const std::string recs =
        record(100000, 100400, 800, 0, 0, 3) + record(100400, 101000, 1200, 0, 1, 3) +
        record(100200, 100500, 600, 1, 0, 3) + record(100100, 100300, 400, 2, 1, 5);
    SectionSet& s = b.sectionSet(42, "k", 0);
    s.names = {"load", "math"};
    appendSectionRecords(s, reinterpret_cast<const uint8_t*>(recs.data()), 4, nullptr);
    const std::string ghost = record(10, 20, 10, 0, 0, 1) + record(20, 30, 10, 1, 0, 1);
    SectionSet& h = b.sectionSet(99, "ghost", 0);
    appendSectionRecords(h, reinterpret_cast<const uint8_t*>(ghost.data()), 2, nullptr);
    return b.build();
}

// name -> (start, dur, block, cycles) of the slices on the thread named `thread`.
using Placed = std::tuple<std::string, TimeNs, TimeNs, int64_t, int64_t>;
std::vector<Placed> sliceOnThread(const Trace& t, const std::string& thread) {
    std::vector<Placed> out;
    for (const Track& tr : t.tracks()) {
        if (tr.kind != TrackKind::Thread) continue;
        const Thread* th = t.thread(tr.pid, tr.tid);
        if (!th || t.str(th->name) != thread) continue;
        for (SliceIndex i = 0; i < tr.slices.size(); ++i) {
            int64_t block = -1, cycles = -1;
            if (tr.slices.category[i]) {
                if (t.str(tr.slices.category[i]) != "gpu_section") continue;
            }
            for (const Arg& a : t.args(tr.slices.args[i])) {
                if (t.str(a.key) == "block") block = a.value.i;
                if (t.str(a.key) == "cycles") cycles = a.value.i;
            }
            out.emplace_back(std::string(t.str(tr.slices.name[i])), tr.slices.start[i],
                             tr.slices.dur[i], block, cycles);
        }
    }
    std::sort(out.begin(), out.end(),
              [](const Placed& a, const Placed& b) { return std::get<1>(a) < std::get<1>(b); });
    return out;
}

// Runs strata-cli export on `in` and sends `sig` once its temporary file has bytes in it.
// Returns false (and says why) when the export ended before the signal could be sent.
bool interruptExport(const QString& in, const QString& outDir, int sig, QString* why) {
    QProcess p;
    p.start(kCli,
            {QStringLiteral("export"), QStringLiteral("--format"), QStringLiteral("perfetto-json"),
             QStringLiteral("--gzip"), in, outDir + QStringLiteral("/out.json.gz")});
    if (!p.waitForStarted(10000)) {
        *why = QStringLiteral("strata-cli did not start");
        return false;
    }
    QElapsedTimer clock;
    clock.start();
    while (p.state() == QProcess::Running && clock.elapsed() < 120000) {
        const QFileInfoList partial =
            QDir(outDir).entryInfoList({QStringLiteral("out.json.gz.partial-*")}, QDir::Files);
        if (!partial.isEmpty() && partial.front().size() > 0) {
            ::kill(pid_t(p.processId()), sig);
            break;
        }
        p.waitForFinished(5);
    }
    p.waitForFinished(60000);
    if (p.exitStatus() != QProcess::CrashExit) {
        *why = QStringLiteral("the export ended before the signal (exit %1)").arg(p.exitCode());
        return false;
    }
    return true;
}

} // namespace

class TestExportEdges : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string path(const QString& name) { return dir_.filePath(name).toStdString(); }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void countersPast64BitsRoundTrip() {
        // 1e20 and 3e25 are whole doubles past 2^64: written as decimals ("...000.0"), which a
        // reader takes as doubles where an integer literal that long is an error. Four in, four
        // back, equal.
        TraceBuilder b;
        b.addSlice(b.threadTrack(1, 1), SliceInput{0, 100, b.intern("s")});
        const TrackId c = b.counterTrack(1, b.intern("mem bytes"));
        const double values[] = {1e20, 2, 3e25, -1.8446744073709552e19};
        for (int i = 0; i < 4; ++i) b.addCounter(c, 10 * (i + 1), values[i]);
        const auto t = b.build();
        const std::string out = path(QStringLiteral("big.json"));
        const PerfettoExportResult r = exportPerfettoJson(*t, out);
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(r.counterSamples, uint64_t(4));
        QFile f(QString::fromStdString(out));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY(text.contains("\"bytes\": 100000000000000000000.0}"));
        QVERIFY(text.contains("\"bytes\": 30000000000000000000000000.0}"));
        QVERIFY(text.contains("\"bytes\": -18446744073709551616.0}"));
        QVERIFY(runChecker(QString::fromStdString(out)).startsWith(QStringLiteral("ok ")));
        const auto back = load(out);
        QVERIFY(back);
        std::vector<double> got;
        for (const Track& tr : back->tracks())
            for (size_t i = 0; i < tr.counter.size(); ++i) got.push_back(tr.counter.value[i]);
        QCOMPARE(got, std::vector<double>(std::begin(values), std::end(values)));
    }

    void sectionsBecomeSlicesOnSmThreads() {
        const auto t = sectionsTrace();
        QCOMPARE(t->sections().size(), size_t(2));
        const std::string out = path(QStringLiteral("sections.json"));
        const PerfettoExportResult r = exportPerfettoJson(*t, out);
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(r.sectionSlices, uint64_t(4));
        QCOMPARE(r.sectionThreads, uint64_t(3));
        QCOMPARE(r.sectionSetsDropped, uint64_t(1)); // "ghost": no kernel 99 in the trace
        QCOMPARE(r.sectionSamplesDropped, uint64_t(2));
        const QString check = runChecker(QString::fromStdString(out));
        QVERIFY2(check.startsWith(QStringLiteral("ok ")), qPrintable(check)); // nested per tid
        const auto back = load(out);
        QVERIFY(back);
        // Block 0 keeps slot 0 on SM 3 (its load ends at 2400 where its math starts); block 1,
        // resident beside it from 2200, takes slot 1.
        QCOMPARE(sliceOnThread(*back, "SM 3 sections"),
                 (std::vector<Placed>{{"load", 2000, 400, 0, 800}, {"math", 2400, 600, 0, 1200}}));
        QCOMPARE(sliceOnThread(*back, "SM 3 sections, slot 1"),
                 (std::vector<Placed>{{"load", 2200, 300, 1, 600}}));
        QCOMPARE(sliceOnThread(*back, "SM 5 sections"),
                 (std::vector<Placed>{{"math", 2100, 200, 2, 400}}));
        // The threads belong to the GPU's process.
        for (const Track& tr : back->tracks()) {
            const Thread* th = back->thread(tr.pid, tr.tid);
            if (tr.kind != TrackKind::Thread || !th || !back->str(th->name).starts_with("SM "))
                continue;
            const Process* p = back->process(tr.pid);
            QVERIFY(p);
            QCOMPARE(std::string(back->str(p->name)), std::string("GPU 0"));
        }
        // A range export keeps the sections that overlap it, whole: [2450, 2600) holds r2 and r3.
        PerfettoExportOptions o;
        o.range = TimeRange{2450, 2600};
        const PerfettoExportResult rr =
            exportPerfettoJson(*t, path(QStringLiteral("sections-range.json")), o);
        QVERIFY2(rr.ok, rr.error.c_str());
        QCOMPARE(rr.sectionSlices, uint64_t(2));
    }

    void extremeIdsKeepSortIndicesInRange() {
        // Device 2^31-1 and a thread sort index of 2^31-1: the GPU process's index (10^6 + device)
        // and the thread's (index x 64) would overflow int32; both are clamped to 2^31-1.
        const QString in = dir_.filePath(QStringLiteral("ids.json"));
        QFile f(in);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"traceEvents": [
{"ph": "M", "name": "thread_sort_index", "pid": 1, "tid": 1, "args": {"sort_index": 2147483647}},
{"ph": "X", "name": "cpu", "pid": 1, "tid": 1, "ts": 0, "dur": 5},
{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1, "dur": 2,
 "args": {"device": 2147483647, "stream": 7, "correlation": 5}}]})");
        f.close();
        const auto t = load(in.toStdString());
        QVERIFY(t);
        const std::string out = path(QStringLiteral("ids.out.json"));
        const PerfettoExportResult r = exportPerfettoJson(*t, out);
        QVERIFY2(r.ok, r.error.c_str());
        QFile o(QString::fromStdString(out));
        QVERIFY(o.open(QIODevice::ReadOnly));
        const QJsonArray events = QJsonDocument::fromJson(o.readAll())["traceEvents"].toArray();
        double gpuPid = -1; // 10^9 + device is past 2^31 - 1: a fresh pid, found by its name
        for (const QJsonValue& e : events)
            if (e["name"].toString() == QStringLiteral("process_name") &&
                e["args"]["name"].toString() == QStringLiteral("GPU 2147483647"))
                gpuPid = e["pid"].toDouble();
        QVERIFY(gpuPid > 0);
        std::map<QString, double> sortIndex; // "gpu" (its process), "thread" (tid 1) -> index
        for (const QJsonValue& e : events) {
            const QString name = e["name"].toString();
            if (name == QStringLiteral("process_sort_index") && e["pid"].toDouble() == gpuPid)
                sortIndex["gpu"] = e["args"]["sort_index"].toDouble();
            if (name == QStringLiteral("thread_sort_index") && e["pid"].toDouble() == 1)
                sortIndex["thread"] = e["args"]["sort_index"].toDouble();
        }
        QCOMPARE(sortIndex["gpu"], 2147483647.0);
        QCOMPARE(sortIndex["thread"], 2147483647.0);
    }

    void removeTemporariesTakesOnlyThem() {
        // What a signal handler calls: the temporary file of an export under way goes, nothing
        // else (the folder's other file stays).
        const QString sub = dir_.filePath(QStringLiteral("tmp"));
        QDir().mkpath(sub);
        QFile keep(sub + QStringLiteral("/keep.txt"));
        QVERIFY(keep.open(QIODevice::WriteOnly));
        keep.close();
        std::string error;
        auto sink = openExportSink((sub + QStringLiteral("/o.json")).toStdString(), false, &error);
        QVERIFY2(sink, error.c_str());
        QVERIFY(sink->write("{\"traceEvents\": []}"));
        QCOMPARE(QDir(sub).entryList(QDir::Files).size(), 2); // keep.txt, o.json.partial-*
        removeOutputTemporaries();
        QCOMPARE(QDir(sub).entryList(QDir::Files), QStringList{QStringLiteral("keep.txt")});
        sink->abort();
        QCOMPARE(QDir(sub).entryList(QDir::Files), QStringList{QStringLiteral("keep.txt")});
    }

    void interruptedCliExportLeavesNothing() {
        // A trace big enough that its gzip'd export runs for a while (~1.2 M events).
        SynthOptions so;
        so.events = 1200000;
        const auto big = buildSyntheticTrace(so);
        QVERIFY(big);
        const QString in = dir_.filePath(QStringLiteral("in.json"));
        QVERIFY(exportPerfettoJson(*big, in.toStdString()).ok);
        for (int sig : {SIGINT, SIGTERM}) {
            const QString sub = dir_.filePath(QStringLiteral("sig%1").arg(sig));
            QDir().mkpath(sub);
            QString why;
            if (!interruptExport(in, sub, sig, &why)) QFAIL(qPrintable(why));
            QCOMPARE(QDir(sub).entryList(QDir::Files | QDir::Hidden), QStringList());
        }
    }
};

STRATA_TEST_GUILESS_MAIN(TestExportEdges)
#include "tst_export_edges.moc"
