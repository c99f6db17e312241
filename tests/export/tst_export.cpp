// Perfetto JSON export (issue 16): export -> load gives the same slices (name, category, start
// and duration to the ns in the trace's own absolute time base, depth, thread or GPU stream as
// Strata names them, ids renumbered or not: issue 28), GPU launch data, flows, counters and
// instants, on synthetic traces, a .strata recording and the real traces in ../shared/traces;
// the exports of the eight ranks of one job keep their offsets (they line up);
// their summaries are equal before and after; a range export holds exactly the events that
// overlap the range (computed here, independently); the output passes a strict parser and the
// importer checklist (tests/data/export/check_perfetto_json.py); a bad output path, a full disk
// and Cancel leave no file under the final name.
#include "analysis/json/trace_summary_json.h"
#include "analysis/trace_summary.h"
#include "io/export/json_out.h"
#include "io/export/perfetto_json_export.h"
#include "io/strata/strata_trace_writer.h"
#include "io/synthetic/synthetic_trace.h"
#include "io/trace_loader.h"
#include "model/names/track_names.h"
#include "model/trace.h"
#include "support/test_main.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <map>
#include <tuple>

using namespace strata;

namespace {

const QString kChecker = QStringLiteral(STRATA_TEST_DATA "/export/check_perfetto_json.py");

std::shared_ptr<const Trace> load(const std::string& path) {
    LoadResult r = loadTrace(path);
    if (!r.ok()) qWarning("%s", r.error->toString().c_str());
    return r.trace;
}

// A slice as the round trip must keep it: where it is (its process and thread as Strata shows
// them, the overlap-lane suffix dropped, or GPU device and stream), what, when (absolute, as the
// source had it), its depth, and what it carries.
using SliceKey =
    std::tuple<std::string, std::string, std::string, TimeNs, TimeNs, int, std::string>;

std::string category(const Trace& t, const SliceColumns& s, SliceIndex i) {
    if (s.category[i]) return std::string(t.str(s.category[i]));
    return s.kind[i] == SliceKind::Generic ? std::string() : std::string(sliceKindName(s.kind[i]));
}

std::string where(const Trace& t, const Track& tr) {
    switch (tr.kind) {
    case TrackKind::GpuStream:
        return "gpu " + std::to_string(tr.device) + " stream " + std::to_string(tr.tid);
    case TrackKind::Thread: {
        // The names the track tree shows ("python3 0" / "Thread 0"): an export that renumbers
        // pid 0 or a tid past 2^31 must not change them.
        std::string n = trackRowName(t, tr);
        if (const size_t p = n.find(" (overlapping, lane "); p != std::string::npos)
            n.erase(p, n.find(')', p) + 1 - p);
        return processGroupName(t, tr.pid) + "/" + n;
    }
    case TrackKind::Async:
        return "async";
    default:
        return "other";
    }
}

std::string carried(const Trace& t, SliceRef r) {
    std::string c;
    if (const SliceExtra* x = t.extra(r)) {
        if (x->correlation >= 0) c += "corr " + std::to_string(x->correlation);
        if (const GpuActivity* g = t.gpu(r)) {
            char b[256];
            std::snprintf(
                b, sizeof b,
                " dev %d stream %lld grid %d,%d,%d block %d,%d,%d reg %d shm %d+%d bytes %lld",
                g->device, static_cast<long long>(g->stream), g->grid[0], g->grid[1], g->grid[2],
                g->block[0], g->block[1], g->block[2], g->registersPerThread, g->staticSharedBytes,
                g->dynamicSharedBytes, static_cast<long long>(g->bytes));
            c += b;
        }
    }
    if (const int64_t e = t.externalId(r); e >= 0) c += " ext " + std::to_string(e);
    return c;
}

std::vector<SliceKey> slicesOf(const Trace& t, std::optional<TimeRange> range = {}) {
    std::vector<SliceKey> out;
    for (TrackId ti = 0; ti < t.tracks().size(); ++ti) {
        const Track& tr = t.track(ti);
        if (tr.kind != TrackKind::Thread && tr.kind != TrackKind::GpuStream &&
            tr.kind != TrackKind::Async)
            continue;
        const SliceColumns& s = tr.slices;
        for (SliceIndex i = 0; i < s.size(); ++i) {
            const TimeNs st = s.start[i], en = st + s.dur[i];
            if (range) { // the overlap rule, written out here independently of the exporter
                const bool in = s.dur[i] == 0 ? st >= range->start && st < range->end
                                              : st < range->end && en > range->start;
                if (!in) continue;
            }
            // Depth is kept only where nesting is: async depth depends on the loader's cookies.
            out.emplace_back(where(t, tr), std::string(t.str(s.name[i])), category(t, s, i), st,
                             s.dur[i], tr.kind == TrackKind::Async ? 0 : int(s.depth[i]),
                             carried(t, {ti, i}));
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

using PointKey = std::tuple<std::string, TimeNs, double>;

std::vector<PointKey> countersOf(const Trace& t, bool renamed) {
    std::vector<PointKey> out;
    for (const Track& tr : t.tracks()) {
        if (tr.counter.size() == 0) continue;
        std::string name(t.str(tr.name));
        // A name without a space reads back as "<name> value" (docs/export.md).
        if (renamed && name.find(' ') == std::string::npos) name += " value";
        for (size_t i = 0; i < tr.counter.size(); ++i)
            out.emplace_back(name, tr.counter.ts[i], tr.counter.value[i]);
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::pair<std::string, TimeNs>> instantsOf(const Trace& t) {
    std::vector<std::pair<std::string, TimeNs>> out;
    for (const Track& tr : t.tracks())
        for (size_t i = 0; i < tr.instants.size(); ++i)
            out.emplace_back(std::string(t.str(tr.instants.name[i])), tr.instants.ts[i]);
    std::sort(out.begin(), out.end());
    return out;
}

// Flows as (from name, from start, to name, to start), absolute times.
using FlowKey = std::tuple<std::string, TimeNs, std::string, TimeNs>;
std::vector<FlowKey> flowsOf(const Trace& t, bool withLaunchLinks) {
    std::vector<FlowKey> out;
    const TimeNs o = 0;
    for (const Flow& f : t.flows())
        out.emplace_back(std::string(t.name(f.from)), t.start(f.from) - o,
                         std::string(t.name(f.to)), t.start(f.to) - o);
    if (withLaunchLinks) {
        // The export also links each GPU op to its launch call when no flow does.
        for (TrackId ti = 0; ti < t.tracks().size(); ++ti) {
            if (t.track(ti).kind != TrackKind::GpuStream) continue;
            for (SliceIndex i = 0; i < t.track(ti).slices.size(); ++i) {
                const SliceRef op{ti, i};
                const SliceRef l = t.launchOf(op);
                if (!l.valid()) continue;
                bool linked = false;
                for (uint32_t fi : t.flowsTo(op)) linked |= t.flows()[fi].from == l;
                if (!linked)
                    out.emplace_back(std::string(t.name(l)), t.start(l) - o,
                                     std::string(t.name(op)), t.start(op) - o);
            }
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

QString runChecker(const QString& path) {
    QProcess p;
    p.start(QStringLiteral("python3"), {kChecker, path});
    p.waitForFinished(120000);
    return QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError()).trimmed();
}

} // namespace

class TestExport : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string path(const QString& name) { return dir_.filePath(name).toStdString(); }

    void roundTrip(const std::string& source, bool compareSummaries = true) {
        const auto a = load(source);
        QVERIFY2(a, source.c_str());
        const std::string out =
            path(QFileInfo(QString::fromStdString(source)).fileName() + ".export.json");
        const PerfettoExportResult r = exportPerfettoJson(*a, out);
        QVERIFY2(r.ok, r.error.c_str());
        const QString check = runChecker(QString::fromStdString(out));
        QVERIFY2(check.startsWith(QStringLiteral("ok ")), qPrintable(check));
        const auto b = load(out);
        QVERIFY(b);
        QCOMPARE(b->sliceCount(), a->sliceCount());
        const auto sa = slicesOf(*a), sb = slicesOf(*b);
        QCOMPARE(sb.size(), sa.size());
        for (size_t i = 0; i < sa.size(); ++i)
            if (sa[i] != sb[i]) {
                qWarning("slice %zu differs: %s | %s | %s | %lld | %lld | %d | %s\n  vs %s | %s | "
                         "%s | %lld | %lld | %d | %s",
                         i, std::get<0>(sa[i]).c_str(), std::get<1>(sa[i]).c_str(),
                         std::get<2>(sa[i]).c_str(), static_cast<long long>(std::get<3>(sa[i])),
                         static_cast<long long>(std::get<4>(sa[i])), std::get<5>(sa[i]),
                         std::get<6>(sa[i]).c_str(), std::get<0>(sb[i]).c_str(),
                         std::get<1>(sb[i]).c_str(), std::get<2>(sb[i]).c_str(),
                         static_cast<long long>(std::get<3>(sb[i])),
                         static_cast<long long>(std::get<4>(sb[i])), std::get<5>(sb[i]),
                         std::get<6>(sb[i]).c_str());
                QFAIL("slices differ");
            }
        QCOMPARE(flowsOf(*b, false), flowsOf(*a, true));
        QCOMPARE(countersOf(*b, false), countersOf(*a, true));
        QCOMPARE(instantsOf(*b), instantsOf(*a));
        if (compareSummaries) {
            auto ja = summaryToJson(summarizeTrace(*a), "f");
            auto jb = summaryToJson(summarizeTrace(*b), "f");
            ja.erase("warnings");
            jb.erase("warnings");
            ja.erase("flows"); // the export adds the launch links as flows
            jb.erase("flows");
            QCOMPARE(QString::fromStdString(jb.dump(1)), QString::fromStdString(ja.dump(1)));
        }
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void numbersNeverInExponentForm() {
        QCOMPARE(plainNumber(1e20), std::string("100000000000000000000"));
        QCOMPARE(plainNumber(1.5e-7), std::string("0.00000015"));
        QCOMPARE(plainNumber(-2.5e21), std::string("-2500000000000000000000"));
        QCOMPARE(plainNumber(123.25), std::string("123.25"));
        QCOMPARE(plainNumber(1.2345678901234567e-5),
                 std::string("0.000012345678901234568")); // repr() in python3
        QCOMPARE(std::stod(plainNumber(1.2345678901234567e-5)), 1.2345678901234567e-5);
    }

    void stringsAndTimesByHand() {
        // Control characters escaped, invalid UTF-8 replaced and counted, times exact to the ns.
        struct MemSink : ExportSink {
            std::string text;
            bool write(std::string_view b) override {
                text.append(b);
                return true;
            }
            bool commit() override { return true; }
            void abort() override {}
            std::string error() const override { return {}; }
            size_t bytesOut() const override { return text.size(); }
        } sink;
        JsonOut out(sink);
        out.str(std::string("a\"b\\c\n\t\x01\xff\xc3\xa9", 11));
        out.ch(' ');
        out.micros(1234567);
        out.ch(' ');
        out.micros(-1);
        out.ch(' ');
        out.micros(5000);
        out.ch(' ');
        out.micros(1234560);
        out.ch(' ');
        out.dbl(0.1);
        out.ch(' ');
        out.dbl(std::numeric_limits<double>::quiet_NaN());
        out.flush();
        QCOMPARE(sink.text, std::string("\"a\\\"b\\\\c\\n\\t\\u0001\xEF\xBF\xBD\xc3\xa9\" 1234.567 "
                                        "-0.001 5 1234.56 0.1 null"));
        QCOMPARE(out.replacedBytes(), uint64_t(1));
        QCOMPARE(out.nonFinite(), uint64_t(1));
    }

    void sampleTrace() { roundTrip(STRATA_SOURCE_DIR "/resources/sample_trace.json"); }

    void syntheticKineto() {
        SynthOptions o;
        o.events = 20000;
        o.seed = 7;
        o.devices = 2;
        o.streams = 2;
        std::string error;
        QVERIFY2(writeSyntheticTrace(o, path(QStringLiteral("synth.json")), nullptr, &error),
                 error.c_str());
        roundTrip(path(QStringLiteral("synth.json")));
    }

    void strataRecording() {
        SynthOptions o;
        o.events = 20000;
        o.seed = 3;
        std::string error;
        QVERIFY2(writeSyntheticTrace(o, path(QStringLiteral("rec.strata")), nullptr, &error),
                 error.c_str());
        roundTrip(path(QStringLiteral("rec.strata")));
    }

    void realTraces_data() {
        QTest::addColumn<QString>("file");
        const QDir d(QStringLiteral(STRATA_SHARED_TRACES));
        const QStringList files =
            d.entryList({QStringLiteral("*.json"), QStringLiteral("*.gz")}, QDir::Files);
        for (const QString& f : files) QTest::newRow(qPrintable(f)) << d.filePath(f);
        if (files.isEmpty()) QTest::newRow("none") << QString(); // the folder is absent
    }
    void realTraces() {
        QFETCH(QString, file);
        if (file.isEmpty()) QSKIP("../shared/traces is absent: no real trace to round-trip");
        roundTrip(file.toStdString());
    }

    void whatWasRunTravels() {
        // A recording with its run record: the export carries it and the loader reads it back.
        const std::string src = path(QStringLiteral("run.strata"));
        {
            StrataTraceWriter w;
            std::string error;
            QVERIFY(w.open(src, &error));
            w.process(7, "train");
            w.thread(7, 7, "main");
            w.cpuSlice(7, 7, 1000, 2000, w.string("step"), SliceKind::UserAnnotation, -1, 0);
            RunInfo run;
            run.argv = {"python3", "train.py", "a b"};
            run.cwd = "/w";
            run.exitCode = 3;
            run.startUnixNs = 1'700'000'000'000'000'000;
            run.durationNs = 5'000'000'000;
            run.host = "node1";
            run.strataVersion = "0.1.0";
            w.run(run);
            QVERIFY(w.close());
        }
        const auto a = load(src);
        QVERIFY(a && a->run());
        const std::string out = path(QStringLiteral("run.json"));
        QVERIFY(exportPerfettoJson(*a, out).ok);
        const auto b = load(out);
        QVERIFY(b);
        QVERIFY(b->run().has_value());
        QCOMPARE(*b->run(), *a->run());
    }

    void rangeExportHoldsWhatOverlaps() {
        const auto a = load(STRATA_SOURCE_DIR "/resources/sample_trace.json");
        QVERIFY(a);
        const TimeRange b = a->bounds();
        const TimeRange range{b.start + b.duration() / 3, b.start + b.duration() / 2};
        PerfettoExportOptions o;
        o.range = range;
        const std::string out = path(QStringLiteral("range.json"));
        const PerfettoExportResult r = exportPerfettoJson(*a, out, o);
        QVERIFY2(r.ok, r.error.c_str());
        const QString check = runChecker(QString::fromStdString(out));
        QVERIFY2(check.startsWith(QStringLiteral("ok ")), qPrintable(check));
        const auto c = load(out);
        QVERIFY(c);
        // Times in the export are the trace's own, absolute: a range export lines up with the
        // whole one.
        const auto expected = slicesOf(*a, range);
        const auto got = slicesOf(*c);
        QVERIFY(!expected.empty());
        QVERIFY(expected.size() < slicesOf(*a).size());
        QCOMPARE(got, expected);
        QCOMPARE(c->sliceCount(), expected.size());
        QVERIFY(r.edgeSlices > 0);
    }

    // Ids Perfetto cannot take are renumbered; what Strata shows does not change (issue 28: the
    // process "python3 0" came back as "python3 1073741824", the unnamed thread 0 as
    // "Thread 0 1073741825"). Expected names by hand.
    void renumberedIdsKeepTheirNames() {
        const std::string src = path(QStringLiteral("ids.json"));
        {
            QFile f(QString::fromStdString(src));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(R"({"traceEvents": [
{"ph": "M", "name": "process_name", "pid": 0, "args": {"name": "python3"}},
{"ph": "X", "name": "a", "pid": 0, "tid": 0, "ts": 1000, "dur": 5},
{"ph": "M", "name": "process_name", "pid": 7, "args": {"name": "python3"}},
{"ph": "M", "name": "thread_name", "pid": 7, "tid": 5, "args": {"name": "worker"}},
{"ph": "X", "name": "b", "pid": 7, "tid": 5, "ts": 1001, "dur": 5},
{"ph": "X", "name": "c", "pid": 8, "tid": 5, "ts": 1002, "dur": 5},
{"ph": "X", "name": "d", "pid": 9, "tid": 1099511627776, "ts": 1003.25, "dur": 5}]})");
        }
        const auto a = load(src);
        QVERIFY(a);
        const std::string out = path(QStringLiteral("ids.export.json"));
        QVERIFY(exportPerfettoJson(*a, out).ok);
        QVERIFY(runChecker(QString::fromStdString(out)).startsWith(QStringLiteral("ok ")));
        const auto b = load(out);
        QVERIFY(b);
        std::vector<std::string> names;
        for (TrackId i = 0; i < b->tracks().size(); ++i)
            if (b->track(i).kind == TrackKind::Thread)
                names.push_back(trackFullName(*b, i) + " " + std::string(b->name({i, 0})) + " " +
                                std::to_string(b->start({i, 0})));
        std::sort(names.begin(), names.end());
        const std::vector<std::string> expected{
            "Thread 0 \u00b7 python3 [0] a 1000000",
            "Thread 1099511627776 \u00b7 pid 9 d 1003250",
            "Thread 5 \u00b7 pid 8 c 1002000",
            "worker [5] \u00b7 python3 [7] b 1001000",
        };
        QCOMPARE(names, expected);
    }

    // The eight ranks of one DLRM step, exported one by one, keep their offsets to each other
    // to the ns: their exports line up (they used to start each at 0).
    void ranksLineUp() {
        const QDir d(QStringLiteral(STRATA_SHARED_TRACES "/multirank/param-dlrm"));
        const QStringList files = d.entryList({QStringLiteral("*.json")}, QDir::Files);
        if (files.size() < 2) QSKIP("../shared/traces/multirank/param-dlrm is absent");
        std::vector<TimeNs> before, after;
        for (const QString& f : files) {
            const auto a = load(d.filePath(f).toStdString());
            QVERIFY(a);
            const std::string out = path(f + QStringLiteral(".export.json"));
            QVERIFY(exportPerfettoJson(*a, out).ok);
            const auto b = load(out);
            QVERIFY(b);
            before.push_back(a->bounds().start);
            after.push_back(b->bounds().start);
        }
        QCOMPARE(after, before);
        QVERIFY(before.front() != before.back()); // the ranks did not start together
    }

    void badOutputsLeaveNothing() {
        const auto a = load(STRATA_SOURCE_DIR "/resources/sample_trace.json");
        QVERIFY(a);
        PerfettoExportResult r = exportPerfettoJson(*a, path(QStringLiteral("no-such-dir/x.json")));
        QVERIFY(!r.ok);
        QVERIFY2(r.error.find("no-such-dir/x.json: cannot create") != std::string::npos,
                 r.error.c_str());
        // A full disk: every write to /dev/full fails with ENOSPC.
        r = exportPerfettoJson(*a, "/dev/full");
        QVERIFY(!r.ok);
        QVERIFY2(r.error.find("/dev/full") != std::string::npos, r.error.c_str());
        QVERIFY(QFileInfo(QStringLiteral("/dev/full")).exists() &&
                !QFileInfo(QStringLiteral("/dev/full")).isFile());
        // Cancel half way: no file under the final name, no temporary left beside it.
        const QString sub = dir_.filePath(QStringLiteral("cancel"));
        QDir().mkpath(sub);
        PerfettoExportOptions o;
        int calls = 0;
        o.progress = [&](double) { return ++calls < 1; };
        SynthOptions so;
        so.events = 300000;
        const auto big = buildSyntheticTrace(so);
        QVERIFY(big);
        for (bool gz : {false, true}) {
            o.gzip = gz;
            calls = 0;
            r = exportPerfettoJson(*big, (sub + QStringLiteral("/c.json")).toStdString(), o);
            QVERIFY(!r.ok);
            QVERIFY(r.cancelled);
            QCOMPARE(QDir(sub).entryList(QDir::Files | QDir::Hidden), QStringList());
        }
        // And a gzip'd export that runs to its end is a gzip file the loader reads.
        o.progress = {};
        o.gzip = true;
        r = exportPerfettoJson(*a, path(QStringLiteral("g.json.gz")), o);
        QVERIFY2(r.ok, r.error.c_str());
        QVERIFY(r.bytesOut < r.bytes);
        const auto g = load(path(QStringLiteral("g.json.gz")));
        QVERIFY(g);
        QCOMPARE(g->sliceCount(), a->sliceCount());
    }

    void cliExport() {
        QProcess p;
        const QString out = dir_.filePath(QStringLiteral("cli.json"));
        p.start(QStringLiteral(STRATA_BINARY_DIR "/app/strata-cli"),
                {QStringLiteral("export"), QStringLiteral("--format"),
                 QStringLiteral("perfetto-json"), QStringLiteral("--range"),
                 QStringLiteral("0:1ms"),
                 QStringLiteral(STRATA_SOURCE_DIR "/resources/sample_trace.json"), out});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(runChecker(out).startsWith(QStringLiteral("ok ")));
        p.start(QStringLiteral(STRATA_BINARY_DIR "/app/strata-cli"),
                {QStringLiteral("export"), QStringLiteral("--format"),
                 QStringLiteral("perfetto-json"),
                 QStringLiteral(STRATA_SOURCE_DIR "/resources/sample_trace.json"),
                 QStringLiteral("-")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        // No displayTimeUnit: the object starts with otherData.
        QVERIFY(p.readAllStandardOutput().startsWith("{\"otherData\""));
        p.start(QStringLiteral(STRATA_BINARY_DIR "/app/strata-cli"),
                {QStringLiteral("export"), QStringLiteral("--format"), QStringLiteral("csv"),
                 QStringLiteral("a"), QStringLiteral("b")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
    }
};

STRATA_TEST_GUILESS_MAIN(TestExport)
#include "tst_export.moc"
