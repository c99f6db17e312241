// rocprofv3's JSON output (io/formats/amd/rocprofv3_json.h). No real rocprofv3 JSON is at hand:
// tests/data/formats/write_rocprofv3_json.py writes one in the shape rocprofiler-sdk's writer
// gives it (the current tools' and, --legacy, the older ones'), and expected_rocprofv3_json.py
// works out from it with Python's json module alone what Strata must show (kernels and their time
// per device, lanes, copies and bytes, API calls per category, roctx ranges and marks, the launch
// of each kernel, the skipped and the not-shown records). The file is opened through the registry
// under a name without .json, so only its content can say what it is.
#include "io/trace_loader.h"
#include "io/trace_reader.h"
#include "model/names/cupti_names.h"
#include "support/process_run.h"
#include "support/strata_format_fixture.h"
#include "support/test_files.h"
#include "support/test_main.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <set>

using namespace strata;
using nlohmann::json;

namespace {

const QString kScripts = QStringLiteral(STRATA_TEST_DATA "/formats/");

// What a trace shows, in the expected script's terms.
json shown(const Trace& t) {
    json out = {{"kernels", json::object()},
                {"lanes", json::object()},
                {"copies", {{"count", 0}, {"bytes", 0}, {"kinds", json::object()}}},
                {"calls", json::object()},
                {"marks", 0},
                {"markers", json::array()},
                {"links", json::array()},
                {"devices", json::object()}};
    for (const DeviceInfo& d : t.devices()) out["devices"][std::to_string(d.id)] = d.name;
    std::map<std::string, std::set<int64_t>> lanes;
    for (TrackId id = 0; id < t.tracks().size(); ++id) {
        const Track& tr = t.track(id);
        if (tr.kind == TrackKind::Thread)
            out["marks"] = out["marks"].get<int>() + tr.instants.size();
        for (SliceIndex i = 0; i < tr.slices.size(); ++i) {
            const SliceRef r{id, i};
            const SliceKind k = t.kind(r);
            const std::string name(t.name(r));
            if (k == SliceKind::Kernel) {
                const std::string dev = std::to_string(tr.device);
                json& n = out["kernels"][dev];
                if (n.is_null()) n = {0, 0};
                n[0] = n[0].get<int64_t>() + 1;
                n[1] = n[1].get<int64_t>() + t.duration(r);
                lanes[dev].insert(tr.tid);
                if (const SliceRef l = t.launchOf(r); l.valid())
                    out["links"].push_back({name, t.start(r), std::string(t.name(l)), t.start(l)});
            } else if (k == SliceKind::Memcpy) {
                json& c = out["copies"];
                c["count"] = c["count"].get<int>() + 1;
                c["bytes"] = c["bytes"].get<int64_t>() + t.gpu(r)->bytes;
                const std::string kind(copyKindName(t.gpu(r)->copyKind));
                c["kinds"][kind] = c["kinds"].value(kind, 0) + 1;
            } else if (tr.kind == TrackKind::Thread) {
                const std::string cat(t.str(tr.slices.category[i]));
                out["calls"][cat] = out["calls"].value(cat, 0) + 1;
                if (k == SliceKind::UserAnnotation)
                    out["markers"].push_back({name, t.start(r), t.duration(r)});
            }
        }
    }
    for (const auto& [dev, set] : lanes)
        out["lanes"][dev] = std::vector<int64_t>(set.begin(), set.end());
    std::sort(out["links"].begin(), out["links"].end());
    std::sort(out["markers"].begin(), out["markers"].end());
    return out;
}

std::string records(int64_t n) {
    return std::to_string(n) + (n == 1 ? " record" : " records");
}

} // namespace

class TestRocprofv3Json : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    bool pythonMissing_ = false;
    QString failure_;

    // A test script's output; false when it fails (pythonMissing_: python3 could not be started,
    // else failure_ says why).
    bool python(const QStringList& args, QByteArray* out) {
        const strata::test::ProcessRun run = strata::test::runProcess("python3", args);
        pythonMissing_ = run.exitCode == -1;
        failure_ = QString::fromUtf8(run.err);
        *out = run.out;
        return run.exitCode == 0;
    }
    // The generated file (the script's options: --legacy, --sort-keys) under a name without
    // .json; "" when the script failed.
    std::string generate(const QString& name, const QStringList& options = {}) {
        const QString path = dir_.filePath(name);
        const QStringList args = QStringList{kScripts + "write_rocprofv3_json.py", path} + options;
        QByteArray ignored;
        return python(args, &ignored) ? path.toStdString() : std::string();
    }

private slots:
    void generatedFile_data() {
        QTest::addColumn<QStringList>("options");
        QTest::newRow("rocprofiler-sdk (list of processes, stream ids)") << QStringList();
        QTest::newRow("older tool (a process object, no stream ids)") << QStringList{"--legacy"};
        QTest::newRow("keys sorted: records before the tables that name them")
            << QStringList{"--sort-keys"};
    }
    void generatedFile() {
        QFETCH(QStringList, options);
        const std::string path = generate("results" + options.join(""), options);
        if (path.empty() && pythonMissing_) QSKIP("no python3 to write the rocprofv3 JSON");
        QVERIFY2(!path.empty(), qPrintable(failure_));
        QByteArray text;
        QVERIFY2(
            python({kScripts + "expected_rocprofv3_json.py", QString::fromStdString(path)}, &text),
            qPrintable(failure_));
        const json want = json::parse(text.toStdString());

        std::string why;
        const TraceReader* reader = recogniseFile(path, &why);
        QVERIFY2(reader, why.c_str());
        QCOMPARE(reader->name, std::string_view("rocprofv3-json"));
        const LoadResult r = loadTrace(path);
        QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
        QCOMPARE(r.format, std::string("rocprofv3-json"));
        const Trace& t = *r.trace;
        const json got = shown(t);
        for (const char* key :
             {"devices", "kernels", "lanes", "copies", "calls", "marks", "markers", "links"})
            QVERIFY2(got[key] == want[key],
                     (std::string(key) + ": " + got[key].dump() + ", expected " + want[key].dump())
                         .c_str());
        QVERIFY(want["links"].size() == 5 && want["kernels"].size() == 2);
        for (const auto& [array, n] : want["skipped"].items())
            QVERIFY2(hasWarning(t, records(n.get<int64_t>()) + " of " + array + " skipped"),
                     allWarnings(t).c_str());
        QVERIFY(!want["skipped"].empty());
        for (const auto& [array, n] : want["not_shown"].items())
            QVERIFY2(hasWarning(t, array + " (" + records(n.get<int64_t>()) + ")"),
                     allWarnings(t).c_str());
        const Process* p = t.process(want["process"][0].get<int64_t>());
        QVERIFY(p);
        QCOMPARE(std::string(t.str(p->name)), want["process"][1].get<std::string>());
    }

    // Cut inside the third kernel record: the two before it are kept, and the warning names the
    // file and the byte where it ends.
    void truncatedFileKeepsTheRecordsBefore() {
        const std::string path = generate("whole");
        if (path.empty() && pythonMissing_) QSKIP("no python3 to write the rocprofv3 JSON");
        QVERIFY2(!path.empty(), qPrintable(failure_));
        const std::string bytes = strata::test::readAll(path);
        size_t cut = 0;
        for (int k = 0; k < 3; ++k) cut = bytes.find("\"dispatch_info\"", cut + 1);
        QVERIFY(cut != std::string::npos);
        const std::string cutPath =
            strata::test::writeIn(dir_.path().toStdString(), "cut", bytes.substr(0, cut));
        const LoadResult r = loadTrace(cutPath);
        QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
        QCOMPARE(r.format, std::string("rocprofv3-json"));
        int kernels = 0;
        for (const Track& tr : r.trace->tracks())
            for (SliceIndex i = 0; i < tr.slices.size(); ++i)
                kernels += tr.slices.kind[i] == SliceKind::Kernel;
        QCOMPARE(kernels, 2);
        QVERIFY2(hasWarning(*r.trace, cutPath + ": the JSON breaks at byte " + std::to_string(cut)),
                 allWarnings(*r.trace).c_str());
        QVERIFY(hasWarning(*r.trace, "loaded the 2 records before it"));
    }

    // Cut before any record: an error naming the file and the byte.
    void truncatedBeforeAnyRecordIsAnError() {
        const std::string path = generate("early");
        if (path.empty() && pythonMissing_) QSKIP("no python3 to write the rocprofv3 JSON");
        QVERIFY2(!path.empty(), qPrintable(failure_));
        const std::string bytes = strata::test::readAll(path);
        const size_t cut = bytes.find("\"agents\"");
        const std::string cutPath =
            strata::test::writeIn(dir_.path().toStdString(), "early_cut", bytes.substr(0, cut));
        const LoadResult r = loadTrace(cutPath);
        QVERIFY(!r.ok());
        QVERIFY(r.error);
        QCOMPARE(r.error->file, cutPath);
        QCOMPARE(r.error->byteOffset, uint64_t(cut));
        QVERIFY2(r.error->message.find("no record before the break") != std::string::npos,
                 r.error->message.c_str());
    }

    // JSON that is not rocprofv3's goes to the Chrome reader; so does a file whose first key is
    // another.
    void otherJsonGoesToTheChromeReader_data() {
        QTest::addColumn<QString>("text");
        QTest::newRow("Kineto") << R"({"traceEvents": [{"ph": "X", "name": "k", "cat": "kernel",
            "pid": 0, "tid": 7, "ts": 1, "dur": 2, "args": {"device": 0, "stream": 7}}]})";
        QTest::newRow("another first key")
            << R"({"traceEvents": [], "rocprofiler-sdk-tool": [{"metadata": {"pid": 1}}]})";
        QTest::newRow("a longer key") << R"({"rocprofiler-sdk-tool-x": 1, "traceEvents": []})";
    }
    void otherJsonGoesToTheChromeReader() {
        QFETCH(QString, text);
        const std::string path =
            strata::test::writeIn(dir_.path().toStdString(), "other", text.toStdString());
        const TraceReader* reader = recogniseFile(path);
        QVERIFY(reader);
        QCOMPARE(reader->name, std::string_view("chrome-json"));
        QCOMPARE(loadTrace(path).format, std::string("chrome-json"));
    }

    // The recogniser reads the first key only, after white space and a byte-order mark.
    void recognisedByItsFirstKey() {
        QCOMPARE(recogniseBytes("\xEF\xBB\xBF \n{\n \"rocprofiler-sdk-tool\": [", "x.bin")->name,
                 std::string_view("rocprofv3-json"));
        QCOMPARE(recogniseBytes("{\"rocprofiler-sdk-tool\"", "results.json")->name,
                 std::string_view("rocprofv3-json"));
        QCOMPARE(recogniseBytes("[{\"rocprofiler-sdk-tool\": 1}]", "results.json")->name,
                 std::string_view("chrome-json"));
    }
};

STRATA_TEST_GUILESS_MAIN(TestRocprofv3Json)
#include "tst_rocprofv3_json.moc"
