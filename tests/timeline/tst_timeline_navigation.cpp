// TimelineView navigation on the offscreen platform: the keyboard (W/S zoom, A/D pan, Home),
// the wheel (zoom at the cursor, the scroll setting), a range dragged on the ruler, zoom to the
// selection, all flows shown. The trace and its geometry: timeline_view_fixture.h.
#include "support/test_main.h"
#include "timeline/timeline_ruler.h"
#include "timeline/timeline_view.h"
#include "timeline_view_fixture.h"

#include <QImage>
#include <QSignalSpy>
#include <QTest>

using namespace strata;
using namespace strata::test;

class TstTimelineNavigation : public QObject {
    Q_OBJECT
private slots:
    void keyboard();
    void wheelZoomAtCursor();
    void wheelScrollsSetting();
    void rangeOnRuler();
    void zoomToSelection();
    void allFlowsToggle();
};

void TstTimelineNavigation::keyboard() {
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

void TstTimelineNavigation::wheelZoomAtCursor() {
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

void TstTimelineNavigation::wheelScrollsSetting() {
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

void TstTimelineNavigation::rangeOnRuler() {
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

void TstTimelineNavigation::zoomToSelection() {
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

void TstTimelineNavigation::allFlowsToggle() {
    Fixture f;
    QVERIFY(!f.view.showAllFlows());
    f.view.setShowAllFlows(true);
    QVERIFY(f.view.showAllFlows());
    const QImage img = f.image(); // draws the flows in view (none of the checks below depend on AA)
    QVERIFY(!img.isNull());
    f.view.setShowAllFlows(false);
    QVERIFY(!f.view.showAllFlows());
}

STRATA_TEST_MAIN(TstTimelineNavigation)
#include "tst_timeline_navigation.moc"
