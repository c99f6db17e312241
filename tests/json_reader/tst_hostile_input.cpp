// Hostile and extreme input to the loaders (issue 20): a 256 KiB first string, times at the edge
// of int64 nanoseconds, numbers out of double range in args, bytes after the gzip data. Each
// fixture is generated here; the expected counts are worked out in the comments.
#include "analysis/trace_summary.h"
#include "io/json/chrome_json_reader.h"
#include "model/build/trace_builder.h"
#include "model/time.h"
#include "support/test_files.h"
#include "support/test_main.h"
#include "util/terminal_text.h"

#include <QtTest>

#include <string>

using namespace strata;

namespace {

std::string kernel(const std::string& name, const std::string& ts, const std::string& dur, int corr,
                   const std::string& extraArgs = "") {
    return "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" + name +
           "\",\"pid\":0,\"tid\":7,\"ts\":" + ts + ",\"dur\":" + dur +
           ",\"args\":{\"device\":0,\"stream\":7,\"correlation\":" + std::to_string(corr) +
           extraArgs + "}}";
}

std::string trace(const std::vector<std::string>& events) {
    std::string s = "{\"traceEvents\":[";
    for (size_t i = 0; i < events.size(); ++i) s += (i ? "," : "") + events[i];
    return s + "]}";
}

using strata::test::gzip;

size_t kernels(const Trace& t) {
    size_t n = 0;
    for (const Track& tr : t.tracks())
        for (SliceKind k : tr.slices.kind) n += k == SliceKind::Kernel;
    return n;
}

QString warnings(const Trace& t) {
    QStringList all;
    for (const auto& w : t.warnings()) all << QString::fromStdString(w);
    return all.join('\n');
}

} // namespace

class TestHostileInput : public QObject {
    Q_OBJECT
private slots:
    void longFirstName() {
        // The first string is a 262,144-character kernel name; a short one follows and must not
        // be written into (and move) the long one's block.
        const std::string longName(262144, 'k');
        const LoadResult r = readChromeJsonBuffer(
            trace({kernel(longName, "10", "5", 1), kernel("small", "20", "5", 2)}), "long.json");
        QVERIFY(r.ok());
        QCOMPARE(kernels(*r.trace), size_t(2));
        const Track* gpu = nullptr;
        for (const Track& t : r.trace->tracks())
            if (t.kind == TrackKind::GpuStream) gpu = &t;
        QVERIFY(gpu);
        QCOMPARE(r.trace->str(gpu->slices.name[0]), std::string_view(longName));
        QCOMPARE(r.trace->str(gpu->slices.name[1]), std::string_view("small"));
    }

    void extremeTimesAreSkippedAndCounted() {
        // 2^62 ns = 4,611,686,018,427.387904 s = 4.611686018427387904e15 us.
        // Skipped for "ts" out of range: b (ts 9.2e15 us), d (ts -9.2e15 us), the instant
        // (ts 9.2e15) and the counter (ts -9.2e15): 4. Skipped for their end: c (dur 9.2e15 us)
        // and h (ts 4.6e15 + dur 0.02e15 = 4.62e15 us > 2^62 ns): 2.
        // Kept: a, e, f (ends 4.601e15 us), g (ts 100 us, dur 4.6e15 us): 4 kernels.
        const LoadResult r = readChromeJsonBuffer(
            trace({kernel("a", "10", "5", 1), kernel("b", "9.2e15", "1", 2),
                   kernel("c", "1", "9.2e15", 3), kernel("d", "-9.2e15", "5", 4),
                   kernel("e", "20", "5", 5), kernel("f", "4.6e15", "1e12", 6),
                   kernel("g", "100", "4.6e15", 7), kernel("h", "4.6e15", "2e13", 8),
                   "{\"ph\":\"i\",\"name\":\"x\",\"pid\":1,\"tid\":1,\"ts\":9.2e15,\"s\":\"t\"}",
                   "{\"ph\":\"C\",\"name\":\"m\",\"pid\":1,\"ts\":-9.2e15,\"args\":{\"v\":1}}"}),
            "extreme.json");
        QVERIFY(r.ok());
        QCOMPARE(kernels(*r.trace), size_t(4));
        QCOMPARE(r.trace->instantCount(), size_t(0));
        QCOMPARE(r.trace->counterSampleCount(), size_t(0));
        const QString w = warnings(*r.trace);
        QVERIFY2(w.contains("skipped 4 events: event whose \"ts\" is out of range"), qPrintable(w));
        QVERIFY2(w.contains("skipped 2 events: 'X' event that ends out of range"), qPrintable(w));
        // Every analysis runs on what is left (UBSan checks the arithmetic in sanitizer builds).
        const TraceSummary s = summarizeTrace(*r.trace, SummaryOptions{});
        QCOMPARE(s.kernels.kernels, uint64_t(4));
    }

    void totalsSaturate() {
        // Three kernels of 4.6e18 ns each on three streams of one device, a fourth at -4.6e18:
        // the kernel time (1.38e19 ns) is past int64 and held at its limit; the device's busy
        // time is its union, [-4.6e18, -4.6e18 + 1 us) and [0, 4.6e18): exact.
        const LoadResult r = readChromeJsonBuffer(
            trace({kernel("a", "0", "4.6e15", 7), kernel("a", "0", "4.6e15", 8),
                   kernel("a", "0", "4.6e15", 9), kernel("b", "-4.6e15", "1", 10)}),
            "huge.json");
        QVERIFY(r.ok());
        SummaryOptions o;
        const TraceSummary s = summarizeTrace(*r.trace, o);
        QCOMPARE(s.kernels.kernels, uint64_t(4));
        QCOMPARE(s.kernels.kernelTime, TimeNs(INT64_MAX));
        QCOMPARE(s.kernels.busyTime, TimeNs(4'600'000'000'000'001'000));
        o.range = TimeRange{-kMaxTimeNs, kMaxTimeNs};
        QCOMPARE(summarizeTrace(*r.trace, o).kernels.kernelTime, TimeNs(INT64_MAX));
    }

    void builderDropsWhatReadersLetThrough() {
        // A reader that does not check (the builder is the last net): the same rule, counted.
        TraceBuilder b;
        const TrackId t = b.threadTrack(1, 1);
        SliceInput s;
        s.start = 0;
        s.dur = 10;
        b.addSlice(t, s);
        s.start = kMaxTimeNs;
        s.dur = 1; // ends past the limit
        b.addSlice(t, s);
        s.start = INT64_MIN;
        s.dur = 0;
        b.addSlice(t, s);
        b.addCounter(b.counterTrack(1, b.intern("c")), INT64_MAX, 1.0);
        const auto trace = b.build();
        QCOMPARE(trace->sliceCount(), size_t(1));
        QCOMPARE(trace->counterSampleCount(), size_t(0));
        QCOMPARE(trace->bounds(), (TimeRange{0, 10}));
        QVERIFY(warnings(*trace).contains("skipped 3 events whose time is out of range"));
    }

    void numbersOutOfRangeKeptAsText() {
        // 1e400 (past double), a 30-digit integer (past 64 bits) and 1e400 as a pid: the event
        // is kept, the value is its text.
        const LoadResult r = readChromeJsonBuffer(
            trace({kernel("a", "10", "5", 1,
                          ",\"big\":1e400,\"huge\":123456789012345678901234567890"),
                   kernel("b", "20", "5", 2),
                   "{\"ph\":\"X\",\"name\":\"cpu\",\"pid\":1e400,\"tid\":1,\"ts\":1,\"dur\":1,"
                   "\"unknown\":-1e999}"}),
            "big.json");
        QVERIFY(r.ok());
        QCOMPARE(kernels(*r.trace), size_t(2));
        QCOMPARE(r.trace->sliceCount(), size_t(3));
        const QString w = warnings(*r.trace);
        QVERIFY2(w.contains("1 event: kept with an args number out of range"), qPrintable(w));
        const Track* gpu = nullptr;
        for (const Track& t : r.trace->tracks())
            if (t.kind == TrackKind::GpuStream) gpu = &t;
        QVERIFY(gpu);
        int found = 0;
        for (const Arg& a : r.trace->args(gpu->slices.args[0])) {
            if (r.trace->str(a.key) == "big") {
                QCOMPARE(a.value.type, ArgValue::Type::Json);
                QCOMPARE(a.value.s, std::string("1e400"));
                ++found;
            }
            if (r.trace->str(a.key) == "huge") {
                QCOMPARE(a.value.s, std::string("123456789012345678901234567890"));
                ++found;
            }
        }
        QCOMPARE(found, 2);
    }

    void bytesAfterTheGzipData() {
        const std::string json = trace({kernel("a", "10", "5", 1), kernel("b", "20", "5", 2)});
        const LoadResult r =
            readChromeJsonBuffer(gzip(json) + std::string("garbage\0\0\0\0tail", 15), "tail.gz");
        QVERIFY(r.ok());
        QCOMPARE(kernels(*r.trace), size_t(2));
        QVERIFY(
            warnings(*r.trace).contains("15 bytes after the end of the gzip data were ignored"));
    }

    void terminalSafeText() {
        // C0 controls and DEL as \xNN, C1 controls (UTF-8 C2 80..C2 9F) as \uNNNN, bytes that
        // are not UTF-8 (a lone continuation byte, an overlong form, a truncated sequence) as
        // \xNN; printable ASCII and UTF-8 (e, a CJK character, an emoji) unchanged.
        QCOMPARE(terminalSafe("a\x1b[31mb\x07\x7f\n"), std::string("a\\x1b[31mb\\x07\\x7f\\x0a"));
        QCOMPARE(terminalSafe("\xc2\x9b"
                              "2J\xc2\xa0"),
                 std::string("\\u009b2J\xc2\xa0"));
        QCOMPARE(terminalSafe("\x80\xc0\xaf\xe2\x82"), std::string("\\x80\\xc0\\xaf\\xe2\\x82"));
        QCOMPARE(terminalSafe("\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80"),
                 std::string("\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80"));
    }

    void concatenatedGzipMembers() {
        // Three members, then 1000 zero bytes of padding.
        const LoadResult r = readChromeJsonBuffer(
            gzip("{\"traceEvents\":[") + gzip(kernel("a", "10", "5", 1) + ",") +
                gzip(kernel("b", "20", "5", 2) + "]}") + std::string(1000, '\0'),
            "members.gz");
        QVERIFY(r.ok());
        QCOMPARE(kernels(*r.trace), size_t(2));
        QVERIFY(warnings(*r.trace).contains("1000 bytes after the end of the gzip data"));
    }
};

STRATA_TEST_GUILESS_MAIN(TestHostileInput)
#include "tst_hostile_input.moc"
