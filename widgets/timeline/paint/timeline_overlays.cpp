#include "timeline_overlays.h"

#include "instant_marks.h"

#include "model/names/time_text.h"

#include <QPainterPath>

#include <algorithm>

namespace strata {

namespace {

constexpr QRgb kSelection = 0xff101418;
constexpr QRgb kCorrelated = 0xfff08c00;
constexpr QRgb kHighlight = 0xffe8c800;

} // namespace

void drawFlowArrow(QPainter& p, QPointF a, QPointF b, const QColor& col) {
    p.setPen(QPen(col, 1.5));
    QPainterPath path(a);
    const double dy = b.y() - a.y();
    path.cubicTo(a + QPointF(0, dy * 0.5), b - QPointF(0, dy * 0.5), b);
    p.setBrush(Qt::NoBrush);
    p.drawPath(path);
    const QPointF dir = dy >= 0 ? QPointF(0, 1) : QPointF(0, -1);
    QPolygonF head;
    head << b << b - dir * 7 + QPointF(-4, 0) << b - dir * 7 + QPointF(4, 0);
    p.setBrush(col);
    p.drawPolygon(head);
}

void paintOverlays(PainterFrame& f) {
    const TimelineState& s = f.s;
    const std::optional<TimeRange> range = s.range();
    const QRect view(0, 0, f.w, f.h);
    if (range) {
        const QRect rc =
            s.spanRect(range->start, range->end, 0, f.h).intersected(view.adjusted(-1, 0, 1, 0));
        f.p.fillRect(rc, QColor(60, 120, 215, 36));
        f.p.setPen(QColor(60, 120, 215, 160));
        f.p.drawLine(rc.topLeft(), rc.bottomLeft());
        f.p.drawLine(rc.topRight(), rc.bottomRight());
    }
    f.p.setBrush(Qt::NoBrush);
    size_t n = 0;
    f.p.setPen(QPen(QColor::fromRgb(kHighlight), 2));
    for (SliceRef r : s.highlights) {
        const QRect rc = s.sliceRect(r);
        if (rc.isNull() || !rc.intersects(view)) continue;
        f.p.drawRect(rc.adjusted(1, 1, -1, -1));
        if (++n > 20000) break;
    }
    for (InstantRef r : s.instantHighlights) {
        const QRect rc = instantRect(s, r);
        if (!rc.isNull() && rc.intersects(view)) f.p.drawRect(rc.adjusted(-1, -1, 1, 1));
    }
    f.p.setPen(QPen(QColor::fromRgb(kCorrelated), 2));
    for (SliceRef r : s.correlated.slices) {
        const QRect rc = s.sliceRect(r);
        if (!rc.isNull() && rc.intersects(view)) f.p.drawRect(rc.adjusted(1, 1, -1, -1));
    }
    f.p.setRenderHint(QPainter::Antialiasing, true);
    auto arrow = [&](SliceRef a, SliceRef b, const QColor& col) {
        const QRect ra = s.sliceRect(a), rb = s.sliceRect(b);
        if (ra.isNull() || rb.isNull()) return;
        const bool down = rb.center().y() >= ra.center().y();
        const QPointF pa(ra.x() + 0.5, down ? ra.bottom() + 1 : ra.top());
        const QPointF pb(rb.x() + 0.5, down ? rb.top() : rb.bottom() + 1);
        if (QRectF(view).intersects(QRectF(pa, pb).normalized().adjusted(-1, -1, 1, 1)))
            drawFlowArrow(f.p, pa, pb, col);
    };
    if (s.showAllFlows) {
        f.c.flows().forEachIn(f.trace, f.tq0, f.tq1, 3000, [&](const Flow& fl) {
            arrow(fl.from, fl.to, QColor(110, 120, 135, 170));
        });
    }
    for (const auto& [a, b] : s.correlated.arrows) arrow(a, b, QColor::fromRgb(kCorrelated));
    f.p.setRenderHint(QPainter::Antialiasing, false);
    const QRect sel = s.sliceRect(s.selected());
    if (!sel.isNull() && sel.intersects(view)) {
        // Two pixels just outside the slice: its label (underscores on the bottom row
        // included) stays whole.
        f.p.setBrush(Qt::NoBrush);
        f.p.setPen(QPen(QColor::fromRgb(kSelection), 1));
        f.p.drawRect(sel.adjusted(-1, -1, 0, 0));
        f.p.drawRect(sel.adjusted(-2, -2, 1, 1));
    }
    if (const QRect rc = instantRect(s, s.currentInstant); !rc.isNull() && rc.intersects(view)) {
        f.p.setBrush(Qt::NoBrush);
        f.p.setPen(QPen(QColor::fromRgb(kSelection), 1));
        f.p.drawRect(rc.adjusted(-2, -2, 1, 1));
    }
    if (range) {
        const QString text = QString::fromStdString(formatDuration(range->duration()));
        const QRect rc = s.spanRect(range->start, range->end, 2, f.fm.height() + 4);
        QRect box(0, 2, f.fm.horizontalAdvance(text) + 10, f.fm.height() + 4);
        box.moveCenter(QPoint(std::clamp(rc.center().x(), box.width() / 2, f.w - box.width() / 2),
                              box.center().y()));
        f.p.fillRect(box, QColor(60, 120, 215, 220));
        f.p.setPen(Qt::white);
        f.p.drawText(box, Qt::AlignCenter, text);
    }
}

} // namespace strata
