#include "modes/screenshot_hover.h"

#include "modes/screenshot.h"

#include "analysis/trace_analysis.h"
#include "timeline/layout/track_layout.h"
#include "timeline/timeline_view.h"
#include "window/main_window.h"

#include <QApplication>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <cstdio>

namespace strata {

namespace {

// The longest device gap over the threshold that overlaps `v`.
const ExplainedGap* longestGapIn(const GapCauses& g, TimeRange v) {
    const ExplainedGap* best = nullptr;
    for (const ExplainedGap& e : g.deviceGaps)
        if (e.gap.start < v.end && e.gap.end > v.start &&
            (!best || e.gap.duration() > best->gap.duration()))
            best = &e;
    return best;
}

QWidget* visibleTooltip() {
    for (QWidget* w : QApplication::topLevelWidgets())
        if (w->inherits("QTipLabel") && w->isVisible()) return w;
    return nullptr;
}

// The window's picture with the tooltip drawn where it shows.
QPixmap withTooltip(MainWindow& w, QWidget* tip) {
    QPixmap shot = w.grab();
    QPainter p(&shot);
    p.drawPixmap(w.mapFromGlobal(tip->mapToGlobal(QPoint(0, 0))), tip->grab());
    return shot;
}

} // namespace

std::optional<QPixmap> grabWithGapTooltip(MainWindow& w) {
    TimelineView* view = w.timeline();
    view->waitForGaps();
    const std::shared_ptr<const TraceAnalysis> a = view->gapAnalysis();
    const TimeRange v = view->visibleRange();
    const ExplainedGap* e = a ? longestGapIn(a->gapCauses(), v) : nullptr;
    const TrackRow* row = nullptr;
    for (const TrackRow& r : view->layout().rows())
        if (e && r.kind == TrackRow::Kind::DeviceIdle && r.device == e->gap.device && r.height > 0)
            row = &r;
    if (!e || !row) {
        std::fprintf(stderr, "strata: --hover-gap: no GPU gap over the threshold in view\n");
        return std::nullopt;
    }
    QWidget* area = view->tracksArea();
    auto xOf = [&](TimeNs t) {
        return int(double(std::clamp(t, v.start, v.end) - v.start) / double(v.duration()) *
                   area->width());
    };
    const int y = row->y + row->height / 2 - view->verticalScroll();
    auto hoverAt = [&](int x) {
        const QPoint pos(x, y);
        QMouseEvent move(QEvent::MouseMove, QPointF(pos), QPointF(area->mapToGlobal(pos)),
                         Qt::NoButton, Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(area, &move);
        settleEvents(400);
        return visibleTooltip();
    };
    const int first = xOf(e->gap.start) + 2, last = xOf(e->gap.end) - 2;
    QWidget* tip = hoverAt((first + last) / 2);
    // A tooltip that runs past the window's right edge: hovered again further left in the gap.
    if (tip) {
        const int overflow =
            w.mapFromGlobal(tip->mapToGlobal(QPoint(tip->width(), 0))).x() - w.width() + 8;
        if (overflow > 0) {
            QToolTip::hideText(); // a tooltip showing the same text would stay where it is
            settleEvents(400);
            tip = hoverAt(std::max(first, (first + last) / 2 - overflow));
        }
    }
    if (!tip) {
        std::fprintf(stderr, "strata: --hover-gap: no tooltip showed over the gap\n");
        return std::nullopt;
    }
    return withTooltip(w, tip);
}

std::optional<QPixmap> grabWithIdleRowTooltip(MainWindow& w) {
    TimelineView* view = w.timeline();
    view->waitForGaps();
    const TrackRow* row = nullptr;
    for (const TrackRow& r : view->layout().rows())
        if (!row && r.kind == TrackRow::Kind::DeviceIdle && r.height > 0) row = &r;
    if (!row) {
        std::fprintf(stderr, "strata: --hover-idle-row: no GPU idle row is shown\n");
        return std::nullopt;
    }
    QWidget* area = view->tracksArea();
    const int y = row->y + row->height / 2 - view->verticalScroll();
    // From a fifth across, rightwards, the first place outside a gap (a gap has its own tooltip).
    for (int x = area->width() / 5; x < area->width(); x += 8) {
        const QPoint pos(x, y);
        QMouseEvent move(QEvent::MouseMove, QPointF(pos), QPointF(area->mapToGlobal(pos)),
                         Qt::NoButton, Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(area, &move);
        settleEvents(100);
        if (QWidget* tip = visibleTooltip(); tip && QToolTip::text().startsWith("GPU ")) {
            settleEvents(300);
            return withTooltip(w, tip);
        }
    }
    std::fprintf(stderr, "strata: --hover-idle-row: no place outside a gap on the idle row\n");
    return std::nullopt;
}

std::optional<QPixmap> grabWithSampleTooltip(MainWindow& w) {
    TimelineView* view = w.timeline();
    const TrackLayout& layout = view->layout();
    int laneY = -1, laneHeight = 0;
    for (int r = 0; r < int(layout.rows().size()) && laneY < 0; ++r)
        laneY = layout.samplesY(r, &laneHeight);
    if (laneY < 0) {
        std::fprintf(stderr, "strata: --hover-sample: no sample lane is shown\n");
        return std::nullopt;
    }
    QWidget* area = view->tracksArea();
    // From 40 % across, the first pixel where a sample is drawn (a thread may have paused there).
    QPoint pos(area->width() * 2 / 5, laneY + laneHeight / 2 - view->verticalScroll());
    while (pos.x() < area->width() && view->sampleTextAt(pos).isEmpty()) pos.rx() += 1;
    // Clicked (Details shows the sample), then hovered (its tooltip).
    const QPointF global(area->mapToGlobal(pos));
    QMouseEvent press(QEvent::MouseButtonPress, QPointF(pos), global, Qt::LeftButton,
                      Qt::LeftButton, Qt::NoModifier);
    QMouseEvent release(QEvent::MouseButtonRelease, QPointF(pos), global, Qt::LeftButton,
                        Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(area, &press);
    QApplication::sendEvent(area, &release);
    QMouseEvent move(QEvent::MouseMove, QPointF(pos), global, Qt::NoButton, Qt::NoButton,
                     Qt::NoModifier);
    QApplication::sendEvent(area, &move);
    settleEvents(400);
    QWidget* tip = visibleTooltip();
    if (!tip) {
        std::fprintf(stderr, "strata: --hover-sample: no sample is drawn there\n");
        return std::nullopt;
    }
    return withTooltip(w, tip);
}

} // namespace strata
