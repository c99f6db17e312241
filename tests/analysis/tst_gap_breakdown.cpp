// Where a gap's time went on the launching thread (core/analysis/gap_breakdown) and the cause that
// follows from it (gap_causes, issue 27), on hand-made traces whose truth is known by
// construction: a sync that returns early then long CPU work, a sync that blocks most of the gap,
// nested frames of one name, an outer annotation over untraced time, a DataLoader span, launch
// calls back to back, dependencies whose producer ends near the consumer or long before. Times in
// ns; every expectation worked out by hand in the comments.
#include "analysis/gaps/gap_causes.h"
#include "analysis/gaps/gap_text.h"
#include "support/analysis_trace_fixture.h"
#include "support/test_main.h"

#include <QtTest>

#include <numeric>

using namespace strata;
using strata::test::GpuTraceFixture;

namespace {

const ExplainedGap* deviceGapAt(const GapCauses& g, TimeNs start) {
    for (const ExplainedGap& e : g.deviceGaps)
        if (e.gap.start == start) return &e;
    return nullptr;
}

const ExplainedGap* streamGapAt(const GapCauses& g, int64_t stream, TimeNs start) {
    for (const ExplainedGap& e : g.streamGaps)
        if (e.gap.stream == stream && e.gap.start == start) return &e;
    return nullptr;
}

// The part of this kind and name (nullptr: none).
const GapPart* part(const Trace& t, const GapBreakdown& b, GapPartKind k, std::string_view name) {
    for (const GapPart& p : b.parts)
        if (p.kind == k && (name.empty() ? p.name == kNoName : t.str(p.name) == name)) return &p;
    return nullptr;
}

std::string_view nameOf(const Trace& t, StringId id) {
    return id == kNoName ? std::string_view() : t.str(id);
}

// The parts and the totals per kind both add up to the gap's length.
void checkSums(const ExplainedGap& e) {
    const GapBreakdown& b = e.breakdown;
    TimeNs parts = 0, kinds = 0;
    for (const GapPart& p : b.parts) parts += p.time;
    for (TimeNs k : b.byKind) kinds += k;
    QCOMPARE(parts, e.gap.duration());
    QCOMPARE(kinds, e.gap.duration());
}

// K1 [0, 10'000) on stream 7, launched at [-5'000, -4'000): every fixture's first kernel.
void firstKernel(GpuTraceFixture& f) {
    f.launch(-5'000, 1'000, 1);
    f.kernel(0, 7, 0, 10'000, "K1", 1);
}

} // namespace

class TestGapBreakdown : public QObject {
    Q_OBJECT
private slots:
    void syncReturnsEarlyThenCpuWork() {
        // cudaStreamSynchronize [2'000, 10'100) returns 100 ns into the gap [10'000, 130'000);
        // then preprocess [10'200, 129'000) calls scipy's zoom [10'500, 128'000); K2 is launched
        // at [129'000, 129'500) and starts at 130'000. Blocked 100, untraced 100 (nothing traced
        // at [10'100, 10'200)), preprocess 300 + 1'000, zoom 117'500, launch 500, queued 500.
        GpuTraceFixture f;
        firstKernel(f);
        f.launch(2'000, 8'100, -1, "cudaStreamSynchronize");
        f.python(10'200, 118'800, "preprocess.py(10): preprocess");
        f.python(10'500, 117'500, "scipy/ndimage/_interpolation.py(100): zoom");
        f.launch(129'000, 500, 2);
        f.kernel(0, 7, 130'000, 10'000, "K2", 2);
        const auto t = f.build();
        const GapCauses g = explainGpuGaps(*t, 1'000);
        const ExplainedGap* e = deviceGapAt(g, 10'000);
        QVERIFY(e);
        QCOMPARE(int(e->cause), int(GapCause::LaunchBound)); // CPU-bound, not synchronization
        QCOMPARE(e->late, TimeNs(119'000));
        const GapBreakdown& b = e->breakdown;
        QCOMPARE(b.of(GapPartKind::Blocked), TimeNs(100));
        QCOMPARE(b.of(GapPartKind::Untraced), TimeNs(100));
        QCOMPARE(b.of(GapPartKind::Cpu), TimeNs(118'800));
        QCOMPARE(b.of(GapPartKind::Launch), TimeNs(500));
        QCOMPARE(b.of(GapPartKind::Queued), TimeNs(500));
        checkSums(*e);
        // The dominant frame is zoom, in the user's preprocess (scipy is a library).
        const GapPart* d = b.dominantCpu();
        QVERIFY(d);
        QCOMPARE(nameOf(*t, d->name),
                 std::string_view("scipy/ndimage/_interpolation.py(100): zoom"));
        QCOMPARE(nameOf(*t, d->context), std::string_view("preprocess.py(10): preprocess"));
        QCOMPARE(d->time, TimeNs(117'500));
        QCOMPARE(part(*t, b, GapPartKind::Cpu, "preprocess.py(10): preprocess")->time,
                 TimeNs(1'300));
        QCOMPARE(part(*t, b, GapPartKind::Blocked, "cudaStreamSynchronize")->time, TimeNs(100));
        QVERIFY(!e->blockingCall.valid());
        QVERIFY(!e->inputPipeline);
        QVERIFY2(gapReason(*t, *e).find("CPU busy: scipy/ndimage/_interpolation.py(100): zoom in "
                                        "preprocess.py(10): preprocess") == 0,
                 gapReason(*t, *e).c_str());
    }

    void syncBlocksMostOfTheGap() {
        // cudaDeviceSynchronize [5'000, 55'000) blocks 45'000 of the gap [10'000, 60'000); then
        // untraced 1'000, the launch [56'000, 56'500), queued 3'500.
        GpuTraceFixture f;
        firstKernel(f);
        f.launch(5'000, 50'000, -1, "cudaDeviceSynchronize");
        f.launch(56'000, 500, 2);
        f.kernel(0, 7, 60'000, 10'000, "K2", 2);
        const auto t = f.build();
        const GapCauses g = explainGpuGaps(*t, 1'000);
        const ExplainedGap* e = deviceGapAt(g, 10'000);
        QVERIFY(e);
        QCOMPARE(int(e->cause), int(GapCause::Synchronization));
        QCOMPARE(t->name(e->blockingCall), std::string_view("cudaDeviceSynchronize"));
        QCOMPARE(e->breakdown.of(GapPartKind::Blocked), TimeNs(45'000));
        QCOMPARE(e->breakdown.of(GapPartKind::Untraced), TimeNs(1'000));
        QCOMPARE(e->breakdown.of(GapPartKind::Launch), TimeNs(500));
        QCOMPARE(e->breakdown.of(GapPartKind::Queued), TimeNs(3'500));
        QCOMPARE(e->late, TimeNs(46'000));
        checkSums(*e);
    }

    void nestedFramesOfOneName() {
        // nn.Module: Model_0 [0, 200'000) over three nested _call_impl frames A [1'000, 199'000),
        // B [20'000, 100'000), C [30'000, 90'000) and aten::mm [40'000, 80'000); the launch at
        // [100'500, 101'000) under A; K2 at 110'000. Gap [10'000, 110'000): A's own time
        // 10'000 + 500, B's 20'000, C's 20'000 (one name: 50'500 in all, never A's 91'000 +
        // B's 80'000 + C's 60'000 as the overlaps were), aten::mm 40'000, the launch 500,
        // queued 9'000; each in nn.Module: Model_0 (the _call_impl frames are torch's).
        GpuTraceFixture f;
        firstKernel(f);
        f.python(0, 200'000, "nn.Module: Model_0");
        const std::string callImpl = "torch/nn/modules/module.py(1743): _call_impl";
        f.python(1'000, 198'000, callImpl);
        f.python(20'000, 80'000, callImpl);
        f.python(30'000, 60'000, callImpl);
        f.cpuOp(40'000, 40'000, "aten::mm");
        f.launch(100'500, 500, 2);
        f.kernel(0, 7, 110'000, 10'000, "K2", 2);
        const auto t = f.build();
        const GapCauses g = explainGpuGaps(*t, 1'000);
        const ExplainedGap* e = deviceGapAt(g, 10'000);
        QVERIFY(e);
        const GapBreakdown& b = e->breakdown;
        QCOMPARE(b.parts.size(), size_t(4));
        QCOMPARE(nameOf(*t, b.parts[0].name), std::string_view(callImpl));
        QCOMPARE(b.parts[0].time, TimeNs(50'500));
        QCOMPARE(nameOf(*t, b.parts[0].context), std::string_view("nn.Module: Model_0"));
        QCOMPARE(nameOf(*t, b.parts[1].name), std::string_view("aten::mm"));
        QCOMPARE(b.parts[1].time, TimeNs(40'000));
        QCOMPARE(nameOf(*t, b.parts[1].context), std::string_view("nn.Module: Model_0"));
        QCOMPARE(int(b.parts[2].kind), int(GapPartKind::Queued));
        QCOMPARE(b.parts[2].time, TimeNs(9'000));
        QCOMPARE(nameOf(*t, b.parts[3].name), std::string_view("cudaLaunchKernel"));
        QCOMPARE(b.parts[3].time, TimeNs(500));
        checkSums(*e);
        QCOMPARE(int(e->cause), int(GapCause::LaunchBound));
    }

    void outerAnnotationOverUntracedTime() {
        // ## copy_batch_to_gpu ## [5'000, 2'000'000) spans the gap [10'000, 1'037'000); traced
        // work below it: aten::copy_ [100'000, 370'000) only; the launch [1'030'000,
        // 1'031'000); K2 at 1'037'000. Untraced under the annotation 90'000 + 660'000, copy_
        // 270'000, launch 1'000, queued 6'000: traced share (270'000 + 1'000) / 1'027'000.
        GpuTraceFixture f;
        firstKernel(f);
        f.annotation(5'000, 1'995'000, "## copy_batch_to_gpu ##");
        f.cpuOp(100'000, 270'000, "aten::copy_");
        f.launch(1'030'000, 1'000, 2);
        f.kernel(0, 7, 1'037'000, 10'000, "K2", 2);
        const auto t = f.build();
        const GapCauses g = explainGpuGaps(*t, 1'000);
        const ExplainedGap* e = deviceGapAt(g, 10'000);
        QVERIFY(e);
        const GapBreakdown& b = e->breakdown;
        QCOMPARE(b.of(GapPartKind::Untraced), TimeNs(750'000));
        QCOMPARE(b.of(GapPartKind::Cpu), TimeNs(270'000));
        QCOMPARE(b.of(GapPartKind::Launch), TimeNs(1'000));
        QCOMPARE(b.of(GapPartKind::Queued), TimeNs(6'000));
        checkSums(*e);
        QCOMPARE(e->tracedShare(), 271'000.0 / 1'027'000.0);
        const GapPart* u = part(*t, b, GapPartKind::Untraced, "## copy_batch_to_gpu ##");
        QVERIFY(u);
        QCOMPARE(u->time, TimeNs(750'000));
        QCOMPARE(nameOf(*t, part(*t, b, GapPartKind::Cpu, "aten::copy_")->context),
                 std::string_view("## copy_batch_to_gpu ##"));
        QCOMPARE(int(e->cause), int(GapCause::LaunchBound));
        QCOMPARE(b.dominantCpu(), u);
    }

    // The input pipeline's spans: a DataLoader's, and a DataPipe's (torch.utils.data's
    // datapipes name theirs enumerate(DataPipe)#..., issue 46).
    void dataLoaderSpanOverAGap_data() {
        QTest::addColumn<QString>("span_");
        QTest::newRow("DataLoader")
            << "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__";
        QTest::newRow("DataPipe") << "enumerate(DataPipe)#ShardingFilterIterDataPipe";
    }
    void dataLoaderSpanOverAGap() {
        // enumerate(DataLoader)#...__next__ [5'000, 70'000) with aten::copy_ [20'000, 26'170)
        // under it; the launch [71'000, 71'500); K2 at 72'000. Gap [10'000, 72'000): untraced
        // under the span 10'000 + 43'830, copy_ 6'170, untraced outside 1'000, launch 500,
        // queued 500; under the span 60'000 of 62'000: the input pipeline.
        GpuTraceFixture f;
        firstKernel(f);
        QFETCH(QString, span_);
        const std::string span = span_.toStdString();
        f.annotation(5'000, 65'000, span);
        f.cpuOp(20'000, 6'170, "aten::copy_");
        f.launch(71'000, 500, 2);
        f.kernel(0, 7, 72'000, 10'000, "K2", 2);
        const auto t = f.build();
        const GapCauses g = explainGpuGaps(*t, 1'000);
        const ExplainedGap* e = deviceGapAt(g, 10'000);
        QVERIFY(e);
        const GapBreakdown& b = e->breakdown;
        QCOMPARE(part(*t, b, GapPartKind::Untraced, span)->time, TimeNs(53'830));
        QCOMPARE(part(*t, b, GapPartKind::Cpu, "aten::copy_")->time, TimeNs(6'170));
        QCOMPARE(part(*t, b, GapPartKind::Untraced, "")->time, TimeNs(1'000));
        checkSums(*e);
        QCOMPARE(b.inputPipeline, TimeNs(60'000));
        QCOMPARE(nameOf(*t, b.inputSpan), std::string_view(span));
        QCOMPARE(int(e->cause), int(GapCause::LaunchBound));
        QVERIFY(e->inputPipeline);
        QVERIFY2(gapReason(*t, *e).find("input pipeline: 60.00 µs under " + span) == 0,
                 gapReason(*t, *e).c_str());
    }

    void launchCallsBackToBack() {
        // Four cudaLaunchKernel calls of 10'000 each, back to back from 11'000: three launch
        // kernels on GPU 1, the last K2 on GPU 0 at 52'000. GPU 0's gap [10'000, 52'000):
        // untraced 1'000, launch 40'000, queued 1'000 -> launch overhead.
        GpuTraceFixture f;
        firstKernel(f);
        for (int i = 0; i < 3; ++i) {
            f.launch(11'000 + 10'000 * i, 10'000, 10 + i);
            f.kernel(1, 9, 500'000 + 20'000 * i, 10'000, "other", 10 + i);
        }
        f.launch(41'000, 10'000, 2);
        f.kernel(0, 7, 52'000, 10'000, "K2", 2);
        const auto t = f.build();
        const GapCauses g = explainGpuGaps(*t, 1'000);
        const ExplainedGap* e = deviceGapAt(g, 10'000);
        QVERIFY(e);
        QCOMPARE(e->breakdown.of(GapPartKind::Launch), TimeNs(40'000));
        QCOMPARE(e->breakdown.of(GapPartKind::Untraced), TimeNs(1'000));
        QCOMPARE(e->breakdown.of(GapPartKind::Queued), TimeNs(1'000));
        checkSums(*e);
        QCOMPARE(int(e->cause), int(GapCause::LaunchOverhead));
        QCOMPARE(std::string(gapCauseLabel(e->cause)), std::string("launch overhead"));
    }

    void moduleLoadingOnFirstLaunch() {
        // cuLibraryLoadData [11'000, 51'000) (lazy loading inside the first launch), then the
        // launch [51'000, 51'500); K2 at 52'000. Gap [10'000, 52'000): untraced 1'000, launch
        // 40'000 + 500, queued 500 -> launch overhead, worded as module loading (warm-up).
        GpuTraceFixture f;
        firstKernel(f);
        f.launch(11'000, 40'000, -1, "cuLibraryLoadData");
        f.launch(51'000, 500, 2);
        f.kernel(0, 7, 52'000, 10'000, "K2", 2);
        const auto t = f.build();
        const GapCauses g = explainGpuGaps(*t, 1'000);
        const ExplainedGap* e = deviceGapAt(g, 10'000);
        QVERIFY(e);
        QCOMPARE(e->breakdown.of(GapPartKind::Launch), TimeNs(40'500));
        checkSums(*e);
        QCOMPARE(int(e->cause), int(GapCause::LaunchOverhead));
        QVERIFY2(gapReason(*t, *e).find("module loading on a kernel's first launch (warm-up): "
                                        "cuLibraryLoadData 40.00 µs") == 0,
                 gapReason(*t, *e).c_str());
    }

    void dependencyExplainedOrNot() {
        // Stream 8: P [0, 50'000) (ncclKernel_SendRecv); stream 7: K2 [52'000, 60'000) launched
        // at -3'000: stream 7's gap [10'000, 52'000) and the device gap [50'000, 52'000) waited
        // on P, which ended 2'000 before K2 started. Stream 8: Q [100'000, 110'000) ended long
        // before K3 [200'000, 210'000), launched at [90'000, 91'000): the device gap [110'000,
        // 200'000) (K3 launched before it began) and stream 7's gap [60'000, 200'000) (K3 queued
        // 109'000 of its 140'000) are dependencies whose wait the trace does not show.
        GpuTraceFixture f;
        firstKernel(f);
        f.launch(-4'000, 1'000, 2);
        f.kernel(0, 8, 0, 50'000, "ncclKernel_SendRecv", 2);
        f.launch(-3'000, 1'000, 3);
        f.kernel(0, 7, 52'000, 8'000, "K2", 3);
        f.launch(-2'000, 1'000, 4);
        f.kernel(0, 8, 100'000, 10'000, "ncclKernel_SendRecv", 4);
        f.launch(90'000, 1'000, 5);
        f.kernel(0, 7, 200'000, 10'000, "K3", 5);
        const auto t = f.build();
        const GapCauses g = explainGpuGaps(*t, 1'000);
        const ExplainedGap* near = deviceGapAt(g, 50'000);
        QVERIFY(near);
        QCOMPARE(int(near->cause), int(GapCause::Dependency));
        QCOMPARE(t->start(near->waitedOn), TimeNs(0));
        const ExplainedGap* s7 = streamGapAt(g, 7, 10'000);
        QVERIFY(s7);
        QCOMPARE(int(s7->cause), int(GapCause::Dependency));
        QCOMPARE(t->start(s7->waitedOn), TimeNs(0));
        const ExplainedGap* far = deviceGapAt(g, 110'000);
        QVERIFY(far);
        QCOMPARE(int(far->cause), int(GapCause::Dependency));
        QVERIFY(!far->waitedOn.valid()); // Q ended when the gap began: it explains nothing
        QVERIFY(gapReason(*t, *far).find("not visible in the trace") != std::string::npos);
        const ExplainedGap* s7far = streamGapAt(g, 7, 60'000);
        QVERIFY(s7far);
        QVERIFY(s7far->launchedLate);
        QCOMPARE(s7far->breakdown.of(GapPartKind::Queued), TimeNs(109'000));
        QCOMPARE(int(s7far->cause), int(GapCause::Dependency));
        QVERIFY(!s7far->waitedOn.valid()); // Q ended 90'000 before K3
    }
};

STRATA_TEST_GUILESS_MAIN(TestGapBreakdown)
#include "tst_gap_breakdown.moc"
