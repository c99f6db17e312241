// TimelineView on the offscreen platform: track tree order and labels, hit testing with real
// mouse clicks at every depth and on a GPU lane, selection signals, correlation both ways,
// launch gaps (computed and drawn), level of detail (a sub-pixel cluster is still drawn),
// the view's memory, a real trace (navigation: tst_timeline_navigation).
//
// The test trace and its geometry: timeline_view_fixture.h.
#include "analysis/correlation.h"
#include "style/gap_style.h"
#include "support/test_main.h"
#include "timeline/layout/track_layout.h"
#include "timeline/lod/gap_index.h"
#include "timeline/timeline_ruler.h"
#include "timeline/timeline_view.h"
#include "timeline/track_tree_widget.h"
#include "timeline_view_fixture.h"

#include "io/trace_loader.h"
#include "model/build/trace_builder.h"

#include <QFile>
#include <QImage>
#include <QSignalSpy>
#include <QTest>

using namespace strata;

using namespace strata::test;

class TstTimelineView : public QObject {
    Q_OBJECT
private slots:
    void trackTreeOrder();
    void trackTreeOrderGpuFirst();
    void sortIndexPutsGpuFirst();
    void collapse();
    void collapseByClickingHeader();
    void highlightsDrawn();
    void nameColorsDrawn();
    void hitTesting();
    void selectionSignal();
    void correlationKernelToCpu();
    void correlationCpuToKernels();
    void correlationDrawn();
    void gapsComputed();
    void gapsDrawn();
    void lodClusterStillDrawn();
    void viewMemoryUnderTenthOfModel();
    void realTraceSmoke();
};

void TstTimelineView::trackTreeOrder() {
    auto tr = testTrace();
    TrackLayout l;
    l.setGpuFirst(false);
    l.build(*tr);
    QStringList labels;
    QList<int> ys;
    for (const TrackRow& r : l.rows()) {
        labels << r.label;
        ys << r.y;
    }
    QCOMPARE(labels, (QStringList{"python 100", "main 1", "GPU 0 (Test GPU)", "GPU idle",
                                  "Stream 7", "Stream 8"}));
    QCOMPARE(ys, (QList<int>{0, 22, 61, 83, 98, 125}));
    QCOMPARE(l.contentHeight(), 152);
}

void TstTimelineView::trackTreeOrderGpuFirst() {
    // The default: the GPU device group (header 22, idle row 12 + 3, two one-level streams of
    // 18 + 3 + 6 each) before the CPU process (header 22, a two-level thread 36 + 3).
    auto tr = testTrace();
    TrackLayout l;
    l.build(*tr);
    QStringList labels;
    QList<int> ys;
    for (const TrackRow& r : l.rows()) {
        labels << r.label;
        ys << r.y;
    }
    QCOMPARE(labels, (QStringList{"GPU 0 (Test GPU)", "GPU idle", "Stream 7", "Stream 8",
                                  "python 100", "main 1"}));
    QCOMPARE(ys, (QList<int>{0, 22, 37, 64, 91, 113}));
    QCOMPARE(l.contentHeight(), 152);
}

void TstTimelineView::sortIndexPutsGpuFirst() {
    auto tr = testTrace(true);
    TrackLayout l;
    l.build(*tr);
    QCOMPARE(l.rows().front().label, QStringLiteral("GPU 0 (Test GPU)"));
    QCOMPARE(l.groups().size(), size_t(2));
    QCOMPARE(l.groups()[1].label, QStringLiteral("python 100"));
}

void TstTimelineView::collapse() {
    Fixture f;
    QCOMPARE(f.view.visibleTrackLabelCount(), 6);
    f.view.setGroupCollapsed(0, true); // python: header stays, thread row hidden
    QCOMPARE(f.view.visibleTrackLabelCount(), 5);
    // The kernel's rect moves up by the thread row's 39 px: stream 7 at y 98 - 39 = 59.
    const SliceRef k = find(*f.trace, "gemm_kernel", 10000);
    QCOMPARE(f.view.sliceRect(k).y(), 59 + 1);
    // Selecting a slice on a collapsed track expands its group.
    f.view.selectSlice(find(*f.trace, "aten::mm", 1000));
    QCOMPARE(f.view.visibleTrackLabelCount(), 6);
}

void TstTimelineView::collapseByClickingHeader() {
    Fixture f;
    auto* tree = f.view.findChild<TrackTreeWidget*>();
    QVERIFY(tree);
    QTest::mouseClick(tree, Qt::LeftButton, {}, QPoint(40, 72)); // "GPU 0" header, y 61..83
    QCOMPARE(f.view.visibleTrackLabelCount(), 3);                // python header, main, GPU header
    QVERIFY(f.view.sliceRect(find(*f.trace, "gemm_kernel", 10000)).isNull());
    QTest::mouseClick(tree, Qt::LeftButton, {}, QPoint(40, 72));
    QCOMPARE(f.view.visibleTrackLabelCount(), 6);
    QTest::mouseClick(tree, Qt::LeftButton, {}, QPoint(40, 30)); // a thread row: no effect
    QCOMPARE(f.view.visibleTrackLabelCount(), 6);
}

void TstTimelineView::highlightsDrawn() {
    Fixture f;
    const SliceRef mm = find(*f.trace, "aten::mm", 1000);
    f.view.setHighlightedSlices({mm});
    const QImage img = f.image();
    const QRect rc = f.view.sliceRect(mm);
    const QRgb yellow = 0xffe8c800; // kHighlight in timeline_painter.cpp
    const int y = rc.center().y();
    QVERIFY(img.pixel(rc.x() + 1, y) == yellow || img.pixel(rc.x() + 2, y) == yellow);
}

void TstTimelineView::nameColorsDrawn() {
    // A colour the trace gives a name (NVTX attributes) replaces the palette's; other names
    // keep theirs.
    Fixture f(testTrace(false, true));
    const QImage img = f.image();
    const QRect add = f.view.sliceRect(find(*f.trace, "aten::add", 6000));
    const QRect mm = f.view.sliceRect(find(*f.trace, "aten::mm", 1000));
    QVERIFY(!add.isNull() && !mm.isNull());
    QCOMPARE(img.pixel(add.x() + 2, add.y() + 2), QRgb(0xff123456));
    QVERIFY(img.pixel(mm.x() + 2, mm.y() + 2) != QRgb(0xff123456));
    Fixture plain;
    const QImage before = plain.image();
    QVERIFY(before.pixel(add.x() + 2, add.y() + 2) != QRgb(0xff123456));
    QCOMPARE(before.pixel(mm.x() + 2, mm.y() + 2), img.pixel(mm.x() + 2, mm.y() + 2));
}

void TstTimelineView::hitTesting() {
    Fixture f;
    QWidget* area = f.view.tracksArea();
    struct Case {
        TimeNs t;
        int y;
        const char* name;
        TimeNs start;
    } cases[] = {
        {1500, 31, "aten::mm", 1000},         // depth 0 of "main" (y 22..40)
        {2500, 49, "cudaLaunchKernel", 2000}, // depth 1 (y 40..58)
        {2500, 31, "aten::mm", 1000},         // depth 0 above the launch
        {7000, 35, "aten::add", 6000},        {6700, 45, "cudaLaunchKernel", 6500},
        {15000, 107, "gemm_kernel", 10000}, // Stream 7 lane (y 98..116)
        {21000, 134, "Memcpy HtoD", 20500}, // Stream 8 lane (y 125..143)
    };
    for (const Case& c : cases) {
        const SliceRef want = find(*f.trace, c.name, c.start);
        QVERIFY(want.valid());
        QTest::mouseClick(area, Qt::LeftButton, {}, QPoint(f.x(c.t), c.y));
        QCOMPARE(f.view.selectedSlice(), want);
        QCOMPARE(f.view.sliceAtPixel(QPoint(f.x(c.t), c.y)), want);
    }
    // Empty places: depth 1 where there is no child, between slices, the header row.
    QVERIFY(!f.view.sliceAtPixel(QPoint(f.x(4500), 49)).valid());
    QVERIFY(!f.view.sliceAtPixel(QPoint(f.x(30000), 107)).valid());
    QVERIFY(!f.view.sliceAtPixel(QPoint(f.x(1500), 10)).valid());
}

void TstTimelineView::selectionSignal() {
    Fixture f;
    QSignalSpy spy(&f.view, &TimelineView::sliceSelected);
    const SliceRef k = find(*f.trace, "gemm_kernel", 10000);
    QTest::mouseClick(f.view.tracksArea(), Qt::LeftButton, {}, QPoint(f.x(15000), 107));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).value<SliceRef>(), k);
    // Clicking the same slice again does not signal; clicking a gap selects the call that
    // launched the op ending it (add_kernel's cudaLaunchKernel at 6500); empty space clears.
    QTest::mouseClick(f.view.tracksArea(), Qt::LeftButton, {}, QPoint(f.x(15000), 107));
    QCOMPARE(spy.count(), 1);
    QTest::mouseClick(f.view.tracksArea(), Qt::LeftButton, {}, QPoint(f.x(30000), 107));
    QCOMPARE(spy.count(), 2);
    QCOMPARE(spy.at(1).at(0).value<SliceRef>(), find(*f.trace, "cudaLaunchKernel", 6500));
    QTest::mouseClick(f.view.tracksArea(), Qt::LeftButton, {}, QPoint(f.x(1500), 10));
    QCOMPARE(spy.count(), 3);
    QVERIFY(!spy.at(2).at(0).value<SliceRef>().valid());
    QVERIFY(!f.view.selectedSlice().valid());
}

void TstTimelineView::correlationKernelToCpu() {
    auto tr = testTrace();
    const SliceRef gemm = find(*tr, "gemm_kernel", 10000),
                   launch = find(*tr, "cudaLaunchKernel", 2000), mm = find(*tr, "aten::mm", 1000);
    const Correlated c = correlatedWith(*tr, gemm);
    QCOMPARE(c.arrows.size(), size_t(1));
    QCOMPARE(c.arrows[0].first, launch);
    QCOMPARE(c.arrows[0].second, gemm);
    QVERIFY(c.contains(launch));
    QVERIFY(c.contains(mm));
    QCOMPARE(c.slices.size(), size_t(2));
}

void TstTimelineView::correlationCpuToKernels() {
    auto tr = testTrace();
    const SliceRef gemm = find(*tr, "gemm_kernel", 10000), addk = find(*tr, "add_kernel", 40000);
    const SliceRef launch43 = find(*tr, "cudaLaunchKernel", 6500);
    // cpu_op with External id 7 -> gemm (same External id) and the launch nested in it.
    Correlated c = correlatedWith(*tr, find(*tr, "aten::mm", 1000));
    QVERIFY(c.contains(gemm));
    QVERIFY(!c.contains(addk));
    // cpu_op without External id -> the kernel launched by the runtime call nested in it.
    c = correlatedWith(*tr, find(*tr, "aten::add", 6000));
    QVERIFY(c.contains(addk));
    QVERIFY(c.contains(launch43));
    QVERIFY(!c.contains(gemm));
    QCOMPARE(c.arrows.size(), size_t(1));
    // The runtime call -> its kernel, and its ancestor op.
    c = correlatedWith(*tr, launch43);
    QVERIFY(c.contains(addk));
    QVERIFY(c.contains(find(*tr, "aten::add", 6000)));
    QCOMPARE(c.arrows.size(), size_t(1));
    QCOMPARE(c.arrows[0].second, addk);
}

void TstTimelineView::correlationDrawn() {
    Fixture f;
    f.view.selectSlice(find(*f.trace, "gemm_kernel", 10000));
    const QImage img = f.image();
    // The launching call (depth 1, [2000,3000)) gets the orange outline.
    const QRect rc = f.view.sliceRect(find(*f.trace, "cudaLaunchKernel", 2000));
    QCOMPARE(rc.y(), 40 + 1);
    const int y = rc.center().y();
    QVERIFY(img.pixel(rc.x() + 1, y) == kCorrelated || img.pixel(rc.x() + 2, y) == kCorrelated);
}

void TstTimelineView::gapsComputed() {
    auto tr = testTrace();
    // The index of the trace's analysis at a gap threshold.
    auto at = [&tr](TimeNs threshold) {
        AnalysisSettings s;
        s.gapThreshold = threshold;
        return std::make_shared<const TraceAnalysis>(tr, s);
    };
    GapIndex g;
    g.build(at(10'000));
    QCOMPARE(g.streamGaps(0, 7).size(), size_t(1));
    QCOMPARE(g.streamGaps(0, 7)[0].start, TimeNs(20000));
    QCOMPARE(g.streamGaps(0, 7)[0].end, TimeNs(40000));
    QVERIFY(g.streamGaps(0, 8).empty()); // memcpy only: no kernel gaps
    QCOMPARE(g.deviceGaps(0).size(), size_t(1));
    QCOMPARE(g.deviceGaps(0)[0].start, TimeNs(22000));
    QCOMPARE(g.deviceGaps(0)[0].end, TimeNs(40000));
    // Its cause and tooltip: add_kernel was launched at 6500, before the gap began; the op before
    // the gap, the copy on stream 8 that ended at 22000, is what it waited on (18 µs before it).
    QCOMPARE(int(g.deviceGaps(0)[0].cause), int(GapCause::Dependency));
    const ExplainedGap* e = g.explained(g.deviceGaps(0)[0]);
    QVERIFY(e);
    QCOMPARE(gapDescription(*tr, *e).section('\n', 0, 1),
             QString("GPU idle 18.00 µs · dependency\nlaunched before the gap began; waited on "
                     "Memcpy HtoD (ended 18.00 µs before the next op)"));
    g.build(at(18'000)); // strictly longer than the threshold
    QCOMPARE(g.streamGaps(0, 7).size(), size_t(1));
    QVERIFY(g.deviceGaps(0).empty());
    g.build(at(400)); // the 500 ns device gap now counts too
    QCOMPARE(g.deviceGaps(0).size(), size_t(2));
    QCOMPARE(g.deviceGaps(0)[0].start, TimeNs(20000));
}

void TstTimelineView::gapsDrawn() {
    Fixture f;
    QCOMPARE(f.view.gapThresholdNs(), TimeNs(10'000));
    QImage img = f.image();
    const int stripY = 98 + 27 - 3 - 6 + 3; // inside Stream 7's idle strip
    const int idleY = 83 + 6;               // inside the device idle row
    // add_kernel (at 40000) was launched at 6500, before the gap began: a dependency, violet.
    QCOMPARE(img.pixel(f.x(30000), stripY), gapCauseColor(int(GapCause::Dependency)));
    QCOMPARE(img.pixel(f.x(30000), idleY), gapCauseColor(int(GapCause::Dependency)));
    // The 500 ns device gap is idle but not highlighted.
    const QRgb p = img.pixel(f.x(20250), idleY);
    QVERIFY2(p == kIdleFill || p == kIdleHatch, qPrintable(QString::number(p, 16)));
    f.view.setGapThresholdNs(30'000);
    img = f.image();
    const QRgb q = img.pixel(f.x(30000), stripY);
    QVERIFY2(q == kIdleFill || q == kIdleHatch, qPrintable(QString::number(q, 16)));
}

void TstTimelineView::lodClusterStillDrawn() {
    TraceBuilder b;
    const TrackId th = b.threadTrack(1, 1);
    add(b, th, 0, 10, "first", SliceKind::CpuOp);
    for (int i = 0; i < 50; ++i) add(b, th, 500'000 + 2 * i, 1, "tiny", SliceKind::CpuOp);
    add(b, th, 999'990, 10, "last", SliceKind::CpuOp);
    auto tr = b.build();
    TimelineView view;
    view.resize(1230, 400);
    view.setTrace(tr);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const int w = view.tracksArea()->width();
    QImage img(view.tracksArea()->size(), QImage::Format_ARGB32_Premultiplied);
    view.tracksArea()->render(&img);
    // ~1000 ns per pixel: the 100 ns cluster is a tenth of a pixel, and still drawn.
    const int xc = static_cast<int>(500'050.0 * w / 1'000'000.0);
    const int y = 22 + 9;
    bool drawn = false;
    for (int x = xc - 1; x <= xc + 1; ++x) drawn |= img.pixel(x, y) != kBackground;
    QVERIFY(drawn);
    QCOMPARE(img.pixel(w / 4, y), kBackground);
    // Hit testing in the merged run finds one of the tiny slices.
    const SliceRef r = view.sliceAtPixel(QPoint(xc, y));
    QVERIFY(r.valid());
    QCOMPARE(tr->name(r), std::string_view("tiny"));
}

void TstTimelineView::viewMemoryUnderTenthOfModel() {
    TraceBuilder b;
    const TrackId th = b.threadTrack(1, 1);
    const TrackId gs = b.gpuStreamTrack(0, 7, 0, 7);
    for (int i = 0; i < 100'000; ++i) {
        add(b, th, i * 1000, 900, "op", SliceKind::CpuOp);
        add(b, th, i * 1000 + 100, 500, "cudaLaunchKernel", SliceKind::CudaRuntime, i);
        add(b, gs, i * 1000 + 700, 200 + (i % 7) * 100, "kernel", SliceKind::Kernel, i);
    }
    auto tr = b.build();
    TimelineView view;
    view.resize(1230, 600);
    view.setTrace(tr);
    view.buildLevelOfDetail();
    QImage img(view.size(), QImage::Format_ARGB32_Premultiplied);
    view.render(&img);
    QVERIFY2(view.viewMemoryBytes() * 10 < tr->memoryBytes(),
             qPrintable(QStringLiteral("view %1 B, model %2 B")
                            .arg(view.viewMemoryBytes())
                            .arg(tr->memoryBytes())));
}

// A real Kineto trace: every kernel can be selected and correlated, and the view paints at
// several zooms without trouble.
void TstTimelineView::realTraceSmoke() {
    const QString path =
        QStringLiteral(STRATA_SHARED_TRACES "/hta__mi250_minitoy_train_ROCm6_2_kineto.json.gz");
    if (!QFile::exists(path)) QSKIP("shared trace not present");
    LoadResult r = loadTrace(path.toStdString());
    QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "load failed");
    TimelineView view;
    view.resize(1400, 800);
    view.setTrace(r.trace);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(view.visibleTrackLabelCount() > 0);
    int kernels = 0;
    for (TrackId t = 0; t < r.trace->tracks().size(); ++t)
        for (SliceIndex i = 0; i < r.trace->track(t).slices.size(); ++i)
            if (r.trace->kind({t, i}) == SliceKind::Kernel) {
                view.selectSlice({t, i});
                QCOMPARE(view.selectedSlice(), (SliceRef{t, i}));
                QVERIFY(!view.sliceRect({t, i}).isNull());
                ++kernels;
            }
    QCOMPARE(kernels, 14); // the README: 14 kernels
    QImage img(view.size(), QImage::Format_ARGB32_Premultiplied);
    for (int k = 0; k < 6; ++k) {
        QTest::keyClick(&view, Qt::Key_W);
        view.render(&img);
    }
    QTest::keyClick(&view, Qt::Key_Home);
    // The whole trace: what was recorded, without the profiler's trace-wide markers (issue 28).
    QCOMPARE(view.visibleRange(), r.trace->contentBounds());
}

STRATA_TEST_MAIN(TstTimelineView)
#include "tst_timeline_view.moc"
