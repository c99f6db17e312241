// Chrome/Kineto JSON reader on hand-written fixtures (tests/data/json/). Every expected value was
// computed by hand from the fixture text (times: decimal microseconds x 1000, ties to even).
#include "io/json/chrome_json_reader.h"
#include "io/trace_loader.h"
#include "json_reader_fixture.h"
#include "support/test_main.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <string>

using namespace strata;

using namespace strata::test;

class TestChromeJsonReader : public QObject {
    Q_OBJECT

private slots:
    void kinetoObjectForm();
    void kinetoSlicesAndNesting();
    void kinetoGpuActivity();
    void kinetoFlowAndMetadata();
    void phasesArrayForm();
    void countersInstantsAsync();
    void stringIdsAndEpochTimes();
    void skippedEventsAreCounted();
    void gpuEventWithoutTimestampsIsSkipped();
    void unsortedInputSameResult();
    void gzipSameAsPlain();
};

void TestChromeJsonReader::kinetoObjectForm() {
    const LoadResult r = loadTrace(dataPath("kineto_small.json"));
    QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
    const Trace& t = *r.trace;
    QCOMPARE(t.sliceCount(), size_t(6));
    QVERIFY2(t.warnings().empty(), t.warnings().empty() ? "" : t.warnings()[0].c_str());
    const auto& md = t.metadata();
    QCOMPARE(md.at("schemaVersion"), std::string("1"));
    QCOMPARE(md.at("displayTimeUnit"), std::string("ms"));
    QCOMPARE(md.at("traceName"), std::string("fixture"));
    QCOMPARE(md.at("baseTimeNanoseconds"), std::string("1700000000000000000"));
    QVERIFY(md.at("distributedInfo").find("\"world_size\":2") != std::string::npos);
    QVERIFY(md.count("deviceProperties"));
    QCOMPARE(t.devices().size(), size_t(1));
    const DeviceInfo& d = t.devices()[0];
    QCOMPARE(d.id, 0);
    QCOMPARE(d.name, std::string("NVIDIA H100 80GB HBM3"));
    QCOMPARE(d.smCount, 132);
    QCOMPARE(d.totalMemoryBytes, int64_t(85045870592));
    QCOMPARE(d.computeMajor, 9);
    QCOMPARE(d.computeMinor, 0);
}

void TestChromeJsonReader::kinetoSlicesAndNesting() {
    const LoadResult r = loadTrace(dataPath("kineto_small.json"));
    QVERIFY(r.ok());
    const Trace& t = *r.trace;
    const TrackId cpu = findTrack(t, TrackKind::Thread, 42, 43);
    QVERIFY(cpu != UINT32_MAX);
    const SliceColumns& s = t.track(cpu).slices;
    QCOMPARE(s.size(), size_t(3));
    // python_function [1000000, +30250), cpu_op "1002.0005" -> 1002000.5 ns -> 1002000 (ties to
    // even), dur "10" -> 10000; cuda_runtime [1003000, +5500).
    QCOMPARE(t.str(s.name[0]), std::string_view("model.py(10): forward"));
    QCOMPARE(s.start[0], TimeNs(1000000));
    QCOMPARE(s.dur[0], TimeNs(30250));
    QCOMPARE(s.depth[0], uint16_t(0));
    QCOMPARE(s.kind[0], SliceKind::PythonFunction);
    QCOMPARE(t.str(s.name[1]), std::string_view("aten::mm"));
    QCOMPARE(s.start[1], TimeNs(1002000));
    QCOMPARE(s.dur[1], TimeNs(10000));
    QCOMPARE(s.depth[1], uint16_t(1));
    QCOMPARE(s.parent[1], SliceIndex(0));
    QCOMPARE(s.kind[1], SliceKind::CpuOp);
    QCOMPARE(t.str(s.name[2]), std::string_view("cudaLaunchKernel"));
    QCOMPARE(s.start[2], TimeNs(1003000));
    QCOMPARE(s.dur[2], TimeNs(5500));
    QCOMPARE(s.depth[2], uint16_t(2));
    QCOMPARE(s.parent[2], SliceIndex(1));
    QCOMPARE(s.kind[2], SliceKind::CudaRuntime);
    const SliceRef launch{cpu, 2};
    QCOMPARE(t.extra(launch)->correlation, int64_t(100));
    QCOMPARE(t.externalId(launch), int64_t(7));
    // Args stay: ints as ints.
    ArgValue v;
    QVERIFY(t.argStore().find(s.args[2], t.strings().find("cbid"), &v));
    QCOMPARE(v.type, ArgValue::Type::Int);
    QCOMPARE(v.i, int64_t(211));
}

void TestChromeJsonReader::kinetoGpuActivity() {
    const LoadResult r = loadTrace(dataPath("kineto_small.json"));
    QVERIFY(r.ok());
    const Trace& t = *r.trace;
    const TrackId k = findTrack(t, TrackKind::GpuStream, 0, 7);
    QVERIFY(k != UINT32_MAX);
    QCOMPARE(t.track(k).slices.size(), size_t(1));
    const SliceRef kernel{k, 0};
    QCOMPARE(t.start(kernel), TimeNs(1010500));
    QCOMPARE(t.duration(kernel), TimeNs(20000));
    QCOMPARE(t.kind(kernel), SliceKind::Kernel);
    const GpuActivity* g = t.gpu(kernel);
    QVERIFY(g);
    QCOMPARE(g->device, 0);
    QCOMPARE(g->stream, int64_t(7));
    QCOMPARE(g->context, int64_t(1));
    QCOMPARE(g->grid, (std::array<int32_t, 3>{2, 1, 1}));
    QCOMPARE(g->block, (std::array<int32_t, 3>{128, 1, 1}));
    QCOMPARE(g->registersPerThread, 32);
    QCOMPARE(g->staticSharedBytes, 1024);
    QCOMPARE(t.extra(kernel)->correlation, int64_t(100));
    QCOMPARE(t.externalId(kernel), int64_t(7));
    // grid kept as JSON text, the double as a double.
    ArgValue v;
    QVERIFY(t.argStore().find(t.track(k).slices.args[0], t.strings().find("grid"), &v));
    QCOMPARE(v.type, ArgValue::Type::Json);
    QCOMPARE(v.s, std::string("[2, 1, 1]"));
    QVERIFY(t.argStore().find(t.track(k).slices.args[0], t.strings().find("blocks per SM"), &v));
    QCOMPARE(v.type, ArgValue::Type::Double);
    QCOMPARE(v.d, 0.015152);

    const TrackId c = findTrack(t, TrackKind::GpuStream, 0, 8);
    QVERIFY(c != UINT32_MAX);
    QCOMPARE(t.track(c).slices.size(), size_t(2));
    const SliceRef copy{c, 0}, set{c, 1};
    QCOMPARE(t.kind(copy), SliceKind::Memcpy);
    QCOMPARE(t.start(copy), TimeNs(1040000));
    QCOMPARE(t.duration(copy), TimeNs(2001));
    QCOMPARE(t.gpu(copy)->bytes, int64_t(4096));
    QCOMPARE(t.gpu(copy)->copyKind, uint8_t(1));  // HtoD
    QCOMPARE(t.gpu(copy)->srcMemory, uint8_t(1)); // Pageable
    QCOMPARE(t.gpu(copy)->dstMemory, uint8_t(3)); // Device
    QCOMPARE(t.kind(set), SliceKind::Memset);
    QCOMPARE(t.start(set), TimeNs(1045000));
    QCOMPARE(t.duration(set), TimeNs(1000));
    QCOMPARE(t.gpu(set)->bytes, int64_t(512));
    QCOMPARE(t.gpu(set)->dstMemory, uint8_t(3));
}

void TestChromeJsonReader::kinetoFlowAndMetadata() {
    const LoadResult r = loadTrace(dataPath("kineto_small.json"));
    QVERIFY(r.ok());
    const Trace& t = *r.trace;
    QCOMPARE(t.flows().size(), size_t(1));
    const Flow& f = t.flows()[0];
    QCOMPARE(t.name(f.from), std::string_view("cudaLaunchKernel"));
    QCOMPARE(t.name(f.to), std::string_view("gemm_kernel"));
    QCOMPARE(f.id, uint64_t(100));
    QCOMPARE(t.str(f.category), std::string_view("ac2g"));
    QCOMPARE(t.launchOf(findSlice(t, "gemm_kernel")), findSlice(t, "cudaLaunchKernel"));

    const Process* host = t.process(42);
    QVERIFY(host);
    QCOMPARE(t.str(host->name), std::string_view("python3"));
    const Process* gpu = t.process(0);
    QVERIFY(gpu);
    QVERIFY(gpu->hasSortIndex);
    QCOMPARE(gpu->sortIndex, 5000000);
    QCOMPARE(gpu->labels.size(), size_t(1));
    QCOMPARE(t.str(gpu->labels[0]), std::string_view("GPU 0"));
    const Thread* th = t.thread(42, 43);
    QVERIFY(th);
    QCOMPARE(t.str(th->name), std::string_view("thread 43 (python3)"));
    QVERIFY(th->hasSortIndex);
    QCOMPARE(th->sortIndex, 3);
}

void TestChromeJsonReader::phasesArrayForm() {
    const LoadResult r = loadTrace(dataPath("phases.json"));
    QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
    const Trace& t = *r.trace;
    // B/E: outer [10, 20] us with inner [12, 15] nested; E at 25 closes nothing.
    const TrackId th = findTrack(t, TrackKind::Thread, 1, 1);
    QVERIFY(th != UINT32_MAX);
    const SliceColumns& s = t.track(th).slices;
    QCOMPARE(s.size(), size_t(2));
    QCOMPARE(t.str(s.name[0]), std::string_view("outer"));
    QCOMPARE(s.start[0], TimeNs(10000));
    QCOMPARE(s.dur[0], TimeNs(10000));
    QCOMPARE(t.str(s.name[1]), std::string_view("inner"));
    QCOMPARE(s.start[1], TimeNs(12000));
    QCOMPARE(s.dur[1], TimeNs(3000));
    QCOMPARE(s.depth[1], uint16_t(1));
    QCOMPARE(s.parent[1], SliceIndex(0));
    QVERIFY(s.flags[0] & kSliceFromBE);
    QVERIFY(hasWarning(t, "no matching B"));
    // B without E: closed at the trace end and flagged.
    const SliceRef open = findSlice(t, "open");
    QVERIFY(open.valid());
    QVERIFY(t.track(open.track).slices.flags[open.index] & kSliceClosedAtEnd);
    QVERIFY(hasWarning(t, "never ended"));
    // X a [100,110) and b [105,115) overlap without nesting: b goes to lane 1.
    const TrackId lane0 = findTrack(t, TrackKind::Thread, 1, 2, 0);
    const TrackId lane1 = findTrack(t, TrackKind::Thread, 1, 2, 1);
    QVERIFY(lane0 != UINT32_MAX && lane1 != UINT32_MAX);
    QCOMPARE(t.str(t.track(lane0).slices.name[0]), std::string_view("a"));
    QCOMPARE(t.str(t.track(lane1).slices.name[0]), std::string_view("b"));
    // v2 flow: producer -> consumer.
    bool found = false;
    for (const Flow& f : t.flows())
        if (t.name(f.from) == "producer" && t.name(f.to) == "consumer") found = true;
    QVERIFY(found);
}

void TestChromeJsonReader::countersInstantsAsync() {
    const LoadResult r = loadTrace(dataPath("phases.json"));
    QVERIFY(r.ok());
    const Trace& t = *r.trace;
    // Counters as Perfetto names them: "<name> <key>", one track per args key.
    const TrackId used = findNamedTrack(t, TrackKind::Counter, "mem used");
    const TrackId freeT = findNamedTrack(t, TrackKind::Counter, "mem free");
    QVERIFY(used != UINT32_MAX && freeT != UINT32_MAX);
    const CounterColumns& u = t.track(used).counter;
    QCOMPARE(u.size(), size_t(2));
    QCOMPARE(u.ts[0], TimeNs(50000));
    QCOMPARE(u.value[0], 10.0);
    QCOMPARE(u.ts[1], TimeNs(60000));
    QCOMPARE(u.value[1], 20.0);
    const CounterColumns& fr = t.track(freeT).counter;
    QCOMPARE(fr.size(), size_t(2));
    QCOMPARE(fr.value[0], 90.5); // numeric string
    QCOMPARE(fr.value[1], 80.0);
    QCOMPARE(t.counterSampleCount(), size_t(4));
    // Instants: s:"g" global, s:"p" process, none -> thread.
    TrackId g = UINT32_MAX, p = UINT32_MAX;
    for (TrackId i = 0; i < t.tracks().size(); ++i) {
        if (t.track(i).kind == TrackKind::GlobalInstants) g = i;
        if (t.track(i).kind == TrackKind::ProcessInstants && t.track(i).pid == 1) p = i;
    }
    QVERIFY(g != UINT32_MAX && p != UINT32_MAX);
    QCOMPARE(t.track(g).instants.size(), size_t(1));
    QCOMPARE(t.track(g).instants.ts[0], TimeNs(11000));
    QCOMPARE(t.str(t.track(g).instants.name[0]), std::string_view("global mark"));
    QCOMPARE(t.track(p).instants.size(), size_t(1));
    QCOMPARE(t.track(p).instants.ts[0], TimeNs(12000));
    const TrackId th = findTrack(t, TrackKind::Thread, 1, 1);
    QCOMPARE(t.track(th).instants.size(), size_t(1));
    QCOMPARE(t.track(th).instants.ts[0], TimeNs(13000));
    QCOMPARE(t.str(t.track(th).instants.name[0]), std::string_view("thread mark"));
    // Async b/n/e on one track named "req": one slice [70, 90] us and one instant at 75 us.
    const TrackId a = findNamedTrack(t, TrackKind::Async, "req");
    QVERIFY(a != UINT32_MAX);
    QCOMPARE(t.track(a).slices.size(), size_t(1));
    QCOMPARE(t.track(a).slices.start[0], TimeNs(70000));
    QCOMPARE(t.track(a).slices.dur[0], TimeNs(20000));
    QCOMPARE(t.track(a).instants.size(), size_t(1));
    QCOMPARE(t.track(a).instants.ts[0], TimeNs(75000));
}

void TestChromeJsonReader::stringIdsAndEpochTimes() {
    const LoadResult r = loadTrace(dataPath("phases.json"));
    QVERIFY(r.ok());
    const Trace& t = *r.trace;
    // pid "1" is the number 1; tid "stream 7" becomes a thread named "stream 7".
    const SliceRef s = findSlice(t, "strtid");
    QVERIFY(s.valid());
    QCOMPARE(t.track(s.track).pid, int64_t(1));
    QCOMPARE(t.start(s), TimeNs(300250));
    QCOMPARE(t.duration(s), TimeNs(1500));
    const Thread* th = t.thread(1, t.track(s.track).tid);
    QVERIFY(th);
    QCOMPARE(t.str(th->name), std::string_view("stream 7"));
    // Epoch microseconds keep every digit: 1712345678901234.567 us.
    const SliceRef e = findSlice(t, "epoch");
    QVERIFY(e.valid());
    QCOMPARE(t.start(e), TimeNs(1712345678901234567));
    QCOMPARE(t.duration(e), TimeNs(1));
}

void TestChromeJsonReader::skippedEventsAreCounted() {
    const LoadResult r = loadTrace(dataPath("phases.json"));
    QVERIFY(r.ok());
    const Trace& t = *r.trace;
    QVERIFY(hasWarning(t, "skipped 1 event: event with unsupported phase 'Z' (first at byte"));
    QVERIFY(hasWarning(t, "skipped 1 event: event without \"ts\""));
    // The "Z" event is on line 21 of phases.json.
    QVERIFY(
        hasWarning(t, "phase 'Z' (first at byte " +
                          std::to_string(readAll(dataPath("phases.json")).find("{\"ph\": \"Z\"")) +
                          ", line 21)"));
    // a, b, outer, inner, req, producer, consumer, strtid, epoch, open.
    QCOMPARE(t.sliceCount(), size_t(10));
}

void TestChromeJsonReader::gpuEventWithoutTimestampsIsSkipped() {
    // Kineto writes some kernels with "ts": 0 and "dur": 0 among epoch-stamped ones.
    const LoadResult r = loadText(
        R"({"traceEvents": [
 {"ph": "X", "cat": "kernel", "name": "k0", "pid": 0, "tid": 7, "ts": 0, "dur": 0,
  "args": {"device": 0, "stream": 7}},
 {"ph": "X", "cat": "kernel", "name": "k1", "pid": 0, "tid": 7, "ts": 1700000000000000, "dur": 5,
  "args": {"device": 0, "stream": 7}}]})");
    QVERIFY(r.ok());
    const Trace& t = *r.trace;
    QCOMPARE(t.sliceCount(), size_t(1));
    QVERIFY(!findSlice(t, "k0").valid());
    QCOMPARE(t.bounds().start, TimeNs(1700000000000000000));
    QVERIFY(hasWarning(t, "skipped 1 event: GPU event with \"ts\": 0 and \"dur\": 0"));
}

void TestChromeJsonReader::unsortedInputSameResult() {
    // The same events in reverse file order give the same slices.
    const std::string fwd =
        "[{\"ph\":\"X\",\"name\":\"p\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":10},"
        "{\"ph\":\"X\",\"name\":\"c\",\"pid\":1,\"tid\":1,\"ts\":2,\"dur\":3}]";
    const std::string rev =
        "[{\"ph\":\"X\",\"name\":\"c\",\"pid\":1,\"tid\":1,\"ts\":2,\"dur\":3},"
        "{\"ph\":\"X\",\"name\":\"p\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":10}]";
    for (const std::string& text : {fwd, rev}) {
        const LoadResult r = loadText(text);
        QVERIFY(r.ok());
        const SliceColumns& s = r.trace->track(findTrack(*r.trace, TrackKind::Thread, 1, 1)).slices;
        QCOMPARE(s.size(), size_t(2));
        QCOMPARE(r.trace->str(s.name[0]), std::string_view("p"));
        QCOMPARE(s.start[1], TimeNs(2000));
        QCOMPARE(s.depth[1], uint16_t(1));
    }
}

void TestChromeJsonReader::gzipSameAsPlain() {
    QTemporaryDir dir;
    const std::string gz = dir.filePath("k.json.gz").toStdString();
    const std::string bytes = gzip(readAll(dataPath("kineto_small.json")));
    QFile f(QString::fromStdString(gz));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes.data(), qint64(bytes.size()));
    f.close();
    const LoadResult r = loadTrace(gz);
    QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
    QCOMPARE(r.format, std::string("chrome-json-gzip"));
    QCOMPARE(r.trace->sliceCount(), size_t(6));
    QCOMPARE(r.trace->flows().size(), size_t(1));
    QVERIFY(r.trace->warnings().empty());
}

STRATA_TEST_GUILESS_MAIN(TestChromeJsonReader)
#include "tst_chrome_json_reader.moc"
