// Counter samples that are not finite numbers (issue 42): NaN and the infinities have no height
// to draw (they showed at 0 or at full height). The readers skip them and count them in the
// trace's warnings: Chrome JSON ("ph":"C" with "NaN", "Infinity", "-inf" as strings, which
// parse as numbers, and 1e999, past the double range) and .strata (both the sequential and the
// two-thread load). Every expected count is worked out by hand from the fixture beside it.
#include "io/json/chrome_json_reader.h"
#include "io/strata/read/strata_trace_reader.h"
#include "io/strata/strata_trace_writer.h"
#include "model/trace.h"
#include "support/test_files.h"
#include "support/test_main.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <limits>
#include <sstream>

using namespace strata;

namespace {

std::string warnings(const Trace& t) {
    std::string all;
    for (const auto& w : t.warnings()) all += w + "\n";
    return all;
}

bool hasWarning(const Trace& t, const std::string& text) {
    return warnings(t).find(text) != std::string::npos;
}

// The counter track named `name`, or null.
const Track* counter(const Trace& t, std::string_view name) {
    for (const Track& tr : t.tracks())
        if (tr.kind == TrackKind::Counter && t.str(tr.name) == name) return &tr;
    return nullptr;
}

std::vector<TimeNs> times(const Track& t) {
    return {t.counter.ts.begin(), t.counter.ts.end()};
}
std::vector<double> values(const Track& t) {
    return {t.counter.value.begin(), t.counter.value.end()};
}

using strata::test::readAll;

} // namespace

class TestNonFiniteCounters : public QObject {
    Q_OBJECT
private slots:
    // "mem used": 10 (ts 1), then "NaN", "Infinity", "-Infinity" (strings), 1e999 and -1e999
    // (numbers past the double range), "inf", then 30 (ts 8): 2 samples kept, 4 strings and 2
    // numbers skipped. "mem free" (beside "inf" at ts 7): 5, kept. "bad x": only "nan": skipped,
    // and no track. The slice keeps the trace non-empty.
    void chromeJson() {
        const std::string json = R"({"traceEvents":[
{"ph":"X","name":"work","pid":1,"tid":1,"ts":0,"dur":10},
{"ph":"C","name":"mem","pid":1,"ts":1,"args":{"used":10}},
{"ph":"C","name":"mem","pid":1,"ts":2,"args":{"used":"NaN"}},
{"ph":"C","name":"mem","pid":1,"ts":3,"args":{"used":"Infinity"}},
{"ph":"C","name":"mem","pid":1,"ts":4,"args":{"used":"-Infinity"}},
{"ph":"C","name":"mem","pid":1,"ts":5,"args":{"used":1e999}},
{"ph":"C","name":"mem","pid":1,"ts":6,"args":{"used":-1e999}},
{"ph":"C","name":"mem","pid":1,"ts":7,"args":{"used":"inf","free":5}},
{"ph":"C","name":"mem","pid":1,"ts":8,"args":{"used":30}},
{"ph":"C","name":"bad","pid":1,"ts":9,"args":{"x":"nan"}}
]})";
        const LoadResult r = readChromeJsonBuffer(json, "counters.json");
        QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
        const Trace& t = *r.trace;
        const Track* used = counter(t, "mem used");
        QVERIFY(used);
        QCOMPARE(times(*used), (std::vector<TimeNs>{1000, 8000}));
        QCOMPARE(values(*used), (std::vector<double>{10, 30}));
        const Track* freeT = counter(t, "mem free");
        QVERIFY(freeT);
        QCOMPARE(values(*freeT), (std::vector<double>{5}));
        QVERIFY(!counter(t, "bad x"));
        QCOMPARE(t.counterSampleCount(), size_t(3));
        // "NaN" (line 4), "Infinity", "-Infinity", "inf", "nan": 5; 1e999 (line 7), -1e999: 2.
        // Issue 46: counted as values, not events (one event may hold several).
        QVERIFY2(hasWarning(t, "skipped 5 counter values: not finite (NaN or infinity) (first at "
                               "byte "),
                 warnings(t).c_str());
        QVERIFY2(hasWarning(t, "skipped 2 counter values: out of double range"),
                 warnings(t).c_str());
    }

    // Issue 46 (a case from HTA's suite): values written as text the way JavaScript's Number()
    // reads them, "+10.5" and " 7 ", are kept; an event with three values that are no numbers
    // ("abc", "+", "++1") is one event, and three values are said skipped, not three events.
    void signedAndSpacedText() {
        const std::string json = R"({"traceEvents":[
{"ph":"X","name":"work","pid":1,"tid":1,"ts":0,"dur":10},
{"ph":"C","name":"q","pid":1,"ts":1,"args":{"v":"+10.5"}},
{"ph":"C","name":"q","pid":1,"ts":2,"args":{"v":" 7 "}},
{"ph":"C","name":"q","pid":1,"ts":3,"args":{"v":"-2.5e1"}},
{"ph":"C","name":"r","pid":1,"ts":4,"args":{"a":"abc","b":"+","c":"++1"}}
]})";
        const LoadResult r = readChromeJsonBuffer(json, "signed.json");
        QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
        const Trace& t = *r.trace;
        const Track* q = counter(t, "q v");
        QVERIFY(q);
        QCOMPARE(values(*q), (std::vector<double>{10.5, 7, -25}));
        QCOMPARE(t.counterSampleCount(), size_t(3));
        QVERIFY2(hasWarning(t, "skipped 3 counter values: not a number (first at byte "),
                 warnings(t).c_str());
        QVERIFY2(!hasWarning(t, "events: counter"), warnings(t).c_str());
    }

    // A .strata file: counter "gpu_mem" 1, NaN, +inf (first half of the chunks), -inf, 4
    // (second half); "only_nan": NaN twice. The same GPU activity in both halves tells the
    // two-thread load from a fallback to the sequential one (each half stores it once). Either
    // load: "gpu_mem" holds 1 and 4, "only_nan" is no track, 5 samples skipped and said.
    void strataBothLoads() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath(QStringLiteral("c.strata")).toStdString();
        constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
        constexpr double kInf = std::numeric_limits<double>::infinity();
        {
            StrataTraceWriter w;
            std::string error;
            QVERIFY2(w.open(path, &error), error.c_str());
            w.setAutoFlushBytes(4096);
            w.process(7, "p");
            const uint32_t mem = w.string("gpu_mem"), nan = w.string("only_nan");
            const uint32_t kernel = w.string("k"), work = w.string("work");
            GpuActivity g;
            g.device = 0;
            g.stream = 1;
            auto filler = [&](TimeNs from) { // ~ 40 KB of slices: several chunks
                for (int i = 0; i < 1000; ++i)
                    w.cpuSlice(7, 70, from + i * 10, from + i * 10 + 5, work, SliceKind::CpuOp, -1,
                               0);
            };
            w.gpuOp(100, 200, kernel, SliceKind::Kernel, g, -1);
            w.counter(7, mem, 1000, 1);
            w.counter(7, mem, 2000, kNaN);
            w.counter(7, nan, 2500, kNaN);
            w.counter(7, mem, 3000, kInf);
            filler(10000);
            w.flush();
            filler(100000);
            w.gpuOp(300000, 300100, kernel, SliceKind::Kernel, g, -1);
            w.counter(7, mem, 400000, -kInf);
            w.counter(7, nan, 450000, kNaN);
            w.counter(7, mem, 500000, 4);
            QVERIFY(w.close());
        }
        const std::string bytes = readAll(path);
        const LoadResult seq = readStrataBuffer(bytes, path, {}, StrataLoadPath::Sequential);
        const LoadResult par = readStrataBuffer(bytes, path, {}, StrataLoadPath::Parallel);
        QCOMPARE(seq.trace->gpuActivities().size(), size_t(1));
        QCOMPARE(par.trace->gpuActivities().size(), size_t(2)); // the two-thread load ran
        for (const LoadResult* r : {&seq, &par}) {
            QVERIFY(r->ok());
            const Trace& t = *r->trace;
            const Track* mem = counter(t, "gpu_mem");
            QVERIFY(mem);
            QCOMPARE(times(*mem), (std::vector<TimeNs>{1000, 500000}));
            QCOMPARE(values(*mem), (std::vector<double>{1, 4}));
            QVERIFY(!counter(t, "only_nan"));
            QCOMPARE(t.counterSampleCount(), size_t(2));
            QVERIFY2(hasWarning(t, path + ": skipped 5 counter sample(s) that are not finite "
                                          "numbers (NaN or infinity)"),
                     warnings(t).c_str());
        }
    }
};

STRATA_TEST_GUILESS_MAIN(TestNonFiniteCounters)
#include "tst_nonfinite_counters.moc"
