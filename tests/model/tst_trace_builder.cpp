// TraceBuilder: nesting, overflow lanes, self time, B/E matching, flows, correlation, counters.
// Every expected number below is worked out by hand in the comments.
#include "model/build/trace_builder.h"
#include "support/slice_lookup.h"
#include "support/test_main.h"

#include <QtTest>

using namespace strata;

namespace {

SliceInput slice(TraceBuilder& b, const char* name, TimeNs start, TimeNs dur,
                 SliceKind kind = SliceKind::Generic) {
    SliceInput s;
    s.start = start;
    s.dur = dur;
    s.name = b.intern(name);
    s.kind = kind;
    return s;
}

} // namespace

class TestTraceBuilder : public QObject {
    Q_OBJECT
private slots:
    void nestingLanesAndSelfTime() {
        TraceBuilder b;
        const TrackId t = b.threadTrack(1, 1);
        // Added out of order on purpose.
        b.addSlice(t, slice(b, "E", 60, 60)); // [60,120): starts inside A and D, ends after both
        b.addSlice(t, slice(b, "C", 20, 10)); // [20,30) in B
        b.addSlice(t, slice(b, "A", 0, 100)); // [0,100)
        b.addSlice(t, slice(b, "D", 50, 40)); // [50,90) in A
        b.addSlice(t, slice(b, "B", 10, 30)); // [10,40) in A
        auto trace = b.build();
        // Main lane: A(d0) B(d1) C(d2) D(d1); E spills to lane 1.
        QCOMPARE(trace->tracks().size(), size_t(2));
        const Track& main = trace->track(0);
        QCOMPARE(main.slices.size(), size_t(4));
        QCOMPARE(trace->str(main.slices.name[0]), std::string_view("A"));
        QCOMPARE(trace->str(main.slices.name[1]), std::string_view("B"));
        QCOMPARE(trace->str(main.slices.name[2]), std::string_view("C"));
        QCOMPARE(trace->str(main.slices.name[3]), std::string_view("D"));
        QCOMPARE(main.slices.depth, (Column<uint16_t>{0, 1, 2, 1}));
        QCOMPARE(main.slices.parent, (Column<SliceIndex>{kNoSlice, 0, 1, 0}));
        // self: A = 100 - 30 - 40 = 30; B = 30 - 10 = 20; C = 10; D = 40.
        for (SliceIndex i = 0; i < 4; ++i)
            QCOMPARE(main.slices.selfTime(i), (std::array<TimeNs, 4>{30, 20, 10, 40}[i]));
        QCOMPARE(main.maxDepth, uint16_t(3));
        const Track& lane = trace->track(1);
        QCOMPARE(lane.lane, 1u);
        QCOMPARE(lane.pid, int64_t(1));
        QCOMPARE(lane.tid, int64_t(1));
        QCOMPARE(lane.slices.size(), size_t(1));
        QCOMPARE(trace->str(lane.slices.name[0]), std::string_view("E"));
        QCOMPARE(trace->bounds(), (TimeRange{0, 120}));
        QCOMPARE(trace->sliceCount(), size_t(5));
        QCOMPARE(trace->warnings().size(), size_t(1));
        QVERIFY(QString::fromStdString(trace->warnings()[0]).startsWith("1 slices overlapped"));
        // Queries: at t=25 depth 2 is C; depth 1 is B; at t=45 depth 1 is nothing.
        QCOMPARE(main.sliceAt(25, 2), SliceIndex(2));
        QCOMPARE(main.sliceAt(25, 1), SliceIndex(1));
        QCOMPARE(main.sliceAt(45, 1), kNoSlice);
        QCOMPARE(main.sliceAt(100, 0), kNoSlice); // end is exclusive
        // Overlapping [35, 55): A, B (ends 40), D (starts 50); not C (ends 30).
        auto [f, l] = main.overlapping(35, 55);
        std::vector<SliceIndex> got;
        for (SliceIndex i = f; i < l; ++i)
            if (main.slices.end(i) > 35) got.push_back(i);
        QCOMPARE(got, (std::vector<SliceIndex>{0, 1, 3}));
        QCOMPARE(trace->ancestors(SliceRef{0, 2}),
                 (std::vector<SliceRef>{SliceRef{0, 0}, SliceRef{0, 1}}));
    }

    void equalStartLongerIsParent() {
        TraceBuilder b;
        const TrackId t = b.threadTrack(1, 2);
        b.addSlice(t, slice(b, "Q", 0, 5));
        b.addSlice(t, slice(b, "P", 0, 10));
        b.addSlice(t, slice(b, "Z", 10, 0)); // zero-length right at P's end: a sibling
        auto trace = b.build();
        const auto& c = trace->track(0).slices;
        QCOMPARE(trace->str(c.name[0]), std::string_view("P"));
        QCOMPARE(c.depth, (Column<uint16_t>{0, 1, 0}));
        QCOMPARE(c.selfTime(0), TimeNs(5));
    }

    void beginEndMatching() {
        TraceBuilder b;
        const TrackId t = b.threadTrack(5, 6);
        const TrackId other = b.threadTrack(5, 7);
        b.addBegin(t, slice(b, "x", 0, 0));
        b.addBegin(t, slice(b, "y", 10, 0));
        b.addEnd(t, 20, 0, kNoArgs);                // closes y (innermost)
        b.addEnd(t, 50, 0, kNoArgs);                // closes x
        b.addEnd(t, 60, 0, kNoArgs);                // nothing open: skipped, counted
        b.addBegin(t, slice(b, "z", 70, 0));        // never ended: closed at trace end (200)
        b.addSlice(other, slice(b, "w", 100, 100)); // trace end = 200
        auto trace = b.build();
        const auto& c = trace->track(0).slices;
        QCOMPARE(c.size(), size_t(3));
        QCOMPARE(c.start, (Column<TimeNs>{0, 10, 70}));
        QCOMPARE(c.dur, (Column<TimeNs>{50, 10, 130}));
        QCOMPARE(c.depth, (Column<uint16_t>{0, 1, 0}));
        QVERIFY(c.flags[2] & kSliceClosedAtEnd);
        QCOMPARE(trace->warnings().size(), size_t(2));
        QVERIFY(QString::fromStdString(trace->warnings()[0]).startsWith("1 E (end) events"));
        QVERIFY(QString::fromStdString(trace->warnings()[1]).startsWith("1 B (begin) events"));
    }

    void endMatchesByNameAndMergesArgs() {
        TraceBuilder b;
        const TrackId t = b.threadTrack(1, 1);
        const StringId key = b.intern("k");
        auto& args = b.args();
        args.begin();
        args.addInt(key, 1);
        SliceInput outer = slice(b, "outer", 0, 0);
        outer.args = args.finish();
        b.addBegin(t, outer);
        b.addBegin(t, slice(b, "inner", 5, 0));
        args.begin();
        args.addInt(b.intern("ret"), 7);
        const ArgSetId endArgs = args.finish();
        b.addEnd(t, 30, b.intern("outer"), endArgs); // names outer: closes it, inner stays open
        b.addEnd(t, 40, b.intern("inner"), kNoArgs);
        auto trace = b.build();
        const SliceRef o = test::sliceNamed(*trace, "outer");
        const SliceRef i = test::sliceNamed(*trace, "inner");
        QVERIFY(o.valid() && i.valid());
        QCOMPARE(trace->start(o), TimeNs(0));
        QCOMPARE(trace->duration(o), TimeNs(30));
        QCOMPARE(trace->duration(i), TimeNs(35));
        // inner [5,40) overlaps outer [0,30) without nesting: it goes to lane 1.
        QCOMPARE(trace->track(i.track).lane, 1u);
        const auto a = trace->args(trace->track(o.track).slices.args[o.index]);
        QCOMPARE(a.size(), size_t(2));
        QCOMPARE(a[0].value.i, int64_t(1));
        QCOMPARE(trace->str(a[1].key), std::string_view("ret"));
        QCOMPARE(a[1].value.i, int64_t(7));
    }

    void correlationAndV1Flows() {
        TraceBuilder b;
        const TrackId cpu = b.threadTrack(100, 200);
        SliceInput op = slice(b, "aten::mm", 0, 50, SliceKind::CpuOp);
        op.externalId = 7;
        b.addSlice(cpu, op);
        SliceInput launch = slice(b, "cudaLaunchKernel", 5, 10, SliceKind::CudaRuntime);
        launch.correlation = 42;
        launch.externalId = 7;
        b.addSlice(cpu, launch);
        GpuActivity g;
        g.device = 0;
        g.stream = 7;
        g.grid = {80, 1, 1};
        const TrackId gpu = b.gpuStreamTrack(0, 7, 0, 7);
        SliceInput k = slice(b, "sgemm", 20, 10, SliceKind::Kernel);
        k.correlation = 42;
        k.externalId = 7;
        k.gpu = &g;
        b.addSlice(gpu, k);
        // Kineto-style ac2g flow: s on the runtime call's thread, f (bp e) on the kernel's pid/tid.
        const StringId ac2g = b.intern("ac2g");
        b.addFlowV1(TraceBuilder::FlowPhase::Start, cpu, 5, 42, ac2g, ac2g, false);
        b.addFlowV1(TraceBuilder::FlowPhase::End, b.threadTrack(0, 7), 20, 42, ac2g, ac2g, true);
        auto trace = b.build();
        // The thread track made only for the flow lookup is dropped.
        QCOMPARE(trace->tracks().size(), size_t(2));
        const SliceRef kr = test::sliceNamed(*trace, "sgemm");
        const SliceRef lr = test::sliceNamed(*trace, "cudaLaunchKernel");
        const SliceRef opr = test::sliceNamed(*trace, "aten::mm");
        QCOMPARE(trace->track(kr.track).kind, TrackKind::GpuStream);
        QCOMPARE(trace->track(kr.track).device, 0);
        QCOMPARE(trace->track(kr.track).tid, int64_t(7));
        QCOMPARE(trace->gpu(kr)->grid[0], 80);
        QCOMPARE(trace->launchOf(kr), lr);
        QCOMPARE(trace->gpuOpsOf(lr), (std::vector<SliceRef>{kr}));
        QCOMPARE(trace->byExternalId(7).size(), size_t(3));
        QCOMPARE(trace->ancestors(lr), (std::vector<SliceRef>{opr}));
        QCOMPARE(trace->flows().size(), size_t(1));
        QCOMPARE(trace->flows()[0].from, lr);
        QCOMPARE(trace->flows()[0].to, kr);
        QCOMPARE(trace->flows()[0].id, uint64_t(42));
        QVERIFY(trace->warnings().empty());
    }

    void flowEndBeforeStartStillPairs() {
        // Clock skew: the kernel (f) appears to start before the launch (s).
        TraceBuilder b;
        const TrackId cpu = b.threadTrack(1, 1);
        const TrackId gpu = b.gpuStreamTrack(0, 7, 0, 7);
        b.addSlice(cpu, slice(b, "launch", 100, 10));
        b.addSlice(gpu, slice(b, "kernel", 95, 10));
        const StringId n = b.intern("ac2g");
        b.addFlowV1(TraceBuilder::FlowPhase::End, gpu, 95, 1, n, n, true);
        b.addFlowV1(TraceBuilder::FlowPhase::Start, cpu, 100, 1, n, n, false);
        auto trace = b.build();
        QCOMPARE(trace->flows().size(), size_t(1));
        QCOMPARE(trace->name(trace->flows()[0].from), std::string_view("launch"));
        QCOMPARE(trace->name(trace->flows()[0].to), std::string_view("kernel"));
    }

    void flowWithoutBindingPointBindsToNextSlice() {
        TraceBuilder b;
        const TrackId a = b.threadTrack(1, 1);
        const TrackId c = b.threadTrack(1, 2);
        b.addSlice(a, slice(b, "src", 0, 10));
        b.addSlice(c, slice(b, "dst", 30, 10));
        const StringId n = b.intern("f");
        b.addFlowV1(TraceBuilder::FlowPhase::Start, a, 5, 3, n, n, false);
        b.addFlowV1(TraceBuilder::FlowPhase::End, c, 20, 3, n, n, false);  // next slice: dst at 30
        b.addFlowV1(TraceBuilder::FlowPhase::End, c, 50, 99, n, n, false); // no start: counted
        auto trace = b.build();
        QCOMPARE(trace->flows().size(), size_t(1));
        QCOMPARE(trace->name(trace->flows()[0].to), std::string_view("dst"));
        QCOMPARE(trace->warnings().size(), size_t(1));
        QVERIFY(QString::fromStdString(trace->warnings()[0]).startsWith("1 flow events"));
    }

    void v2Flows() {
        TraceBuilder b;
        const TrackId a = b.threadTrack(1, 1);
        const TrackId c = b.threadTrack(1, 2);
        const PendingSlice src = b.addSlice(a, slice(b, "out", 0, 10));
        const PendingSlice step = b.addSlice(c, slice(b, "step", 20, 10));
        const PendingSlice dst = b.addSlice(a, slice(b, "in", 40, 10));
        b.addFlowV2(src, 9, false, true);
        b.addFlowV2(step, 9, true, true);
        b.addFlowV2(dst, 9, true, false);
        auto trace = b.build();
        QCOMPARE(trace->flows().size(), size_t(2));
        QCOMPARE(trace->name(trace->flows()[0].from), std::string_view("out"));
        QCOMPARE(trace->name(trace->flows()[0].to), std::string_view("step"));
        QCOMPARE(trace->name(trace->flows()[1].from), std::string_view("step"));
        QCOMPARE(trace->name(trace->flows()[1].to), std::string_view("in"));
    }

    void countersInstantsAndMetadata() {
        TraceBuilder b;
        const TrackId ct = b.counterTrack(3, b.intern("mem"));
        b.addCounter(ct, 30, 3.0);
        b.addCounter(ct, 10, 1.0);
        b.addCounter(ct, 20, 2.0);
        const TrackId th = b.threadTrack(3, 4);
        b.addInstant(th, 15, b.intern("mark"), 0, kNoArgs);
        b.setProcessName(3, b.intern("python3"));
        b.setProcessSortIndex(3, -1);
        b.setThreadName(3, 4, b.intern("main"));
        auto trace = b.build();
        const Track& c = trace->track(0);
        QCOMPARE(c.counter.ts, (Column<TimeNs>{10, 20, 30}));
        QCOMPARE(c.counter.value, (Column<double>{1.0, 2.0, 3.0}));
        QCOMPARE(trace->counterSampleCount(), size_t(3));
        QCOMPARE(trace->instantCount(), size_t(1));
        QCOMPARE(trace->bounds(), (TimeRange{10, 30}));
        QCOMPARE(trace->str(trace->process(3)->name), std::string_view("python3"));
        QCOMPARE(trace->process(3)->sortIndex, -1);
        QCOMPARE(trace->str(trace->thread(3, 4)->name), std::string_view("main"));
        QVERIFY(trace->thread(3, 5) == nullptr);
    }

    void perSliceMemoryIs40Bytes() {
        TraceBuilder b;
        const TrackId t = b.threadTrack(1, 1);
        for (int i = 0; i < 1000; ++i) b.addSlice(t, slice(b, "s", i * 10, 5));
        auto trace = b.build();
        const auto& c = trace->track(0).slices;
        const size_t perSlice = sizeof c.start[0] + sizeof c.dur[0] + sizeof c.name[0] +
                                sizeof c.category[0] + sizeof c.parent[0] + sizeof c.args[0] +
                                sizeof c.extra[0] + sizeof c.depth[0] + sizeof c.kind[0] +
                                sizeof c.flags[0];
        QCOMPARE(perSlice, size_t(40));
        QVERIFY(c.memoryBytes() <= 40 * 1000 + 10 * 64);
        QCOMPARE(sizeof(SliceExtra), size_t(16)); // a slice with a correlation id: 16 more
    }
};

STRATA_TEST_GUILESS_MAIN(TestTraceBuilder)
#include "tst_trace_builder.moc"
