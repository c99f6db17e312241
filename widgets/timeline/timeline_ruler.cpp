#include "timeline_ruler.h"

#include "model/time_text.h"
#include "timeline_state.h"

#include <QMouseEvent>
#include <QPainter>

#include <cmath>
#include <cstdlib>

namespace strata {

TimelineRuler::TimelineRuler(const TimelineState& state, QWidget* parent)
    : QWidget(parent), s_(state) {
    setFixedHeight(26);
    setCursor(Qt::IBeamCursor);
}

void TimelineRuler::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), QColor(0xf1, 0xf2, 0xf4));
    p.setPen(QColor(0xc8, 0xcc, 0xd2));
    p.drawLine(0, height() - 1, width(), height() - 1);
    if (!s_.trace) return;
    const TimeRange v = s_.axis.visible();
    const TimeNs origin = s_.trace->bounds().start;
    const TimeNs step = chooseTickStep(s_.axis.nsPerPixel(), kMinTickPixels);
    const TimeNs minor = step % 5 == 0 ? step / 5 : (step % 2 == 0 ? step / 2 : 0);
    const TimeNs rel0 = v.start - origin, rel1 = v.end - origin;
    if (const std::optional<TimeRange> range = s_.range()) {
        const QRect rc = s_.spanRect(range->start, range->end, 0, height());
        p.fillRect(rc, QColor(60, 120, 215, 60));
    }
    if (minor > 0) {
        p.setPen(QColor(0xa8, 0xae, 0xb6));
        for (TimeNs t = (rel0 / minor) * minor; t <= rel1; t += minor) {
            const int x = static_cast<int>(std::lround(s_.axis.xForTime(origin + t)));
            p.drawLine(x, height() - 4, x, height() - 1);
        }
    }
    p.setPen(QColor(0x40, 0x46, 0x50));
    TimeNs t = (rel0 / step) * step;
    if (t < rel0) t += step;
    for (; t <= rel1; t += step) {
        const int x = static_cast<int>(std::lround(s_.axis.xForTime(origin + t)));
        p.drawLine(x, height() - 10, x, height() - 1);
        const QString label =
            QString::fromStdString(formatTick(t, step, std::max<TimeNs>(std::llabs(rel1), step)));
        // Right of its tick, or left of it where the right edge would clip it (the last one).
        const int w = p.fontMetrics().horizontalAdvance(label);
        if (x + 3 + w <= width())
            p.drawText(QRect(x + 3, 0, w + 2, height() - 6), Qt::AlignLeft | Qt::AlignVCenter,
                       label);
        else
            p.drawText(QRect(x - 3 - w, 0, w, height() - 6), Qt::AlignRight | Qt::AlignVCenter,
                       label);
    }
}

void TimelineRuler::mousePressEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton || !s_.trace) return;
    pressX_ = static_cast<int>(e->position().x());
    dragStart_ = s_.axis.timeForX(e->position().x());
    dragging_ = false;
}

std::optional<TimeRange> TimelineRuler::dragRange(int x) const {
    if (!dragStart_ || !s_.trace) return std::nullopt;
    const TimeRange b = s_.trace->bounds();
    const TimeNs t = std::clamp(s_.axis.timeForX(x), b.start, b.end);
    const TimeNs a = std::clamp(*dragStart_, b.start, b.end);
    return TimeRange{std::min(a, t), std::max(a, t)};
}

void TimelineRuler::mouseMoveEvent(QMouseEvent* e) {
    if (!dragStart_) return;
    const int x = static_cast<int>(e->position().x());
    if (!dragging_ && std::abs(x - pressX_) < 3) return;
    dragging_ = true;
    emit rangeDragging(*dragRange(x));
}

void TimelineRuler::mouseReleaseEvent(QMouseEvent* e) {
    if (!dragStart_) return;
    mouseMoveEvent(e);
    const std::optional<TimeRange> r =
        dragging_ ? dragRange(static_cast<int>(e->position().x())) : std::nullopt;
    dragStart_.reset();
    dragging_ = false;
    emit rangeChosen(r);
}

} // namespace strata
