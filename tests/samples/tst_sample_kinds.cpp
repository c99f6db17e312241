// A recording with both kinds of stacks (--python sample and --cpu-sample: a Python thread has
// Python and native samples of the same time, a thread of C++ only native ones): each thread's
// time is counted once, from its Python stacks where it has any (StackSamples::timeKind), unless
// a kind is asked for; the period is each kind's sampler's; a thread with samples and no slices
// keeps its name in the Perfetto export. Expected values counted by hand from the table below.
//
//   callsite  parent  frame                 kind
//   1         0       main.py(1): main      Python
//   2         1       main.py(5): busy      Python
//   3         0       _start                native
//   4         3       spin                  native
//
//   thread (10, 11) "python3": Python 1000 c2, 2000 c2, 3000 c1; native 1100 c4, 2100 c4,
//                              3100 c4, 4100 c3; a CUDA call's stack (ApiCall) 1500 c1
//   thread (10, 12) "worker":  native 1000 c4, 5000 c3
#include "analysis/samples/sample_period.h"
#include "analysis/samples/sample_profile.h"
#include "io/export/perfetto_json_export.h"
#include "io/trace_loader.h"
#include "model/build/trace_builder.h"
#include "support/test_files.h"
#include "support/test_main.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace strata;

namespace {

constexpr uint8_t kPython = uint8_t(StackKind::Python), kNative = uint8_t(StackKind::Native),
                  kApi = uint8_t(StackKind::ApiCall);

std::shared_ptr<const Trace> bothKinds() {
    TraceBuilder b;
    b.setMetadata("python_sample_hz", "1000");
    b.setMetadata("cpu_sample", "250 Hz of each thread's CPU time (perf task-clock; libunwind)");
    const CallsiteId main = b.addCallsite(kNoCallsite, b.intern("main.py(1): main"));
    const CallsiteId busy = b.addCallsite(main, b.intern("main.py(5): busy"));
    const CallsiteId start = b.addCallsite(kNoCallsite, b.intern("_start"));
    const CallsiteId spin = b.addCallsite(start, b.intern("spin"));
    b.setThreadName(10, 11, b.intern("python3"));
    b.setThreadName(10, 12, b.intern("worker"));
    for (const auto& [ts, site, kind] :
         std::vector<std::tuple<TimeNs, CallsiteId, uint8_t>>{{1000, busy, kPython},
                                                              {2000, busy, kPython},
                                                              {3000, main, kPython},
                                                              {1100, spin, kNative},
                                                              {2100, spin, kNative},
                                                              {3100, spin, kNative},
                                                              {4100, start, kNative},
                                                              {1500, main, kApi}})
        b.addStackSample(10, 11, ts, site, kind);
    b.addStackSample(10, 12, 1000, spin, kNative);
    b.addStackSample(10, 12, 5000, start, kNative);
    return b.build();
}

// name -> (self, total)
std::map<std::string, std::pair<uint64_t, uint64_t>> functionsOf(const Trace& t,
                                                                 const SampleProfile& p) {
    std::map<std::string, std::pair<uint64_t, uint64_t>> out;
    for (const SampleFunction& f : p.functions)
        out[std::string(t.str(f.frame))] = {f.self, f.total};
    return out;
}

} // namespace

class TestSampleKinds : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void eachThreadItsTimeKind() {
        const auto t = bothKinds();
        const StackSamples& k = t->stackSamples();
        QCOMPARE(k.timeKind(*k.thread(10, 11)), kPython);
        QCOMPARE(k.timeKind(*k.thread(10, 12)), kNative);
    }

    void byDefaultEachThreadOnce() {
        // Thread 11 by its Python samples (c2 c2 c1), thread 12 by its native ones (c4 c3).
        const auto t = bothKinds();
        const SampleProfile p = sampleProfile(*t);
        QCOMPARE(p.samples, uint64_t(5));
        QCOMPARE(p.threads, 2u);
        QCOMPARE(p.period, TimeNs(1'000'000)); // the trace has Python samples: Python's rate
        const std::map<std::string, std::pair<uint64_t, uint64_t>> want = {
            {"main.py(5): busy", {2, 2}},
            {"main.py(1): main", {1, 3}},
            {"spin", {1, 1}},
            {"_start", {1, 2}}};
        QCOMPARE(functionsOf(*t, p), want);
    }

    void oneKindAskedFor() {
        const auto t = bothKinds();
        SampleSelection native;
        native.kind = kNative;
        // Thread 11: c4 c4 c4 c3; thread 12: c4 c3.
        const SampleProfile n = sampleProfile(*t, native);
        QCOMPARE(n.samples, uint64_t(6));
        QCOMPARE(n.threads, 2u);
        QCOMPARE(n.period, TimeNs(4'000'000)); // cpu_sample's 250 Hz
        const std::map<std::string, std::pair<uint64_t, uint64_t>> nativeWant = {
            {"spin", {4, 4}}, {"_start", {2, 6}}};
        QCOMPARE(functionsOf(*t, n), nativeWant);
        SampleSelection python;
        python.kind = kPython;
        const SampleProfile p = sampleProfile(*t, python);
        QCOMPARE(p.samples, uint64_t(3));
        QCOMPARE(p.threads, 1u);
        // The stacks taken at CUDA calls are no samples of time, whatever is asked.
        SampleSelection api;
        api.kind = kApi;
        QCOMPARE(sampleProfile(*t, api).samples, uint64_t(1));
    }

    void periodOfEachKind() {
        const auto t = bothKinds();
        QCOMPARE(samplePeriod(*t, kPython), TimeNs(1'000'000));
        QCOMPARE(samplePeriod(*t, kNative), TimeNs(4'000'000));
        // Native samples alone: theirs.
        TraceBuilder b;
        b.setMetadata("cpu_sample", "500 Hz of each thread's CPU time");
        b.addStackSample(1, 1, 0, b.addCallsite(kNoCallsite, b.intern("f")), kNative);
        QCOMPARE(samplePeriod(*b.build()), TimeNs(2'000'000));
    }

    void sampledThreadsNamedInTheExport() {
        // No slices at all: the threads and their process are named from the samples' ids.
        const std::string path = dir_.filePath("kinds.json").toStdString();
        QVERIFY(exportPerfettoJson(*bothKinds(), path, {}).ok);
        const std::string text = test::readAll(path);
        QVERIFY(text.find("\"thread_name\", \"pid\": 10, \"tid\": 12, \"args\": {\"name\": "
                          "\"worker\"") != std::string::npos);
        const LoadResult r = loadTrace(path);
        QVERIFY(r.ok());
        const Thread* worker = r.trace->thread(10, 12);
        QVERIFY(worker && worker->name);
        QCOMPARE(r.trace->str(worker->name), std::string_view("worker"));
    }
};

STRATA_TEST_GUILESS_MAIN(TestSampleKinds)
#include "tst_sample_kinds.moc"
