#include "timeline_ruler.h"

#include "style/theme.h"

#include "ruler_labels.h"
#include "timeline/paint/note_marks.h"
#include "timeline_state.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

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
    const ThemeColors colors = themeColors();
    p.fillRect(rect(), colors.ruler);
    p.setPen(colors.rulerLine);
    p.drawLine(0, height() - 1, width(), height() - 1);
    if (!s_.trace) return;
    const TimeRange v = s_.axis.visible();
    const TimeNs origin = s_.trace->bounds().start;
    const RulerTicks ticks = this->ticks();
    if (const std::optional<TimeRange> range = s_.range()) {
        const QRect rc = s_.spanRect(range->start, range->end, 0, height());
        p.fillRect(rc, QColor(60, 120, 215, 60));
    }
    if (ticks.minor > 0) {
        p.setPen(colors.rulerTick);
        const TimeNs rel0 = v.start - origin, rel1 = v.end - origin;
        for (TimeNs t = (rel0 / ticks.minor) * ticks.minor; t <= rel1; t += ticks.minor) {
            const int x = static_cast<int>(std::lround(s_.axis.xForTime(origin + t)));
            p.drawLine(x, height() - 4, x, height() - 1);
        }
    }
    p.setPen(colors.rulerText);
    const TimeNs rel0 = v.start - origin, rel1 = v.end - origin;
    TimeNs t = (rel0 / ticks.step) * ticks.step;
    if (t < rel0) t += ticks.step;
    for (; t <= rel1; t += ticks.step) {
        const int x = static_cast<int>(std::lround(s_.axis.xForTime(origin + t)));
        p.drawLine(x, height() - 10, x, height() - 1);
    }
    for (const RulerTicks::Label& l : ticks.labels)
        p.drawText(l.rect, Qt::AlignLeft | Qt::AlignVCenter, l.text);
    paintRulerNoteMarks(p, s_, width(), height());
}

int TimelineRuler::markAt(QPoint pos) const {
    if (!s_.trace || pos.y() > kRulerMarkHeight + 2) return -1;
    return noteAtX(s_, pos.x(), true);
}

void TimelineRuler::mouseDoubleClickEvent(QMouseEvent* e) {
    if (const int i = markAt(e->position().toPoint()); i >= 0) emit noteDoubleClicked(i);
}

void TimelineRuler::contextMenuEvent(QContextMenuEvent* e) {
    emit contextMenuRequested(e->pos(), e->globalPos());
    e->accept();
}

bool TimelineRuler::event(QEvent* e) {
    if (e->type() != QEvent::ToolTip) return QWidget::event(e);
    auto* help = static_cast<QHelpEvent*>(e);
    // Over a mark, or anywhere over a note's line or inside a flag.
    int i = markAt(help->pos());
    if (i < 0 && s_.trace) i = noteAtX(s_, help->pos().x(), false);
    if (i >= 0)
        QToolTip::showText(help->globalPos(), noteTooltip(s_, s_.notes[size_t(i)]), this);
    else
        QToolTip::hideText();
    return true;
}

RulerTicks TimelineRuler::ticks() const {
    if (!s_.trace) return {};
    return rulerTicks(s_.axis, s_.trace->bounds().start, fontMetrics(), width(), height());
}

void TimelineRuler::mousePressEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton || !s_.trace) return;
    if (e->modifiers() & Qt::ControlModifier) {
        emit noteRequested(s_.axis.timeForX(e->position().x()));
        return;
    }
    if (const int i = markAt(e->position().toPoint()); i >= 0) {
        emit noteClicked(i);
        return;
    }
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
