// Chrome's own sampled stacks in a JSON trace ("stackFrames" and "samples", as Chrome's profiler
// writes them) read into the same model as the .strata records: frames given children first,
// a native frame's library, a weight, and bad frames and samples skipped and counted.
#include "analysis/samples/sample_profile.h"
#include "io/cache/trace_cache.h"
#include "io/trace_loader.h"
#include "support/test_files.h"
#include "support/test_main.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace strata;

class TestJsonSamples : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void throughTheTraceCache() {
        // The trace cache keeps a JSON trace's model: opened from it, the samples are the same.
        const std::string json =
            R"({"traceEvents": [{"ph": "X", "name": "step", "pid": 1, "tid": 7, "ts": 0, "dur": 10}],
  "stackFrames": {"1": {"name": "main"}, "2": {"name": "work", "parent": "1"}},
  "samples": [{"ts": 1, "pid": 1, "tid": 7, "sf": "2"}, {"ts": 2, "pid": 1, "tid": 7, "sf": "1"}]})";
        const std::string path = dir_.filePath("cached.json").toStdString();
        QVERIFY(test::writeAll(path, json));
        TraceCacheSettings settings;
        settings.directory = dir_.filePath("cache").toStdString();
        settings.minFileBytes = 1;
        const TraceCache cache(settings);
        const LoadResult first = loadTraceCached(path, cache);
        QVERIFY(first.ok());
        QVERIFY(first.cacheFile.empty()); // read, then stored
        const LoadResult second = loadTraceCached(path, cache);
        QVERIFY2(second.ok() && !second.cacheFile.empty(), "opened from the cache");
        const StackSamples &a = first.trace->stackSamples(), &b = second.trace->stackSamples();
        QCOMPARE(b.size(), size_t(2));
        QCOMPARE(b.ts, a.ts);
        QCOMPARE(b.callsite, a.callsite);
        QCOMPARE(b.callsiteParent, a.callsiteParent);
        QCOMPARE(b.stackAt(b.threads[0], 0).size(), size_t(2));
        QCOMPARE(second.trace->str(b.callsiteFrame[b.callsite[0]]), std::string_view("work"));
    }

    void stackFramesAndSamples() {
        // Frames: 1 main (root), 2 work < 1, 3 memcpy (libc.so) < 2; 4 < 5 < 4 a cycle; 6's parent
        // 9 missing. Samples (µs): tid 7 at 1 (sf 3), 2 (sf 2, weight 2), 3 (sf 1); tid 8 at 1.5
        // (sf "3"); bad: sf 4 (cycle), sf 6 (missing parent), sf 99 (none), one without a tid.
        const std::string json = R"({
  "traceEvents": [{"ph": "X", "name": "step", "pid": 1, "tid": 7, "ts": 0, "dur": 10}],
  "stackFrames": {
    "3": {"name": "memcpy", "category": "libc.so", "parent": "2"},
    "2": {"name": "train.py(5): work", "parent": "1"},
    "1": {"name": "train.py(1): main"},
    "4": {"name": "x", "parent": "5"}, "5": {"name": "y", "parent": "4"},
    "6": {"name": "z", "parent": "9"}
  },
  "samples": [
    {"ts": 1, "pid": 1, "tid": 7, "sf": 3, "weight": 1},
    {"ts": 2, "pid": 1, "tid": 7, "sf": "2", "weight": 2},
    {"ts": 3, "pid": 1, "tid": 7, "sf": "1"},
    {"ts": 1.5, "pid": 1, "tid": 8, "sf": "3"},
    {"ts": 4, "pid": 1, "tid": 7, "sf": "4"},
    {"ts": 4, "pid": 1, "tid": 7, "sf": "6"},
    {"ts": 4, "pid": 1, "tid": 7, "sf": "99"},
    {"ts": 4, "pid": 1, "sf": "1"}
  ]
})";
        const std::string path = dir_.filePath("chrome.json").toStdString();
        QVERIFY(test::writeAll(path, json));
        const LoadResult r = loadTrace(path);
        QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
        const Trace& t = *r.trace;
        const StackSamples& k = t.stackSamples();
        QCOMPARE(k.callsiteCount(), size_t(3));
        QCOMPARE(k.size(), size_t(5)); // 1 + 2 (weight) + 1 + 1
        const SampleThread* th = k.thread(1, 7);
        QVERIFY(th && th->count == 4);
        QCOMPARE(k.ts[th->first], TimeNs(1000));
        QCOMPARE(k.ts[th->first + 1], TimeNs(2000));
        QCOMPARE(k.ts[th->first + 2], TimeNs(2000));
        std::vector<std::string> stack;
        for (const StringId f : k.stackAt(*th, 0)) stack.emplace_back(t.str(f));
        const std::vector<std::string> want = {"train.py(1): main", "train.py(5): work",
                                               "memcpy (libc.so)"};
        QCOMPARE(stack, want);
        QVERIFY(k.thread(1, 8) && k.thread(1, 8)->count == 1);
        // main: self 1, total 5; work: self 2, total 4; memcpy: self 2, total 2.
        const SampleProfile p = sampleProfile(t);
        QCOMPARE(p.samples, uint64_t(5));
        QCOMPARE(p.functions.size(), size_t(3));
        QCOMPARE(std::string(t.str(p.functions[0].frame)), std::string("train.py(5): work"));
        QCOMPARE(p.functions[0].total, uint64_t(4));
        QCOMPARE(std::string(t.str(p.functions[2].frame)), std::string("train.py(1): main"));
        QCOMPARE(p.functions[2].total, uint64_t(5));
        std::string warnings;
        for (const std::string& w : t.warnings()) warnings += w + "\n";
        QVERIFY2(warnings.find("stackFrames: skipped 3 frame(s)") != std::string::npos,
                 warnings.c_str());
        QVERIFY2(warnings.find("samples: skipped 4 sample(s)") != std::string::npos,
                 warnings.c_str());
        // Not kept as metadata as well.
        QVERIFY(!t.metadata().count("samples") && !t.metadata().count("stackFrames"));
    }
};

STRATA_TEST_GUILESS_MAIN(TestJsonSamples)
#include "tst_json_samples.moc"
