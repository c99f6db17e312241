// One input path (core/io/trace_reader.h): every format is recognised by its content, whatever
// the file is called; loadTrace says which reader read it; a sections file loads as a trace of
// its own and attaches to another (Trace::withSectionsOf). Expectations by hand.
#include "io/sections/sections_import.h"
#include "io/strata/strata_trace_writer.h"
#include "io/trace_loader.h"
#include "io/trace_reader.h"
#include "model/build/trace_builder.h"
#include "support/test_files.h"
#include "support/test_main.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <set>

using namespace strata;

namespace {

// A .npy version 1 file of int64 values, shape (rows, cols), C order.
std::string npyInt64(int rows, int cols, std::initializer_list<int64_t> values) {
    return strata::test::npy("<i8", false,
                             "(" + std::to_string(rows) + ", " + std::to_string(cols) + ")",
                             strata::test::bytesOf<int64_t>(values));
}

using strata::test::gzip;

const char* kChrome =
    R"({"traceEvents": [{"ph": "X", "name": "step", "pid": 1, "tid": 1, "ts": 10, "dur": 5}]})";

} // namespace

class TestTraceReaders : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    std::string write(const QString& name, const std::string& bytes) {
        return strata::test::writeIn(dir_.path().toStdString(), name.toStdString(), bytes);
    }

private slots:
    void recognisedByContent_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("format");
        auto add = [](const char* tag, const char* name, const std::string& b, const char* f) {
            QTest::newRow(tag) << name << QByteArray(b.data(), qsizetype(b.size())) << f;
        };
        // Each under a name that says nothing (or the wrong thing): the content decides.
        add("chrome json", "trace.dat", kChrome, "chrome-json");
        add("chrome json, bare array", "a.txt", R"([{"ph": "i", "name": "x", "ts": 1}])",
            "chrome-json");
        add("gzip'd chrome json", "trace.bin", gzip(kChrome), "chrome-json-gzip");
        add("npy named .json", "times.json", npyInt64(1, 2, {1, 2}), "npy");
        add("timer json named .txt", "times.txt", R"({"sections": ["a"], "times": [[1, 2]]})",
            "timer-json");
        add("timer json, times first", "t.json", R"( {"times": [[1]], "sections": ["a"]})",
            "timer-json");
        add("csv without its name", "times.dat", "load,compute\n100,200\n", "csv");
        add("csv by its name", "one.csv", "load\n100\n", "csv");
    }
    void recognisedByContent() {
        QFETCH(QString, name);
        QFETCH(QByteArray, bytes);
        QFETCH(QString, format);
        const std::string p = write(name, bytes.toStdString());
        const TraceReader* r = recogniseFile(p);
        QVERIFY(r);
        // The reader's name, or the gzip'd form of Chrome JSON's.
        QVERIFY2(format.startsWith(QString::fromUtf8(r->name.data(), qsizetype(r->name.size()))),
                 r->name.data());
        const LoadResult loaded = loadTrace(p);
        QVERIFY2(loaded.ok(), loaded.error ? loaded.error->toString().c_str() : "");
        QCOMPARE(QString::fromStdString(loaded.format), format);
    }

    void strataRecordingByContent() {
        // A .strata recording named .json is still read as one.
        const std::string p = dir_.filePath("rec.json").toStdString();
        StrataTraceWriter w;
        std::string error;
        QVERIFY2(w.open(p, &error), error.c_str());
        QVERIFY(w.close());
        const LoadResult r = loadTrace(p);
        QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
        QCOMPARE(r.format, std::string("strata"));
    }

    void sectionsAloneAndAttached() {
        // times = [[10, 20], [1, 2]] as a trace of its own: one set, no slices.
        const std::string p = write("t.npy", npyInt64(2, 2, {10, 20, 1, 2}));
        LoadOptions o;
        o.sectionNames = {"load", "store"};
        const LoadResult r = loadTrace(p, o);
        QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
        QCOMPARE(r.trace->sliceCount(), size_t(0));
        QCOMPARE(r.trace->sections().size(), size_t(1));
        QCOMPARE(r.trace->sections()[0].names, (std::vector<std::string>{"load", "store"}));
        QCOMPARE(r.trace->sections()[0].samples.size(), size_t(4));
        // Attached to a trace with one slice: that slice and the set, a warning kept.
        TraceBuilder b;
        b.addWarning("from the trace");
        const TrackId th = b.threadTrack(1, 1);
        SliceInput s;
        s.start = 100;
        s.dur = 50;
        s.name = b.intern("step");
        b.addSlice(th, s);
        const auto base = b.build();
        const auto both = base->withSectionsOf(*r.trace);
        QCOMPARE(both->sliceCount(), size_t(1));
        QCOMPARE(both->name({0, 0}), std::string_view("step"));
        QCOMPARE(both->sections().size(), size_t(1));
        QCOMPARE(both->sections()[0].samples.size(), size_t(4));
        QCOMPARE(both->warnings().front(), std::string("from the trace"));
        QCOMPARE(base->sections().size(), size_t(0)); // the original is unchanged
    }

    void notSectionsSaysWhat() {
        // importSections on a trace: an error naming the file and what it is.
        const std::string p = write("k.json", kChrome);
        const SectionsImport r = importSections(p);
        QVERIFY(!r.ok());
        QVERIFY2(QString::fromStdString(r.error).startsWith(QString::fromStdString(p)),
                 r.error.c_str());
        QVERIFY2(QString::fromStdString(r.error).contains("Chrome / Kineto trace JSON"),
                 r.error.c_str());
    }

    void unreadableFileSaysWhy() {
        const LoadResult r = loadTrace(dir_.filePath("missing.json").toStdString());
        QVERIFY(!r.ok());
        QVERIFY(r.error->message.find("cannot open") != std::string::npos);
    }

    void extensionsForDialogs() {
        // Every reader names what a dialog offers, and no two readers share a name.
        std::set<std::string_view> names;
        for (const TraceReader* r : traceReaders()) {
            QVERIFY(!r->extensions.empty());
            QVERIFY(names.insert(r->name).second);
        }
        QCOMPARE(lowerExtension("/a/b/Trace.PT.TRACE.JSON.GZ"), std::string(".json.gz"));
        QCOMPARE(lowerExtension("/a.b/noext"), std::string());
        QCOMPARE(lowerExtension("x.npy"), std::string(".npy"));
    }
};

STRATA_TEST_GUILESS_MAIN(TestTraceReaders)
#include "tst_trace_readers.moc"
