// A broken event never costs the whole file (issue 14): each kind of damage in the middle of a
// Kineto-shaped trace, with every good event before and after it loaded (exact counts) and the
// warning naming the reason and the byte where it was. Fixtures are built here; offsets are
// found in the fixture's own text.
#include "io/json/chrome_json_reader.h"
#include "support/test_files.h"
#include "support/test_main.h"

#include <QtTest>

#include <random>
#include <set>
#include <string>

using namespace strata;

namespace {

std::string jsonEvent(int i) {
    return "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k" + std::to_string(i) +
           "\",\"pid\":0,\"tid\":7,\"ts\":" + std::to_string(10 * i) +
           ",\"dur\":5,\"args\":{\"device\":0,\"stream\":7,\"correlation\":" + std::to_string(i) +
           "}}";
}

// {"traceEvents":[ e0, e1, <middle>, e2, e3 ]} with one event per line, as Kineto writes.
std::string around(const std::string& middle, int before = 2, int after = 2) {
    std::string s = "{\"traceEvents\":[\n";
    for (int i = 0; i < before; ++i) s += jsonEvent(i) + ",\n";
    s += middle + ",\n";
    for (int i = 0; i < after; ++i) s += jsonEvent(before + i) + (i + 1 < after ? ",\n" : "\n");
    return s + "]}\n";
}

std::string warnings(const LoadResult& r) {
    std::string all;
    for (const auto& w : r.trace->warnings()) all += w + "\n";
    return all;
}

bool has(const LoadResult& r, const std::string& text) {
    return warnings(r).find(text) != std::string::npos;
}

using strata::test::gzip;

} // namespace

class TestJsonDamage : public QObject {
    Q_OBJECT
private slots:
    void brokenEventsAreSkipped_data() {
        QTest::addColumn<QString>("middle");
        QTest::addColumn<int>("slices"); // what loads: the four good events (+ the middle's)
        QTest::addColumn<QString>("warning");
        QTest::addColumn<QString>("at"); // the text the first damage's offset points at
        QTest::addColumn<int>("delta");  // how far into that text
        // Binary garbage from a crashed writer between two events.
        QTest::newRow("garbage") << QString("@@\x01\x02 junk ###") << 4
                                 << "broken JSON between events (expected '{' (an event) or ']', "
                                    "found '@')"
                                 << "@@" << 0;
        // Garbage with quotes and brackets (a half-written event, then the writer went on).
        QTest::newRow("half event")
            << QString("{\"ph\":\"X\",\"name\":\"cut\",\"ar") << 4 << "broken JSON in an event"
            << "" << 0;
        // A bracket that closes the wrong thing.
        QTest::newRow("bracket mismatch")
            << QString("{\"ph\":\"X\",\"name\":\"m\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1,"
                       "\"args\":[1,2}}")
            << 4 << "broken JSON in an event (expected ']' to close an array, found '}')"
            << "[1,2}}" << 4;
        // A literal simdjson refuses inside an event whose brackets are fine.
        QTest::newRow("bad literal") << QString("{\"ph\":\"X\",\"ts\":1,\"pid\":tru}") << 4
                                     << "skipped 1 event: malformed JSON event"
                                     << "" << 0;
        // Kept: a raw tab in a name, invalid UTF-8 in a name.
        QTest::newRow("raw tab") << QString("{\"ph\":\"X\",\"name\":\"a\tb\",\"pid\":1,\"tid\":1,"
                                            "\"ts\":1,\"dur\":1}")
                                 << 5 << "raw control characters inside strings, accepted"
                                 << "{\"ph\":\"X\",\"name\":\"a\t" << 0;
        QTest::newRow("bad utf-8") << QString::fromLatin1("{\"ph\":\"X\",\"name\":\"a\xff\xfe"
                                                          "b\",\"pid\":1,\"tid\":1,\"ts\":1,"
                                                          "\"dur\":1}")
                                   << 5 << "invalid UTF-8, replaced by U+FFFD"
                                   << "{\"ph\":\"X\",\"name\":\"a" << 0;
        // Args nested deeper than 64 levels: the args go, the event stays.
        QTest::newRow("deep args")
            << QString("{\"ph\":\"X\",\"name\":\"deep\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1,"
                       "\"args\":{\"x\":") +
                   QString(70, '[') + QString(70, ']') + "}}"
            << 5 << "args nested deeper than 64 levels, dropped (the event kept)"
            << "{\"ph\":\"X\",\"name\":\"deep\"" << 0;
    }
    void brokenEventsAreSkipped() {
        QFETCH(QString, middle);
        QFETCH(int, slices);
        QFETCH(QString, warning);
        QFETCH(QString, at);
        QFETCH(int, delta);
        const std::string text = around(middle.toLatin1().toStdString());
        const LoadResult r = readChromeJsonBuffer(text, "damaged.json");
        QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
        QCOMPARE(int(r.trace->sliceCount()), slices);
        QVERIFY2(has(r, warning.toStdString()), warnings(r).c_str());
        if (!at.isEmpty()) {
            const size_t offset = text.find(at.toLatin1().toStdString()) + size_t(delta);
            QVERIFY2(has(r, "first at byte " + std::to_string(offset) + ", line 4"),
                     warnings(r).c_str());
        }
    }

    void missingComma() {
        // Two events with no ',' between them: both load; the damage is where the comma was.
        const std::string text = "[" + jsonEvent(0) + " " + jsonEvent(1) + "]";
        const LoadResult r = readChromeJsonBuffer(text, "comma.json");
        QVERIFY(r.ok());
        QCOMPARE(r.trace->sliceCount(), size_t(2));
        QVERIFY2(has(r, "expected ',' or ']' after an event, found '{'): 1 place (first at byte " +
                            std::to_string(jsonEvent(0).size() + 2)),
                 warnings(r).c_str());
    }

    void eventLargerThanTheLimit() {
        // 65 MiB of args: the event is kept with its args dropped, the next one loads too.
        std::string big = "{\"ph\":\"X\",\"name\":\"huge\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1,"
                          "\"args\":{\"blob\":\"";
        big.append(size_t(65) << 20, 'x');
        big += "\"}}";
        const LoadResult r = readChromeJsonBuffer(around(big), "big.json");
        QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
        QCOMPARE(r.trace->sliceCount(), size_t(5));
        QVERIFY2(has(r, "larger than 64 MiB: its args dropped (the event kept)"),
                 warnings(r).c_str());
        bool found = false;
        for (const Track& t : r.trace->tracks())
            for (SliceIndex i = 0; i < t.slices.size(); ++i)
                found |= r.trace->str(t.slices.name[i]) == "huge" && t.slices.args[i] == kNoArgs;
        QVERIFY(found);
    }

    void randomBytesAfterAValidStart() {
        std::string text = "{\"traceEvents\":[\n" + jsonEvent(0) + ",\n" + jsonEvent(1) + ",\n";
        const size_t garbageAt = text.size();
        std::mt19937 rng(3);
        for (int i = 0; i < 200000; ++i) text += char(rng() & 0xff);
        const LoadResult r = readChromeJsonBuffer(text, "random.json");
        QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
        QVERIFY(r.trace->sliceCount() >= 2); // the two events (and whatever parses in the noise)
        QVERIFY2(has(r, "first at byte " + std::to_string(garbageAt)), warnings(r).c_str());
    }

    void manyBrokenEventsInARowFail() {
        // 1001 malformed events after one good one: not a trace worth showing.
        std::string text = "[" + jsonEvent(0);
        for (int i = 0; i < 1001; ++i) text += ",\n{\"ph\":\"X\",\"ts\":1,\"pid\":tru}";
        text += "]";
        const LoadResult r = readChromeJsonBuffer(text, "bad.json");
        QVERIFY(!r.ok());
        QVERIFY2(r.error->message.find("malformed ones in a row from here") != std::string::npos,
                 r.error->message.c_str());
        QCOMPARE(r.error->line, uint64_t(2)); // where the run started
    }

    void largeTopLevelValuesAreReadPast() {
        // Catapult-style keys Strata does not use (systemTraceEvents as an object, stackFrames,
        // samples; 1-2 MB each) are read past, not kept, and named in the metadata; small
        // values and deviceProperties are kept.
        std::string big = "{\"events\":[";
        for (int i = 0; i < 20000; ++i)
            big += std::string(i ? "," : "") + "{\"pid\":1,\"ts\":" + std::to_string(i) + "}";
        big += "]}";
        std::string frames = "{";
        for (int i = 0; i < 30000; ++i)
            frames += std::string(i ? "," : "") + "\"" + std::to_string(i) + "\":{\"name\":\"f\"}";
        frames += "}";
        const std::string text =
            "{\"schemaVersion\": 1, \"systemTraceEvents\": " + big +
            ", \"deviceProperties\": [{\"id\": 0, \"name\": \"GPU\", \"numSms\": 132}], "
            "\"stackFrames\": " +
            frames + ", \"traceEvents\": [" + jsonEvent(0) + "," + jsonEvent(1) + "]}";
        const LoadResult r = readChromeJsonBuffer(text, "catapult.json");
        QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
        QCOMPARE(r.trace->sliceCount(), size_t(2));
        QVERIFY(r.trace->warnings().empty());
        const auto& meta = r.trace->metadata();
        QCOMPARE(meta.at("schemaVersion"), std::string("1"));
        QCOMPARE(meta.at("strata: top-level values not read"),
                 "systemTraceEvents (" + std::to_string(big.size()) + " bytes), stackFrames (" +
                     std::to_string(frames.size()) + " bytes)");
        QVERIFY(!meta.count("systemTraceEvents"));
        QCOMPARE(r.trace->devices().size(), size_t(1));
        QCOMPARE(r.trace->devices()[0].smCount, 132);
    }

    void topLevelValuesBeyondWhatJsonLibrariesHold() {
        // A lone surrogate, a number past the double range and a counter integer past 64 bits:
        // inside an event each was tolerated; at the top level they rejected the whole trace.
        // Now the value is kept repaired (U+FFFD, the number as text) and a warning names the key
        // and where it is; the counter reads as the double it is.
        const std::string text =
            "{\"otherData\": {\"host\": \"a\\ud800b\", \"x\": 1e400, \"ok\": \"\\ud83d\\ude00\"},\n"
            "\"traceEvents\": [" +
            jsonEvent(0) + ",\n" +
            "{\"ph\":\"C\",\"name\":\"mem\",\"pid\":1,\"ts\":5,\"args\":{\"bytes\":"
            "100000000000000000000}}]}";
        const LoadResult r = readChromeJsonBuffer(text, "other.json");
        QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
        QCOMPARE(r.trace->sliceCount(), size_t(1));
        // The emoji (a proper surrogate pair) is kept; the lone one replaced.
        QCOMPARE(r.trace->metadata().at("otherData"),
                 std::string("{\"host\":\"a\xEF\xBF\xBD"
                             "b\",\"ok\":\"\xF0\x9F\x98\x80\",\"x\":\"1e400\"}"));
        QVERIFY2(has(r, "top-level key \"otherData\" (at byte 14, line 1): 1 lone UTF-16 "
                        "surrogate(s) replaced by U+FFFD, 1 number(s) past the double range kept "
                        "as text"),
                 warnings(r).c_str());
        double counter = 0;
        for (const Track& t : r.trace->tracks())
            if (t.counter.size() == 1) counter = t.counter.value[0];
        QCOMPARE(counter, 1e20);
        // What is not JSON by its grammar stays an error (tst_chrome_json_reader: "tru").
    }

    void damagedGzipKeepsWhatCameBefore() {
        std::string json = "{\"traceEvents\":[\n";
        for (int i = 0; i < 20000; ++i) json += jsonEvent(i) + (i + 1 < 20000 ? ",\n" : "\n");
        json += "]}";
        std::string gz = gzip(json);
        const size_t damageAt = gz.size() / 2;
        for (size_t i = damageAt; i < damageAt + 64; ++i) gz[i] = char(gz[i] ^ 0x5a);
        const LoadResult r = readChromeJsonBuffer(gz, "damaged.json.gz");
        QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
        // Every event before the damage loaded (zlib may decode garbage for a while before it
        // sees the damage: what parses of it is kept, what does not is counted).
        QVERIFY2(has(r, "gzip stream damaged at compressed byte "), warnings(r).c_str());
        std::set<std::string> names;
        for (const Track& t : r.trace->tracks())
            for (SliceIndex i = 0; i < t.slices.size(); ++i)
                names.insert(std::string(r.trace->str(t.slices.name[i])));
        for (int i = 0; i < 5000; ++i) QVERIFY(names.count("k" + std::to_string(i)));
    }

    void bytesAfterTheEndAreIgnored() {
        // A second write appended after the trace's closing brace (issue 44): the trace loads,
        // the 22 bytes after it are counted and where they start is said. Nothing before them to
        // keep ("[]\n\nx") stays an error (tst_chrome_json_reader).
        const std::string trace = around(jsonEvent(9));
        const std::string text = trace + "{\"traceEvents\":[]}\nxyz";
        const LoadResult r = readChromeJsonBuffer(text, "appended.json");
        QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
        QCOMPARE(r.trace->sliceCount(), size_t(5));
        QVERIFY2(has(r, "appended.json: 22 bytes after the end of the JSON (from byte " +
                            std::to_string(trace.size()) +
                            ", line 8: '{') were ignored; the trace before them loaded"),
                 warnings(r).c_str());
        // The array form, a stray '}' after it.
        const std::string array = "[" + jsonEvent(0) + "]";
        const LoadResult a = readChromeJsonBuffer(array + "}", "array.json");
        QVERIFY2(a.ok(), a.error ? a.error->toString().c_str() : "");
        QCOMPARE(a.trace->sliceCount(), size_t(1));
        QVERIFY2(has(a, "array.json: 1 bytes after the end of the JSON (from byte " +
                            std::to_string(array.size()) + ", line 1: '}')"),
                 warnings(a).c_str());
    }

    void gzipDamageFoundAtItsEndKeepsWhatCameBefore() {
        // zlib sees most damage only at the trailer's checksum, after the garbage it decoded
        // broke the JSON more than 1000 times in a row. Made exact here: 100 good events, 1100
        // broken ones (as garbage reads), the trailer's CRC-32 flipped. The 100 load; the warning
        // names the file, the damage and the byte where reading stopped (line 102).
        std::string json = "{\"traceEvents\":[\n";
        for (int i = 0; i < 100; ++i) json += jsonEvent(i) + ",\n";
        const std::string broken = "{\"ph\":\"X\",\"ts\":1,\"pid\":tru}";
        const size_t brokeAt = json.size() + broken.find("tru"); // the first bad literal
        for (int i = 0; i < 1100; ++i) json += broken + ",\n";
        json += jsonEvent(100) + "\n]}";
        std::string gz = gzip(json);
        gz[gz.size() - 8] = char(gz[gz.size() - 8] ^ 0x01); // the trailer's CRC-32
        const LoadResult r = readChromeJsonBuffer(gz, "crc.json.gz");
        QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
        QCOMPARE(r.trace->sliceCount(), size_t(100));
        QVERIFY2(has(r, "crc.json.gz: gzip stream damaged at compressed byte "),
                 warnings(r).c_str());
        QVERIFY2(has(r, "(zlib: incorrect data check); reading stopped at byte " +
                            std::to_string(brokeAt) +
                            " (line 102) of the decompressed JSON, where the damage broke it ("),
                 warnings(r).c_str());
        QVERIFY2(has(r, "): loaded the 100 events before it"), warnings(r).c_str());
        // Intact, the same JSON is broken by itself: still an error.
        const LoadResult intact = readChromeJsonBuffer(gzip(json), "intact.json.gz");
        QVERIFY(!intact.ok());
        QVERIFY2(intact.error->message.find("malformed ones in a row") != std::string::npos,
                 intact.error->message.c_str());
    }

    void oneFlippedByteKeepsWhatCameBefore() {
        // One byte flipped anywhere in the middle of a gzip stream (25 % to 71 % of it, 24
        // places): the trace loads, every event before the damage with it (the first 1000 of
        // 20000 lie in its first 5 %).
        std::string json = "{\"traceEvents\":[\n";
        for (int i = 0; i < 20000; ++i) json += jsonEvent(i) + (i + 1 < 20000 ? ",\n" : "\n");
        json += "]}";
        const std::string gz = gzip(json);
        for (int k = 0; k < 24; ++k) {
            std::string bad = gz;
            const size_t at = bad.size() * size_t(25 + 2 * k) / 100;
            bad[at] = char(bad[at] ^ (1 << (k % 8)));
            const LoadResult r = readChromeJsonBuffer(bad, "flipped.json.gz");
            QVERIFY2(r.ok(),
                     (std::to_string(at) + ": " + (r.error ? r.error->toString() : std::string()))
                         .c_str());
            std::set<std::string> names;
            for (const Track& t : r.trace->tracks())
                for (SliceIndex i = 0; i < t.slices.size(); ++i)
                    names.insert(std::string(r.trace->str(t.slices.name[i])));
            for (int i = 0; i < 1000; ++i) QVERIFY(names.count("k" + std::to_string(i)));
        }
    }
};

STRATA_TEST_GUILESS_MAIN(TestJsonDamage)
#include "tst_json_damage.moc"
