// The notes sidecar (issue 48, item 4: core/io/notes/notes_file.h): a round trip, bad and foreign
// files refused with the reason and where, unknown keys kept; the stable track keys; notes and
// flags in the Perfetto JSON export as "strata.note" global instants and "strata.flag" async
// slices (read back as notes), a range export keeping those in it, and strata-cli export picking
// up the sidecar beside its input. Expected values worked out by hand from the inputs below.
#include "io/export/perfetto_json_export.h"
#include "io/notes/notes_file.h"
#include "io/notes/notes_in_trace.h"
#include "io/notes/track_keys.h"
#include "io/trace_loader.h"
#include "support/process_run.h"
#include "support/test_files.h"
#include "support/test_main.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <set>

using namespace strata;

namespace {

// Thread 1/2 (process "train"), a kernel on device 0 stream 7, a counter, a global instant;
// ts in µs: the trace runs from 100 µs to 150 µs.
const char* const kTrace = R"({"traceEvents": [
 {"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "train"}},
 {"ph": "X", "name": "step", "pid": 1, "tid": 2, "ts": 100, "dur": 50},
 {"ph": "X", "name": "k", "cat": "kernel", "pid": 0, "tid": 7, "ts": 110, "dur": 10,
  "args": {"device": 0, "stream": 7, "correlation": 5}},
 {"ph": "C", "name": "mem", "pid": 1, "ts": 100, "args": {"bytes": 3}},
 {"ph": "i", "s": "g", "name": "marker", "pid": 1, "tid": 2, "ts": 120}
]})";

TimelineNotes sampleNotes() {
    TimelineNotes n;
    n.notes.push_back({125000, 125000, "a \"quoted\" note \xc3\xa9", false});
    n.notes.push_back({105000, 140000, "slow part", true});
    n.tracks.pinned = {"thread:1:2"};
    n.tracks.hidden = {"counter:1:mem"};
    n.tracks.hiddenGroups = {"process:9"};
    n.tracks.order = {{"gpu:0", {"stream:0:7", "stream:0:3"}}};
    return n;
}

QJsonArray eventsOf(const std::string& path) {
    return QJsonDocument::fromJson(QByteArray::fromStdString(test::readAll(path)))
        .object()
        .value(QStringLiteral("traceEvents"))
        .toArray();
}

} // namespace

class TestNotesFile : public QObject {
    Q_OBJECT
private slots:
    void roundTrip();
    void textAsWritten();
    void badFiles_data();
    void badFiles();
    void unknownKeysKept();
    void missingAndUnwritable();
    void trackKeys();
    void exportedAndReadBack();
    void rangeExport();
    void cliExportPicksUpSidecar();
};

void TestNotesFile::roundTrip() {
    const TimelineNotes n = sampleNotes();
    std::string error;
    const std::optional<TimelineNotes> back = notesFromJson(notesToJson(n, "run.json"), &error);
    QVERIFY2(back, error.c_str());
    QVERIFY(*back == n);
    QTemporaryDir dir;
    const std::string trace = test::writeIn(dir.path().toStdString(), "run.json", kTrace);
    const std::string side = notesFilePath(trace);
    QCOMPARE(side, trace + ".strata-notes.json");
    QVERIFY2(writeNotesFile(side, n, &error, "run.json"), error.c_str());
    const NotesFileRead r = readNotesFile(side);
    QVERIFY(r.exists);
    QVERIFY2(r.error.empty(), r.error.c_str());
    QVERIFY(r.notes && *r.notes == n);
    // Written beside the trace, which is untouched; no temporary file left.
    QCOMPARE(test::readAll(trace), std::string(kTrace));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 2);
}

void TestNotesFile::textAsWritten() {
    // The file as the format says (notes_file.h), read by another JSON parser.
    const QJsonObject o =
        QJsonDocument::fromJson(QByteArray::fromStdString(notesToJson(sampleNotes(), "run.json")))
            .object();
    QCOMPARE(o.value("format").toString(), QStringLiteral("strata-notes"));
    QCOMPARE(o.value("version").toInt(), 1);
    QCOMPARE(o.value("trace").toString(), QStringLiteral("run.json"));
    const QJsonObject note = o.value("notes").toArray().at(0).toObject();
    QCOMPARE(note.value("ts").toInteger(), 125000);
    QCOMPARE(note.value("text").toString(), QStringLiteral("a \"quoted\" note \u00e9"));
    const QJsonObject flag = o.value("flags").toArray().at(0).toObject();
    QCOMPARE(flag.value("start").toInteger(), 105000);
    QCOMPARE(flag.value("end").toInteger(), 140000);
    const QJsonObject tracks = o.value("tracks").toObject();
    QCOMPARE(tracks.value("pinned").toArray().at(0).toString(), QStringLiteral("thread:1:2"));
    QCOMPARE(tracks.value("order").toObject().value("gpu:0").toArray().at(1).toString(),
             QStringLiteral("stream:0:3"));
}

void TestNotesFile::badFiles_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("why");
    QTest::newRow("not JSON") << "{\"format\": "
                              << "not JSON";
    QTest::newRow("a list") << "[]"
                            << "not a JSON object";
    QTest::newRow("foreign") << R"({"traceEvents": []})"
                             << "not a Strata notes file";
    QTest::newRow("other format") << R"({"format": "perfetto-notes", "version": 1})"
                                  << "not a Strata notes file";
    QTest::newRow("newer") << R"({"format": "strata-notes", "version": 2})"
                           << "version 2";
    QTest::newRow("ts text") << R"({"format": "strata-notes", "version": 1,
        "notes": [{"ts": 1}, {"ts": "12"}]})"
                             << "notes[1].ts: not a whole number";
    QTest::newRow("ts float") << R"({"format": "strata-notes", "version": 1,
        "notes": [{"ts": 1.5}]})"
                              << "notes[0].ts: not a whole number";
    QTest::newRow("end first") << R"({"format": "strata-notes", "version": 1,
        "flags": [{"start": 10, "end": 5, "text": "x"}]})"
                               << "flags[0]: \"end\" is before \"start\"";
    QTest::newRow("no start") << R"({"format": "strata-notes", "version": 1,
        "flags": [{"end": 5}]})"
                              << "flags[0]: no \"start\"";
    QTest::newRow("text number") << R"({"format": "strata-notes", "version": 1,
        "notes": [{"ts": 1, "text": 3}]})"
                                 << "notes[0].text: not a string";
    QTest::newRow("pinned") << R"({"format": "strata-notes", "version": 1,
        "tracks": {"pinned": ["thread:1:2", 7]}})"
                            << "tracks.pinned[1]: not a string";
    QTest::newRow("order") << R"({"format": "strata-notes", "version": 1,
        "tracks": {"order": []}})"
                           << "tracks.order: not an object";
}

void TestNotesFile::badFiles() {
    QFETCH(QString, text);
    QFETCH(QString, why);
    std::string error;
    QVERIFY(!notesFromJson(text.toStdString(), &error));
    QVERIFY2(QString::fromStdString(error).contains(why), error.c_str());
    // From a file: the file named, the reason given.
    QTemporaryDir dir;
    const std::string path =
        test::writeIn(dir.path().toStdString(), "t.json.strata-notes.json", text.toStdString());
    const NotesFileRead r = readNotesFile(path);
    QVERIFY(r.exists && !r.notes);
    QVERIFY2(QString::fromStdString(r.error).startsWith(QString::fromStdString(path + ": ")),
             r.error.c_str());
    QVERIFY2(QString::fromStdString(r.error).contains(why), r.error.c_str());
}

void TestNotesFile::unknownKeysKept() {
    // A newer Strata's key survives an edit here; unknown keys inside known objects do not
    // matter.
    const std::string text = R"({"format": "strata-notes", "version": 1, "trace": "old.json",
        "colours": {"note": "#ff00ff"}, "notes": [{"ts": 7, "text": "x", "author": "ann"}]})";
    std::string error;
    std::optional<TimelineNotes> n = notesFromJson(text, &error);
    QVERIFY2(n, error.c_str());
    QCOMPARE(n->notes.size(), size_t(1));
    QCOMPARE(n->notes[0].start, TimeNs(7));
    n->notes.push_back({9, 9, "y", false});
    const QJsonObject o =
        QJsonDocument::fromJson(QByteArray::fromStdString(notesToJson(*n, "new.json"))).object();
    QCOMPARE(o.value("colours").toObject().value("note").toString(), QStringLiteral("#ff00ff"));
    QCOMPARE(o.value("trace").toString(), QStringLiteral("new.json"));
    QCOMPARE(o.value("notes").toArray().size(), 2);
}

void TestNotesFile::missingAndUnwritable() {
    QTemporaryDir dir;
    const std::string path = dir.path().toStdString() + "/none.json.strata-notes.json";
    const NotesFileRead r = readNotesFile(path);
    QVERIFY(!r.exists && !r.notes && r.error.empty());
    // A folder where the file would be: said, not fatal.
    std::filesystem::create_directory(path);
    const NotesFileRead d = readNotesFile(path);
    QVERIFY(d.exists && !d.notes);
    QVERIFY2(d.error == path + ": not a regular file", d.error.c_str());
    std::string error;
    const std::string nowhere = dir.path().toStdString() + "/no/such/folder/x.strata-notes.json";
    QVERIFY(!writeNotesFile(nowhere, sampleNotes(), &error));
    QVERIFY2(QString::fromStdString(error).contains(QString::fromStdString(nowhere)),
             error.c_str());
}

void TestNotesFile::trackKeys() {
    QTemporaryDir dir;
    const LoadResult r = loadTrace(test::writeIn(dir.path().toStdString(), "t.json", kTrace));
    QVERIFY(r.ok());
    std::set<std::string> keys, groups;
    for (TrackId id = 0; id < r.trace->tracks().size(); ++id) {
        keys.insert(trackKey(*r.trace, id));
        groups.insert(trackGroupKey(*r.trace, id));
    }
    QVERIFY(keys.count("thread:1:2"));
    QVERIFY(keys.count("stream:0:7"));
    QVERIFY(keys.count("instants:global"));
    QVERIFY(std::any_of(keys.begin(), keys.end(),
                        [](const std::string& k) { return k.rfind("counter:1:mem", 0) == 0; }));
    QVERIFY(groups.count("process:1") && groups.count("gpu:0") && groups.count("global"));
    // The same keys at another load.
    const LoadResult again = loadTrace(dir.path().toStdString() + "/t.json");
    std::set<std::string> keys2;
    for (TrackId id = 0; id < again.trace->tracks().size(); ++id)
        keys2.insert(trackKey(*again.trace, id));
    QVERIFY(keys == keys2);
}

void TestNotesFile::exportedAndReadBack() {
    QTemporaryDir dir;
    const LoadResult r = loadTrace(test::writeIn(dir.path().toStdString(), "t.json", kTrace));
    QVERIFY(r.ok());
    PerfettoExportOptions o;
    o.notes = sampleNotes().notes;
    const std::string out = dir.path().toStdString() + "/out.json";
    const PerfettoExportResult e = exportPerfettoJson(*r.trace, out, o);
    QVERIFY2(e.ok, e.error.c_str());
    QCOMPARE(e.notes, uint64_t(2));
    QJsonObject note, begin, end;
    for (const QJsonValue& v : eventsOf(out)) {
        const QJsonObject ev = v.toObject();
        if (ev.value("cat") == QStringLiteral("strata.note")) note = ev;
        if (ev.value("cat") == QStringLiteral("strata.flag"))
            (ev.value("ph") == QStringLiteral("b") ? begin : end) = ev;
    }
    // The note: a global instant at 125 µs, its text as name and arg.
    QCOMPARE(note.value("ph").toString(), QStringLiteral("i"));
    QCOMPARE(note.value("s").toString(), QStringLiteral("g"));
    QCOMPARE(note.value("ts").toDouble(), 125.0);
    QCOMPARE(note.value("name").toString(), QStringLiteral("a \"quoted\" note \u00e9"));
    QCOMPARE(note.value("args").toObject().value("text").toString(),
             QStringLiteral("a \"quoted\" note \u00e9"));
    // The flag: b at 105 µs and e at 140 µs of one id, on one process.
    QCOMPARE(begin.value("ts").toDouble(), 105.0);
    QCOMPARE(end.value("ts").toDouble(), 140.0);
    QCOMPARE(begin.value("name").toString(), QStringLiteral("slow part"));
    QCOMPARE(begin.value("id"), end.value("id"));
    QCOMPARE(begin.value("pid"), end.value("pid"));
    QVERIFY(begin.value("pid").toInteger() > 0);
    // Read back: the same notes, ns exact, in time order.
    const LoadResult back = loadTrace(out);
    QVERIFY(back.ok());
    const std::vector<TimelineNote> got = notesInTrace(*back.trace);
    QCOMPARE(got.size(), size_t(2));
    QVERIFY(got[0] == (TimelineNote{105000, 140000, "slow part", true}));
    QVERIFY(got[1] == (TimelineNote{125000, 125000, "a \"quoted\" note \xc3\xa9", false}));
}

void TestNotesFile::rangeExport() {
    QTemporaryDir dir;
    const LoadResult r = loadTrace(test::writeIn(dir.path().toStdString(), "t.json", kTrace));
    QVERIFY(r.ok());
    PerfettoExportOptions o;
    o.notes = sampleNotes().notes;
    o.range = TimeRange{130000, 200000}; // the flag (105-140 µs) overlaps it, the note does not
    const std::string out = dir.path().toStdString() + "/range.json";
    const PerfettoExportResult e = exportPerfettoJson(*r.trace, out, o);
    QVERIFY2(e.ok, e.error.c_str());
    QCOMPARE(e.notes, uint64_t(1));
    int notes = 0, flags = 0;
    for (const QJsonValue& v : eventsOf(out)) {
        notes += v.toObject().value("cat") == QStringLiteral("strata.note");
        flags += v.toObject().value("cat") == QStringLiteral("strata.flag");
    }
    QCOMPARE(notes, 0);
    QCOMPARE(flags, 2);
}

void TestNotesFile::cliExportPicksUpSidecar() {
    QTemporaryDir dir;
    const std::string in = test::writeIn(dir.path().toStdString(), "t.json", kTrace);
    std::string error;
    QVERIFY(writeNotesFile(notesFilePath(in), sampleNotes(), &error));
    const QString out = dir.path() + QStringLiteral("/out.json");
    test::CliRun run =
        test::runCli({QStringLiteral("export"), QStringLiteral("--format"),
                      QStringLiteral("perfetto-json"), QString::fromStdString(in), out});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(run.err.contains(QStringLiteral("2 note(s) and flag(s)")), qPrintable(run.err));
    int notes = 0;
    for (const QJsonValue& v : eventsOf(out.toStdString()))
        notes += v.toObject().value("cat") == QStringLiteral("strata.note");
    QCOMPARE(notes, 1);
    // The protobuf export leaves them out, and says so.
    run = test::runCli({QStringLiteral("export"), QStringLiteral("--format"),
                        QStringLiteral("perfetto-proto"), QString::fromStdString(in),
                        dir.path() + QStringLiteral("/out.pftrace")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(run.err.contains(QStringLiteral(".strata-notes.json are not written")),
             qPrintable(run.err));
    // A bad sidecar: a warning naming it, the export made without notes.
    QVERIFY(test::writeAll(notesFilePath(in), "{\"format\": \"other\"}"));
    run = test::runCli({QStringLiteral("export"), QStringLiteral("--format"),
                        QStringLiteral("perfetto-json"), QString::fromStdString(in), out});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(run.err.contains(QStringLiteral("warning: ")) &&
                 run.err.contains(QString::fromStdString(notesFilePath(in))) &&
                 run.err.contains(QStringLiteral("not a Strata notes file")),
             qPrintable(run.err));
    notes = 0;
    for (const QJsonValue& v : eventsOf(out.toStdString()))
        notes += v.toObject().value("cat") == QStringLiteral("strata.note");
    QCOMPARE(notes, 0);
}

STRATA_TEST_GUILESS_MAIN(TestNotesFile)
#include "tst_notes_file.moc"
