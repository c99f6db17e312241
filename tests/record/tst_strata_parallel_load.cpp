// The two-thread .strata load (io/strata/strata_parallel_load) against the sequential one: every
// file here is read both ways and the models must be equal in every field a view or an analysis can
// see (GPU activity values compared by value: each half stores its own). Files cover every
// record type, B/E pairs whose slices tie with X slices, unsorted and overlapping slices,
// strings defined in the second half, and damage, where the parallel load must give way to the
// sequential one and end with the same model and the same warnings; and a record type only this
// test declares, added to the readers' record table.
#include "io/strata/read/strata_record_sink.h"
#include "io/strata/read/strata_record_table.h"
#include "io/strata/read/strata_trace_reader.h"
#include "io/strata/strata_records.h"
#include "io/strata/strata_trace_writer.h"
#include "model/trace.h"
#include "support/test_files.h"
#include "support/test_main.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <map>
#include <sstream>

using namespace strata;

namespace {

// A GPU activity on device 0, stream 1.
GpuActivity stream1() {
    GpuActivity g;
    g.device = 0;
    g.stream = 1;
    return g;
}

using strata::test::readAll;

// Differences between two models, as text (empty when equal).
std::map<std::string, uint32_t> colorsByName(const Trace& t) {
    std::map<std::string, uint32_t> out;
    for (const auto& [name, argb] : t.nameColors()) out[std::string(t.str(name))] = argb;
    return out;
}

class ModelDiff {
public:
    ModelDiff(const Trace& a, const Trace& b) : a_(a), b_(b) {
        expect(a.tracks().size() == b.tracks().size(), "track count");
        for (TrackId t = 0; t < a.tracks().size() && t < b.tracks().size(); ++t) track(t);
        expect(a.bounds().start == b.bounds().start && a.bounds().end == b.bounds().end, "bounds");
        expect(a.sliceCount() == b.sliceCount(), "slice count");
        expect(a.warnings() == b.warnings(), "warnings");
        expect(a.metadata() == b.metadata(), "metadata");
        expect(colorsByName(a) == colorsByName(b), "name colours");
        expect(a.devices().size() == b.devices().size(), "devices");
        for (size_t i = 0; i < a.devices().size() && i < b.devices().size(); ++i)
            expect(a.devices()[i].name == b.devices()[i].name &&
                       a.devices()[i].smCount == b.devices()[i].smCount,
                   "device " + std::to_string(i));
        expect(a.processes().size() == b.processes().size(), "processes");
        for (size_t i = 0; i < a.processes().size() && i < b.processes().size(); ++i)
            expect(a.processes()[i].pid == b.processes()[i].pid &&
                       a.str(a.processes()[i].name) == b.str(b.processes()[i].name),
                   "process " + std::to_string(i));
        expect(a.threads().size() == b.threads().size(), "threads");
        for (size_t i = 0; i < a.threads().size() && i < b.threads().size(); ++i)
            expect(a.threads()[i].tid == b.threads()[i].tid &&
                       a.str(a.threads()[i].name) == b.str(b.threads()[i].name),
                   "thread " + std::to_string(i));
        expect(a.flows().size() == b.flows().size(), "flows");
    }
    const std::string& text() const { return text_; }

private:
    const Trace& a_;
    const Trace& b_;
    std::string text_;

    void expect(bool same, const std::string& what) {
        if (!same && text_.size() < 2000) text_ += what + "; ";
    }
    template <typename C> bool sameColumn(const C& x, const C& y) { return x == y; }

    void track(TrackId t) {
        const Track& x = a_.track(t);
        const Track& y = b_.track(t);
        const std::string at = "track " + std::to_string(t) + ": ";
        expect(x.kind == y.kind && x.pid == y.pid && x.tid == y.tid && x.device == y.device &&
                   x.lane == y.lane && a_.str(x.name) == b_.str(y.name) && x.cookie == y.cookie,
               at + "identity");
        expect(x.maxDepth == y.maxDepth && x.maxDuration == y.maxDuration, at + "max");
        const SliceColumns& c = x.slices;
        const SliceColumns& d = y.slices;
        expect(c.start == d.start && c.dur == d.dur, at + "times");
        expect(c.parent == d.parent && c.depth == d.depth, at + "nesting");
        expect(c.kind == d.kind && c.flags == d.flags && c.args == d.args, at + "kind/flags/args");
        if (c.size() != d.size()) return;
        for (SliceIndex k = 0; k < c.size(); ++k) {
            expect(a_.str(c.name[k]) == b_.str(d.name[k]) &&
                       a_.str(c.category[k]) == b_.str(d.category[k]),
                   at + "name of slice " + std::to_string(k));
            const SliceExtra* e = a_.extra({t, k});
            const SliceExtra* f = b_.extra({t, k});
            expect((e == nullptr) == (f == nullptr), at + "extra of slice " + std::to_string(k));
            if (!e || !f) continue;
            expect(e->correlation == f->correlation &&
                       a_.externalId({t, k}) == b_.externalId({t, k}),
                   at + "ids of slice " + std::to_string(k));
            const GpuActivity* g = a_.gpu({t, k});
            const GpuActivity* h = b_.gpu({t, k});
            expect((g == nullptr) == (h == nullptr) && (!g || *g == *h),
                   at + "gpu activity of slice " + std::to_string(k));
            if (e->correlation >= 0) {
                const auto p = a_.byCorrelation(e->correlation);
                const auto q = b_.byCorrelation(f->correlation);
                expect(std::equal(p.begin(), p.end(), q.begin(), q.end()),
                       at + "correlation index of slice " + std::to_string(k));
            }
        }
        for (SliceIndex k = 0; k < c.size(); ++k)
            if (c.args[k] != kNoArgs && a_.args(c.args[k]).size() != b_.args(d.args[k]).size())
                expect(false, at + "args of slice " + std::to_string(k));
        expect(x.counter.ts == y.counter.ts && x.counter.value == y.counter.value, at + "counter");
        expect(x.instants.ts == y.instants.ts && x.instants.args == y.instants.args,
               at + "instants");
        for (size_t k = 0; k < x.instants.size() && k < y.instants.size(); ++k)
            expect(a_.str(x.instants.name[k]) == b_.str(y.instants.name[k]),
                   at + "instant name " + std::to_string(k));
    }
};

// Writes a file with everything the format carries, over many small chunks.
void writeEverything(const std::string& path, int loops) {
    StrataTraceWriter w;
    std::string error;
    QVERIFY2(w.open(path, &error), error.c_str());
    w.setAutoFlushBytes(4096);
    const int64_t pid = 7;
    w.metadata("command_line", "./everything");
    w.process(pid, "everything");
    w.thread(pid, 70, "main");
    DeviceInfo dev;
    dev.id = 0;
    dev.name = "Test GPU";
    dev.smCount = 4;
    w.device(dev);
    const uint32_t launch = w.string("cudaLaunchKernel");
    const uint32_t range = w.string("range");
    GpuActivity g;
    g.device = 0;
    g.context = 1;
    g.block = {128, 1, 1};
    for (int i = 0; i < loops; ++i) {
        const TimeNs t = 1000 + TimeNs(i) * 100;
        // A string first used in the second half of the file.
        const uint32_t kernel = w.string("kernel_" + std::to_string(i % (1 + i / 50)));
        w.cpuBegin(pid, 70, t, range, SliceKind::UserAnnotation);
        // An X slice with the same start and length as the B/E slice around it (a tie the
        // insertion order settles), a failing call now and then.
        w.cpuSlice(pid, 70, t, t + 60, launch, SliceKind::CudaRuntime, i, i % 7 == 3 ? 2 : 0);
        w.cpuSlice(pid, 70, t + 10, t + 20, launch, SliceKind::CudaRuntime, -1, 0);
        w.cpuEnd(pid, 70, t + 60);
        g.stream = 3 + i % 2;
        g.grid = {1 + i % 5, 1, 1};
        w.gpuOp(t + 30, t + 90, kernel, SliceKind::Kernel, g, i);
        // Another thread whose slices come out of order and overlap without nesting.
        w.cpuSlice(pid, 71, t + 50 - (i % 3) * 40, t + 95, range, SliceKind::UserAnnotation, -1, 0);
        if (i % 9 == 0) w.instant(pid, 70, t + 5, w.string("mark"));
        if (i % 4 == 0) w.counter(pid, w.string("memory"), t, double(i));
        if (i % 11 == 0) w.asyncSlice(pid, uint64_t(i % 3), t, t + 500, w.string("async"));
        if (i == loops / 2) w.warning("collector: a warning in the middle");
        if (i == loops / 2 + 1) w.nameColor(kernel, 0xff112233); // in the second half
        if (i % 13 == 0) w.cpuEnd(pid, 72, t); // an E with no B (skipped, counted)
    }
    w.cpuBegin(pid, 70, 1000 + TimeNs(loops) * 100, range, SliceKind::UserAnnotation); // open
    w.cpuSlice(pid, 70, 5, 3, launch, SliceKind::CudaRuntime, -1, 0); // ends before it starts
    QVERIFY(w.close());
}

// `records`: the record types both loads read (null: the standard ones).
void compareBothWays(const std::string& bytes, const std::string& name, bool expectParallel,
                     const strata_reader::RecordTable* records = nullptr) {
    const LoadResult seq = readStrataBuffer(bytes, name, {}, StrataLoadPath::Sequential, records);
    const LoadResult par = readStrataBuffer(bytes, name, {}, StrataLoadPath::Parallel, records);
    QVERIFY(seq.ok());
    QVERIFY(par.ok());
    QVERIFY(seq.trace->sliceCount() > 0);
    const ModelDiff diff(*seq.trace, *par.trace);
    QVERIFY2(diff.text().empty(), diff.text().c_str());
    // Which way it went shows in the GPU activity values: the two halves of a parallel load
    // store each value the file repeats once each; a load that fell back stores it once.
    QCOMPARE(par.trace->gpuActivities().size() > seq.trace->gpuActivities().size(), expectParallel);
}

// A record type of this test only, declared as those of io/strata/strata_records.h (the way a
// "run" record would be): the command line (a string id) and exit code of the recorded program,
// then a note filling the body.
struct TestRunRecord {
    static constexpr format::RecordType kType = format::RecordType(201);
    static constexpr const char* kName = "TestRun";
    static constexpr const char* kPrefixName = "command line and exit code";
    static constexpr format::RecordUse kUse = format::RecordUse::FileOrder;
    uint32_t commandLine = 0;
    int32_t exitCode = 0;
    std::string_view note;
    using Body = format::PrefixedBody<
        format::Fields<TestRunRecord, &TestRunRecord::commandLine, &TestRunRecord::exitCode>,
        &TestRunRecord::note>;
};

// The same type id with a body too short for a TestRun record (4 bytes).
struct ShortTestRunRecord {
    static constexpr format::RecordType kType = TestRunRecord::kType;
    uint32_t commandLine = 0;
    using Body =
        format::FixedBody<format::Fields<ShortTestRunRecord, &ShortTestRunRecord::commandLine>>;
};

// What a TestRun record means in the model: a warning naming the run.
std::string loadTestRun(strata_reader::RecordSink& sink, const uint8_t* body, uint32_t bytes) {
    const TestRunRecord r = format::readRecord<TestRunRecord>(body, bytes);
    StringId command;
    if (!sink.str(r.commandLine, &command)) return sink.problem();
    sink.builder().addWarning("run: " + std::string(sink.builder().strings().view(command)) +
                              " exited with " + std::to_string(r.exitCode) + " (" +
                              std::string(r.note) + ")");
    return {};
}

// The standard record types and TestRun.
const strata_reader::RecordTable& withTestRun() {
    static const strata_reader::RecordTable table = [] {
        strata_reader::RecordTable t = strata_reader::RecordTable::standard();
        t.add<TestRunRecord>(&loadTestRun);
        return t;
    }();
    return table;
}

} // namespace

class TstStrataParallelLoad : public QObject {
    Q_OBJECT
private slots:
    void everyRecordTypeLoadsTheSame() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("all.strata").toStdString();
        writeEverything(path, 600);
        const std::string bytes = readAll(path);
        QVERIFY(bytes.size() > 40000); // many 4 KiB chunks: both halves get work
        compareBothWays(bytes, path, true);

        // Hand-checked figures of the file: 600 loops of B/E + 2 X on thread 70 (plus the open
        // B and the reversed slice), one X on thread 71, one kernel.
        const LoadResult r = readStrataBuffer(bytes, path, {}, StrataLoadPath::Parallel);
        const Trace& t = *r.trace;
        QCOMPARE(t.sliceCount(), size_t(600 * 5 + 2 + 55)); // + 55 async slices (i % 11 == 0)
        // 2 streams x 5 grids: stored once by the sequential load, once per half here.
        QCOMPARE(t.gpuActivities().size(), size_t(20));
        QCOMPARE(readStrataBuffer(bytes, path, {}, StrataLoadPath::Sequential)
                     .trace->gpuActivities()
                     .size(),
                 size_t(10));
        size_t failing = 0, marks = 0, samples = 0;
        for (const Track& tr : t.tracks()) {
            for (ArgSetId a : tr.slices.args) failing += a != kNoArgs;
            marks += tr.instants.size();
            samples += tr.counter.size();
        }
        QCOMPARE(failing, size_t(86));  // i % 7 == 3 for i < 600
        QCOMPARE(marks, size_t(67));    // i % 9 == 0
        QCOMPARE(samples, size_t(150)); // i % 4 == 0
        QCOMPARE(colorsByName(t), (std::map<std::string, uint32_t>{{"kernel_0", 0xff112233}}));
        QCOMPARE(t.byCorrelation(599).size(), size_t(2)); // the launch and its kernel
    }

    void damageFallsBackToTheSequentialLoad() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("damaged.strata").toStdString();
        writeEverything(path, 400);
        const std::string good = readAll(path);
        // A flipped byte in a chunk of the second half (CRC mismatch), and a file cut in the
        // middle of a chunk (a killed recording).
        std::string flipped = good;
        flipped[good.size() * 3 / 4] ^= 0x5A;
        compareBothWays(flipped, path, false);
        compareBothWays(good.substr(0, good.size() * 2 / 3), path, true);
        const LoadResult cut = readStrataBuffer(good.substr(0, good.size() * 2 / 3), path, {},
                                                StrataLoadPath::Parallel);
        const auto& w = cut.trace->warnings();
        QVERIFY(std::any_of(w.begin(), w.end(), [](const std::string& s) {
            return s.find("truncated chunk") != std::string::npos;
        }));
    }

    // Slice rows are checked where they are written (pass 2): a row naming a string its file
    // defines only later, or none at all, or a row of an unknown kind, in either half, sends the
    // load to the sequential reader, which reads it the same way.
    void badRowsFallBackToTheSequentialLoad() {
        enum class Bad { LaterString, NoString, Kind };
        for (const Bad bad : {Bad::LaterString, Bad::NoString, Bad::Kind}) {
            for (const int where : {100, 900}) { // first half, second half (of 1000 loops)
                QTemporaryDir dir;
                const std::string path = dir.filePath("rows.strata").toStdString();
                StrataTraceWriter w;
                std::string error;
                QVERIFY(w.open(path, &error));
                w.setAutoFlushBytes(4096);
                const GpuActivity g = stream1();
                const uint32_t launch = w.string("cudaLaunchKernel");
                const uint32_t later = launch + 1000; // the 1000th string made in the loop
                for (int i = 0; i < 1000; ++i) {
                    const TimeNs t = 100 * i;
                    const uint32_t kernel = w.string("kernel_" + std::to_string(i));
                    uint32_t name = launch;
                    SliceKind kind = SliceKind::CudaRuntime;
                    if (i == where && bad == Bad::LaterString) name = later;
                    if (i == where && bad == Bad::NoString) name = later + 5;
                    if (i == where && bad == Bad::Kind) kind = SliceKind(200);
                    w.cpuSlice(1, 1, t, t + 10, name, kind, i, 0);
                    w.gpuOp(t + 20, t + 40, i == where + 1 ? name : kernel, SliceKind::Kernel, g,
                            i);
                }
                QVERIFY(w.close());
                compareBothWays(readAll(path), path, false);
            }
        }
    }

    void manyStringsStayParallel() {
        // 70,000 strings: the second half defines ids far above 65,536 (the sequential reader's
        // limit on a jump past the ids defined so far) and must still be read on two threads.
        QTemporaryDir dir;
        const std::string path = dir.filePath("strings.strata").toStdString();
        StrataTraceWriter w;
        std::string error;
        QVERIFY(w.open(path, &error));
        const GpuActivity g = stream1();
        for (int i = 0; i < 70000; ++i) {
            const uint32_t name = w.string("function_" + std::to_string(i));
            w.cpuSlice(1, 1, 10 * i, 10 * i + 5, name, SliceKind::CpuOp, i, 0);
            w.gpuOp(10 * i + 6, 10 * i + 9, name, SliceKind::Kernel, g, i);
        }
        QVERIFY(w.close());
        compareBothWays(readAll(path), path, true);
    }

    // A record type added to the record table by this test alone is written through the
    // writer's generic call and read the same way by both loads, the two-thread load staying on
    // two threads; readers without it skip and count it; a body too short for it is damage.
    void recordTypeAddedByATestLoadsTheSame() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("runs.strata").toStdString();
        StrataTraceWriter w;
        std::string error;
        QVERIFY(w.open(path, &error));
        w.setAutoFlushBytes(4096);
        const GpuActivity g = stream1();
        const uint32_t launch = w.string("cudaLaunchKernel");
        for (int i = 0; i < 1000; ++i) {
            const TimeNs t = 100 * i;
            w.cpuSlice(1, 1, t, t + 10, launch, SliceKind::CudaRuntime, i, 0);
            w.gpuOp(t + 20, t + 40, w.string("kernel_" + std::to_string(i)), SliceKind::Kernel, g,
                    i);
            if (i % 100 == 7) // in both halves, naming a string defined just before
                w.writeRecord(TestRunRecord{w.string("./app --step " + std::to_string(i)), i % 3,
                                            "note " + std::to_string(i)});
        }
        QVERIFY(w.close());
        const std::string bytes = readAll(path);
        compareBothWays(bytes, path, true, &withTestRun());

        const LoadResult r =
            readStrataBuffer(bytes, path, {}, StrataLoadPath::Parallel, &withTestRun());
        std::vector<std::string> expected;
        for (int i = 7; i < 1000; i += 100)
            expected.push_back("run: ./app --step " + std::to_string(i) + " exited with " +
                               std::to_string(i % 3) + " (note " + std::to_string(i) + ")");
        QCOMPARE(r.trace->warnings(), expected);

        // Readers that do not know the type skip its records and count them, both ways.
        compareBothWays(bytes, path, true);
        for (const auto how : {StrataLoadPath::Sequential, StrataLoadPath::Parallel}) {
            const LoadResult plain = readStrataBuffer(bytes, path, {}, how);
            const auto& skipped = plain.trace->warnings();
            QCOMPARE(skipped.size(), size_t(1));
            QVERIFY2(skipped[0].find("skipped 10 record(s) of types this build does not know "
                                     "(file version 1.7)") != std::string::npos,
                     skipped[0].c_str());
        }

        // A body too short for the type's fields is damage, reported as for a standard type.
        StrataTraceWriter bad;
        QVERIFY(bad.open(path, &error));
        bad.setAutoFlushBytes(4096);
        for (int i = 0; i < 1000; ++i) {
            bad.gpuOp(100 * i, 100 * i + 50, bad.string("kernel"), SliceKind::Kernel, g, i);
            if (i == 700) bad.writeRecord(ShortTestRunRecord{bad.string("./app")});
        }
        QVERIFY(bad.close());
        compareBothWays(readAll(path), path, false, &withTestRun());
        const LoadResult damaged =
            readStrataBuffer(readAll(path), path, {}, StrataLoadPath::Parallel, &withTestRun());
        const auto& w2 = damaged.trace->warnings();
        QVERIFY(std::any_of(w2.begin(), w2.end(), [](const std::string& s) {
            return s.find("TestRun record shorter than its 8-byte command line and exit code") !=
                   std::string::npos;
        }));
    }

    void oneChunkFileLoadsTheSame() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("small.strata").toStdString();
        StrataTraceWriter w;
        std::string error;
        QVERIFY(w.open(path, &error));
        const GpuActivity g = stream1();
        w.gpuOp(10, 20, w.string("k"), SliceKind::Kernel, g, 1);
        w.cpuSlice(1, 1, 5, 8, w.string("cudaLaunchKernel"), SliceKind::CudaRuntime, 1, 0);
        QVERIFY(w.close());
        compareBothWays(readAll(path), path, false); // one chunk: the second half is empty
    }
};

STRATA_TEST_GUILESS_MAIN(TstStrataParallelLoad)
#include "tst_strata_parallel_load.moc"
