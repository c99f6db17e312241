// The Chrome/Kineto JSON reader on what is wrong: truncated objects, arrays and gzip streams, a
// corrupt gzip stream, malformed files (each error naming where), cancelling, a missing file.
// Expected values by hand from the fixture text (tests/data/json/).
#include "io/trace_loader.h"
#include "json_reader_fixture.h"
#include "support/test_main.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <string>

using namespace strata;
using namespace strata::test;

class TestChromeJsonErrors : public QObject {
    Q_OBJECT

private slots:
    void truncatedObject();
    void truncatedArray();
    void truncatedGzip();
    void corruptGzip();
    void errors_data();
    void errors();
    void errorLineInsideEvent();
    void cancel();
    void fileNotFound();
};

void TestChromeJsonErrors::truncatedObject() {
    const std::string path = dataPath("truncated_object.json");
    const std::string text = readAll(path);
    const LoadResult r = loadTrace(path);
    QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
    // 1305 bytes, 25 lines; kernel, python_function, cpu_op, cuda_runtime, s, f are complete.
    QCOMPARE(text.size(), size_t(1305));
    QVERIFY(hasWarning(*r.trace, "truncated at byte 1305 (line 25): loaded 6 events"));
    QCOMPARE(r.trace->sliceCount(), size_t(4));
    QCOMPARE(r.trace->flows().size(), size_t(1));
}

void TestChromeJsonErrors::truncatedArray() {
    const LoadResult r = loadTrace(dataPath("truncated_array.json"));
    QVERIFY(r.ok());
    QVERIFY(hasWarning(*r.trace, "truncated at byte 188 (line 4): loaded 2 events"));
    QCOMPARE(r.trace->sliceCount(), size_t(2));
}

void TestChromeJsonErrors::truncatedGzip() {
    // A gzip stream cut short (writer killed): complete events load, the warning says so.
    std::string events = "[";
    for (int i = 0; i < 2000; ++i)
        events += (i ? ",\n" : "\n") + std::string("{\"ph\":\"X\",\"name\":\"e") +
                  std::to_string(i) + "\",\"pid\":1,\"tid\":1,\"ts\":" + std::to_string(i * 10) +
                  ",\"dur\":5}";
    events += "]";
    std::string gz = gzip(events);
    gz.resize(gz.size() / 2);
    const LoadResult r = readChromeJsonBuffer(gz, "cut.json.gz");
    QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
    QVERIFY(r.trace->sliceCount() > 0 && r.trace->sliceCount() < 2000);
    QVERIFY(hasWarning(*r.trace, "truncated at byte"));
    QVERIFY(hasWarning(*r.trace, "gzip stream ends early"));
    QVERIFY(hasWarning(*r.trace, "loaded " + std::to_string(r.trace->sliceCount()) + " events"));
}

void TestChromeJsonErrors::corruptGzip() {
    // Damaged before any event: nothing to keep, so an error that says where (a gzip stream
    // damaged after events keeps them: tst_json_damage).
    std::string gz = gzip(readAll(dataPath("kineto_small.json")));
    for (size_t i = 20; i < 60; ++i) gz[i] = char(gz[i] ^ 0x5a);
    const LoadResult r = readChromeJsonBuffer(gz, "bad.json.gz");
    QVERIFY(!r.ok());
    QVERIFY2(r.error->message.find("gzip stream damaged at compressed byte") != std::string::npos,
             r.error->message.c_str());
    QCOMPARE(r.error->file, std::string("bad.json.gz"));
}

void TestChromeJsonErrors::errors_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<qulonglong>("offset");
    QTest::addColumn<qulonglong>("line");
    QTest::addColumn<QString>("expected");
    QTest::newRow("empty") << "" << 0ull << 1ull << "found an empty file";
    QTest::newRow("not json") << "hello" << 0ull << 1ull << "expected '{' or '['";
    QTest::newRow("garbage after") << "[]\n\nx" << 4ull << 3ull << "expected the end of the file";
    QTest::newRow("no traceEvents") << "{\"a\": 1}" << 8ull << 1ull << "\"traceEvents\"";
    QTest::newRow("traceEvents not array")
        << "{\"traceEvents\": 5}" << 16ull << 1ull << "expected '[' (the traceEvents array)";
    QTest::newRow("key without colon")
        << "{\"traceEvents\" []}" << 15ull << 1ull << "expected ':' after the key";
    QTest::newRow("bad metadata value") << "{\"x\": tru, \"traceEvents\": []}" << 6ull << 1ull
                                        << "valid JSON value for the top-level key \"x\"";
}

void TestChromeJsonErrors::errors() {
    QFETCH(QString, text);
    QFETCH(qulonglong, offset);
    QFETCH(qulonglong, line);
    QFETCH(QString, expected);
    const LoadResult r = loadText(text.toStdString());
    QVERIFY(!r.ok());
    QVERIFY(r.error);
    QCOMPARE(r.error->file, std::string("inline.json"));
    const std::string msg = r.error->toString();
    QVERIFY2(msg.find(expected.toStdString()) != std::string::npos, msg.c_str());
    QCOMPARE(qulonglong(r.error->byteOffset), offset);
    QCOMPARE(qulonglong(r.error->line), line);
    QVERIFY(msg.find("line " + std::to_string(line)) != std::string::npos);
}

void TestChromeJsonErrors::errorLineInsideEvent() {
    // Line numbers survive batching: the bad event on line 4 is skipped and named there (or on
    // line 5, where its bad token is); the good one loads.
    const std::string text =
        "[\n{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},\n\n"
        "{\"ph\":\"X\",\n\"pid\": nul}\n]";
    const LoadResult r = loadText(text);
    QVERIFY(r.ok());
    QCOMPARE(r.trace->sliceCount(), size_t(1));
    const uint64_t eventStart = text.find("{\"ph\":\"X\",\n");
    bool named = false;
    for (const auto& w : r.trace->warnings())
        for (uint64_t at = eventStart; at < eventStart + 24; ++at)
            named |=
                w.find("malformed JSON event") != std::string::npos &&
                w.find("first at byte " + std::to_string(at) + ", line") != std::string::npos &&
                (w.find("line 4)") != std::string::npos || w.find("line 5)") != std::string::npos);
    QVERIFY(named);
}

void TestChromeJsonErrors::cancel() {
    LoadOptions o;
    int calls = 0;
    o.progress = [&](double f) {
        ++calls;
        return f < 0.0; // cancel at once
    };
    const LoadResult r = readChromeJsonBuffer(readAll(dataPath("kineto_small.json")), "k.json", o);
    QVERIFY(!r.ok());
    QCOMPARE(r.error->message, std::string("cancelled"));
    QVERIFY(calls >= 1);
    const LoadResult f = loadTrace(dataPath("kineto_small.json"), o);
    QVERIFY(!f.ok());
    QCOMPARE(f.error->message, std::string("cancelled"));
}

void TestChromeJsonErrors::fileNotFound() {
    const LoadResult r = readChromeJson("/nonexistent/strata.json", {});
    QVERIFY(!r.ok());
    QVERIFY(r.error->message.find("cannot open") != std::string::npos);
}

STRATA_TEST_GUILESS_MAIN(TestChromeJsonErrors)
#include "tst_chrome_json_errors.moc"
