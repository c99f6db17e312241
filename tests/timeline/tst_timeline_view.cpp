// TimelineView on the offscreen platform: track tree order and labels, hit testing with real
// mouse clicks at every depth and on a GPU lane, selection signals, correlation both ways,
// launch gaps (computed and drawn), level of detail (a sub-pixel cluster is still drawn),
// keyboard navigation, range selection on the ruler.
//
// The test trace (times in ns; layout constants from track_layout.h: header 22 px, depth row
// 18 px, row padding 3, GPU idle row 12+3, stream strip 6):
//   pid 100 "python", tid 1 "main"                      rows: y 0   header "python 100"
//     aten::mm [1000,5000) ext 7                                y 22  "main 1" (2 depths, h 39)
//       cudaLaunchKernel [2000,3000) corr 42 ext 7             y 61  header "GPU 0 (Test GPU)"
//     aten::add [6000,8000)                                     y 83  "GPU idle" (h 15)
//       cudaLaunchKernel [6500,7000) corr 43                    y 98  "Stream 7" (h 27)
//   GPU 0 stream 7: gemm_kernel [10000,20000) corr 42 ext 7     y 125 "Stream 8" (h 27)
//                   add_kernel [40000,41000) corr 43
//   GPU 0 stream 8: Memcpy HtoD [20500,22000)
// Bounds [1000, 41000). Stream 7 kernel gap: [20000,40000) = 20 us. Device busy union:
// [10000,20000) [20500,22000) [40000,41000) -> device gaps 500 ns and [22000,40000) = 18 us.
#include "analysis/correlation.h"
#include "style/gap_style.h"
#include "support/test_main.h"
#include "timeline/layout/track_layout.h"
#include "timeline/lod/gap_index.h"
#include "timeline/timeline_ruler.h"
#include "timeline/timeline_view.h"
#include "timeline/track_tree_widget.h"

#include "io/trace_loader.h"
#include "model/build/trace_builder.h"

#include <QFile>
#include <QImage>
#include <QSignalSpy>
#include <QTest>

using namespace strata;

namespace {
constexpr QRgb kBackground = 0xfffcfcfd; // timeline_painter.cpp
constexpr QRgb kLongGap = 0xffd6453a;
constexpr QRgb kIdleFill = 0xfff7dcd8;
constexpr QRgb kIdleHatch = 0xffd98a80;
constexpr QRgb kCorrelated = 0xfff08c00;

SliceRef add(TraceBuilder& b, TrackId t, TimeNs s, TimeNs d, const char* name, SliceKind k,
             int64_t corr = -1, int64_t ext = -1) {
    SliceInput in;
    in.start = s;
    in.dur = d;
    in.name = b.intern(name);
    in.kind = k;
    in.correlation = corr;
    in.externalId = ext;
    b.addSlice(t, in);
    return {};
}

std::shared_ptr<const Trace> testTrace(bool gpuFirst = false, bool colored = false) {
    TraceBuilder b;
    if (colored) b.setNameColor(b.intern("aten::add"), 0x80123456); // drawn opaque
    b.setProcessName(100, b.intern("python"));
    b.setThreadName(100, 1, b.intern("main"));
    if (gpuFirst) {
        b.setProcessSortIndex(0, -5);
        b.setProcessSortIndex(100, 10);
    }
    DeviceInfo dev;
    dev.id = 0;
    dev.name = "Test GPU";
    b.addDevice(dev);
    const TrackId th = b.threadTrack(100, 1);
    add(b, th, 1000, 4000, "aten::mm", SliceKind::CpuOp, -1, 7);
    add(b, th, 2000, 1000, "cudaLaunchKernel", SliceKind::CudaRuntime, 42, 7);
    add(b, th, 6000, 2000, "aten::add", SliceKind::CpuOp);
    add(b, th, 6500, 500, "cudaLaunchKernel", SliceKind::CudaRuntime, 43);
    const TrackId s7 = b.gpuStreamTrack(0, 7, 0, 7);
    add(b, s7, 10000, 10000, "gemm_kernel", SliceKind::Kernel, 42, 7);
    add(b, s7, 40000, 1000, "add_kernel", SliceKind::Kernel, 43);
    const TrackId s8 = b.gpuStreamTrack(0, 8, 0, 8);
    add(b, s8, 20500, 1500, "Memcpy HtoD", SliceKind::Memcpy);
    return b.build();
}

SliceRef find(const Trace& tr, std::string_view name, TimeNs start) {
    for (TrackId t = 0; t < tr.tracks().size(); ++t) {
        const auto& s = tr.track(t).slices;
        for (SliceIndex i = 0; i < s.size(); ++i)
            if (tr.str(s.name[i]) == name && s.start[i] == start) return {t, i};
    }
    return {};
}

struct Fixture {
    std::shared_ptr<const Trace> trace;
    TimelineView view;
    // The geometry below is worked out for the CPU processes above the GPU (the layout's other
    // order; the default, GPU first, is checked in trackTreeOrderGpuFirst).
    explicit Fixture(std::shared_ptr<const Trace> t = testTrace(), bool gpuFirst = false)
        : trace(std::move(t)) {
        view.resize(1230, 600);
        view.setGpuSectionFirst(gpuFirst);
        view.setTrace(trace);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.waitForGaps(); // indexed off the GUI thread: a click on a gap finds it
    }
    int width() const { return view.tracksArea()->width(); }
    // x of time t in the whole-trace view, independent of the view's code.
    int x(TimeNs t) const {
        return static_cast<int>((t - 1000) * static_cast<double>(width()) / 40000.0);
    }
    QImage image() {
        view.waitForGaps(); // indexed off the GUI thread
        QImage img(view.tracksArea()->size(), QImage::Format_ARGB32_Premultiplied);
        view.tracksArea()->render(&img);
        return img;
    }
};
} // namespace

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
    void keyboard();
    void wheelZoomAtCursor();
    void wheelScrollsSetting();
    void rangeOnRuler();
    void zoomToSelection();
    void viewMemoryUnderTenthOfModel();
    void allFlowsToggle();
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

void TstTimelineView::keyboard() {
    Fixture f;
    QSignalSpy spy(&f.view, &TimelineView::visibleRangeChanged);
    // W: duration x0.8 around the centre: 21000 +- 16000.
    QTest::keyClick(&f.view, Qt::Key_W);
    QCOMPARE(f.view.visibleRange(), (TimeRange{5000, 37000}));
    QCOMPARE(spy.count(), 1);
    // D: pan right by a fifth (6400) -> [11400, 43400), clamped at the end -> [9000, 41000).
    QTest::keyClick(&f.view, Qt::Key_D);
    QCOMPARE(f.view.visibleRange(), (TimeRange{9000, 41000}));
    // A twice: [2600, 34600), then clamped at the start -> [1000, 33000).
    QTest::keyClick(&f.view, Qt::Key_A);
    QCOMPARE(f.view.visibleRange(), (TimeRange{2600, 34600}));
    QTest::keyClick(&f.view, Qt::Key_A);
    QCOMPARE(f.view.visibleRange(), (TimeRange{1000, 33000}));
    // S: duration / 0.8 = 40000 around 17000 -> whole trace after clamping.
    QTest::keyClick(&f.view, Qt::Key_S);
    QCOMPARE(f.view.visibleRange(), (TimeRange{1000, 41000}));
    // F with a selection: the slice plus 10 % each side.
    f.view.selectSlice(find(*f.trace, "gemm_kernel", 10000), false);
    QTest::keyClick(&f.view, Qt::Key_F);
    QCOMPARE(f.view.visibleRange(), (TimeRange{9000, 21000}));
    QTest::keyClick(&f.view, Qt::Key_Home);
    QCOMPARE(f.view.visibleRange(), (TimeRange{1000, 41000}));
}

void TstTimelineView::wheelZoomAtCursor() {
    Fixture f;
    QWidget* area = f.view.tracksArea();
    const QPoint pos(f.x(11000), 60);
    const TimeNs before = 1000 + static_cast<TimeNs>(pos.x() * 40000.0 / f.width() + 0.5);
    QWheelEvent ev(QPointF(pos), QPointF(area->mapToGlobal(pos)), QPoint(), QPoint(0, 120),
                   Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(area, &ev);
    const TimeRange v = f.view.visibleRange();
    QCOMPARE(v.duration(), TimeNs(32000)); // one notch: x0.8
    const double t = v.start + pos.x() * static_cast<double>(v.duration()) / f.width();
    QVERIFY(std::abs(t - before) <= 1.0);
    // Ctrl+wheel zooms the same way.
    QWheelEvent ev2(QPointF(pos), QPointF(area->mapToGlobal(pos)), QPoint(), QPoint(0, 120),
                    Qt::NoButton, Qt::ControlModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(area, &ev2);
    QCOMPARE(f.view.visibleRange().duration(), TimeNs(25600));
    // A horizontal wheel (touchpad) pans by a tenth of the view per notch: -(-120/120) * 0.1.
    const TimeRange beforePan = f.view.visibleRange();
    QWheelEvent ev3(QPointF(pos), QPointF(area->mapToGlobal(pos)), QPoint(), QPoint(-120, 0),
                    Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(area, &ev3);
    QCOMPARE(f.view.visibleRange().start, beforePan.start + 2560);
    QCOMPARE(f.view.visibleRange().duration(), beforePan.duration());
}

void TstTimelineView::wheelScrollsSetting() {
    // Perfetto's habit: the wheel scrolls the tracks, Ctrl zooms, Shift pans.
    Fixture f;
    f.view.setWheelScrolls(true);
    QWidget* area = f.view.tracksArea();
    const QPoint pos(f.x(11000), 60);
    const TimeRange v0 = f.view.visibleRange();
    f.view.setVerticalScroll(40);
    const int scroll0 = f.view.verticalScroll();
    QWheelEvent down(QPointF(pos), QPointF(area->mapToGlobal(pos)), QPoint(), QPoint(0, -120),
                     Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(area, &down);
    QCOMPARE(f.view.visibleRange(), v0);         // no zoom
    QVERIFY(f.view.verticalScroll() >= scroll0); // scrolled down (or at the bottom already)
    QWheelEvent zoom(QPointF(pos), QPointF(area->mapToGlobal(pos)), QPoint(), QPoint(0, 120),
                     Qt::NoButton, Qt::ControlModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(area, &zoom);
    QCOMPARE(f.view.visibleRange().duration(), TimeNs(32000));
    const TimeRange v1 = f.view.visibleRange();
    QWheelEvent pan(QPointF(pos), QPointF(area->mapToGlobal(pos)), QPoint(), QPoint(0, -120),
                    Qt::NoButton, Qt::ShiftModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(area, &pan);
    QCOMPARE(f.view.visibleRange().start, v1.start + 3200);
}

void TstTimelineView::rangeOnRuler() {
    Fixture f;
    auto* ruler = f.view.findChild<TimelineRuler*>();
    QVERIFY(ruler);
    QSignalSpy spy(&f.view, &TimelineView::rangeSelected);
    const int x0 = f.x(11000), x1 = f.x(21000);
    QTest::mousePress(ruler, Qt::LeftButton, {}, QPoint(x0, 10));
    QTest::mouseMove(ruler, QPoint((x0 + x1) / 2, 10));
    QTest::mouseRelease(ruler, Qt::LeftButton, {}, QPoint(x1, 10));
    QCOMPARE(spy.count(), 1);
    auto r = spy.at(0).at(0).value<std::optional<TimeRange>>();
    QVERIFY(r.has_value());
    const double npp = 40000.0 / f.width();
    QCOMPARE(r->start, 1000 + static_cast<TimeNs>(x0 * npp + 0.5));
    QCOMPARE(r->end, 1000 + static_cast<TimeNs>(x1 * npp + 0.5));
    QCOMPARE(f.view.selectedRange(), r);
    // A plain click on the ruler clears it.
    QTest::mouseClick(ruler, Qt::LeftButton, {}, QPoint(x0, 10));
    QCOMPARE(spy.count(), 2);
    QVERIFY(!f.view.selectedRange().has_value());
}

void TstTimelineView::zoomToSelection() {
    Fixture f;
    f.view.setSelectedRange(TimeRange{20000, 30000});
    f.view.zoomToSelection(); // no slice selected: the range
    QCOMPARE(f.view.visibleRange(), (TimeRange{20000, 30000}));
    f.view.zoomToAll();
    // selectSlice with ensureVisible on a narrow view pans to the slice, keeping the zoom.
    f.view.setVisibleRange({1000, 3000});
    f.view.selectSlice(find(*f.trace, "add_kernel", 40000));
    QCOMPARE(f.view.visibleRange().duration(), TimeNs(2000));
    QVERIFY(f.view.visibleRange().start <= 40000 && f.view.visibleRange().end >= 41000);
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

void TstTimelineView::allFlowsToggle() {
    Fixture f;
    QVERIFY(!f.view.showAllFlows());
    f.view.setShowAllFlows(true);
    QVERIFY(f.view.showAllFlows());
    const QImage img = f.image(); // draws the flows in view (none of the checks below depend on AA)
    QVERIFY(!img.isNull());
    f.view.setShowAllFlows(false);
    QVERIFY(!f.view.showAllFlows());
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
