#include "tracks_area.h"

#include "model/time_text.h"
#include "timeline_painter.h"
#include "timeline_state.h"
#include "timeline_view.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <cmath>

namespace strata {

TracksArea::TracksArea(TimelineView* view, TimelineState& state)
    : QWidget(view), view_(view), s_(state) {
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setFocusPolicy(Qt::ClickFocus);
}

void TracksArea::paintEvent(QPaintEvent*) {
    QPainter p(this);
    paintTracks(s_, p, size());
}

void TracksArea::resizeEvent(QResizeEvent*) {
    s_.axis.setWidth(width());
    view_->updateScrollBar();
}

void TracksArea::mousePressEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return;
    pressed_ = true;
    dragging_ = false;
    pressPos_ = e->position().toPoint();
    pressRange_ = s_.axis.visible();
    pressScroll_ = s_.scrollY;
}

void TracksArea::mouseMoveEvent(QMouseEvent* e) {
    const QPoint pos = e->position().toPoint();
    s_.hoverX = e->position().x();
    if (!pressed_) {
        hover(pos, e->globalPosition().toPoint());
        return;
    }
    const QPoint d = pos - pressPos_;
    if (!dragging_ && d.manhattanLength() < kDragThreshold) return;
    dragging_ = true;
    setCursor(Qt::ClosedHandCursor);
    const double npp = static_cast<double>(pressRange_.duration()) / std::max(1, width());
    const TimeNs dt = static_cast<TimeNs>(std::llround(-d.x() * npp));
    view_->setVisibleRange({pressRange_.start + dt, pressRange_.end + dt});
    view_->setVerticalScroll(pressScroll_ - d.y());
}

void TracksArea::mouseReleaseEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton || !pressed_) return;
    pressed_ = false;
    unsetCursor();
    if (!dragging_) view_->selectSlice(view_->sliceAtPixel(e->position().toPoint()), false);
    dragging_ = false;
}

void TracksArea::wheelEvent(QWheelEvent* e) {
    const QPoint a = e->angleDelta();
    if (e->modifiers() & Qt::ShiftModifier) {
        view_->setVerticalScroll(s_.scrollY - (a.y() != 0 ? a.y() : a.x()) / 2);
    } else if (a.y() != 0) {
        view_->zoomBy(std::pow(0.8, a.y() / 120.0), e->position().x());
    } else if (a.x() != 0) {
        view_->panBy(
            static_cast<TimeNs>(std::llround(-a.x() / 120.0 * 0.1 * s_.axis.visible().duration())));
    }
    e->accept();
}

void TracksArea::leaveEvent(QEvent*) {
    s_.hoverX.reset();
    if (s_.hoveredGap) {
        s_.hoveredGap.reset();
        update();
    }
}

void TracksArea::hover(QPoint pos, QPoint globalPos) {
    if (!s_.trace) return;
    std::optional<GapSpan> gap;
    QString tip;
    const int row = s_.layout.rowAt(pos.y() + s_.scrollY);
    const TimeNs t = s_.axis.timeForX(pos.x());
    if (row >= 0) {
        const TrackRow& r = s_.layout.rows()[row];
        const std::vector<GapSpan>* gaps = nullptr;
        if (r.kind == TrackRow::Kind::DeviceIdle)
            gaps = &s_.gaps.deviceGaps(r.device);
        else if (r.gpuStream && !r.lanes.empty()) {
            const Track& t0 = s_.trace->track(r.lanes.front());
            const int stripTop =
                r.y + r.height - TrackLayout::kRowPad - TrackLayout::kGapStrip - s_.scrollY;
            const bool inLane0 = pos.y() - (r.y - s_.scrollY) < TrackLayout::kDepthHeight;
            if ((pos.y() >= stripTop || inLane0) && !view_->sliceAtPixel(pos).valid())
                gaps = &s_.gaps.streamGaps(t0.device, t0.tid);
        }
        if (gaps) {
            const TimeNs slack = static_cast<TimeNs>(std::ceil(2 * s_.axis.nsPerPixel()));
            const size_t i = GapIndex::firstEndingAfter(*gaps, t - slack);
            if (i < gaps->size() && (*gaps)[i].start <= t + slack) {
                gap = (*gaps)[i];
                tip = QStringLiteral("GPU idle %1")
                          .arg(QString::fromStdString(formatDuration(gap->duration())));
            }
        }
    }
    if (tip.isEmpty()) {
        const SliceRef r = view_->sliceAtPixel(pos);
        if (r.valid())
            tip = QStringLiteral("%1\n%2").arg(
                s_.label(s_.trace->track(r.track).slices.name[r.index]),
                QString::fromStdString(formatDuration(s_.trace->duration(r))));
    }
    const bool changed =
        gap.has_value() != s_.hoveredGap.has_value() ||
        (gap && (gap->start != s_.hoveredGap->start || gap->end != s_.hoveredGap->end));
    s_.hoveredGap = gap;
    if (changed) update();
    if (tip.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(globalPos, tip, this);
}

} // namespace strata
