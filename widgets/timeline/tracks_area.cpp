#include "tracks_area.h"

#include <QContextMenuEvent>

#include "model/names/time_text.h"
#include "style/gap_style.h"
#include "style/qt_text.h"
#include "timeline/paint/instant_marks.h"
#include "timeline/paint/note_marks.h"
#include "timeline/paint/sample_lanes.h"
#include "timeline/paint/timeline_painter.h"
#include "timeline_state.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <cmath>

namespace strata {

TracksArea::TracksArea(const TimelineState& state, TimelinePainter& painter, QWidget* parent)
    : QWidget(parent), s_(state), painter_(painter) {
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setFocusPolicy(Qt::ClickFocus);
}

void TracksArea::paintEvent(QPaintEvent*) {
    QPainter p(this);
    painter_.paint(s_, p, size());
}

void TracksArea::resizeEvent(QResizeEvent*) {
    emit resized(width());
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
    emit dragged({pressRange_.start + dt, pressRange_.end + dt}, pressScroll_ - d.y());
}

void TracksArea::mouseReleaseEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton || !pressed_) return;
    pressed_ = false;
    unsetCursor();
    if (!dragging_) emit clicked(e->position().toPoint());
    dragging_ = false;
}

void TracksArea::wheelEvent(QWheelEvent* e) {
    const QPoint a = e->angleDelta();
    const bool shift = e->modifiers() & Qt::ShiftModifier;
    const bool ctrl = e->modifiers() & Qt::ControlModifier;
    auto pan = [&](int delta) {
        emit panRequested(
            static_cast<TimeNs>(std::llround(-delta / 120.0 * 0.1 * s_.axis.visible().duration())));
    };
    if (a.y() == 0 && a.x() != 0) {
        pan(a.x()); // a touchpad's horizontal scroll pans, in either mode
    } else if (s_.wheelScrolls) {
        if (ctrl)
            emit zoomRequested(std::pow(0.8, a.y() / 120.0), e->position().x());
        else if (shift)
            pan(a.y());
        else
            emit scrollRequested(s_.scrollY - a.y() / 2);
    } else if (shift) {
        emit scrollRequested(s_.scrollY - a.y() / 2);
    } else if (a.y() != 0) {
        emit zoomRequested(std::pow(0.8, a.y() / 120.0), e->position().x());
    }
    e->accept();
}

void TracksArea::leaveEvent(QEvent*) {
    emit hoverChanged(std::nullopt, std::nullopt, SliceRef{});
}

std::optional<GapSpan> TracksArea::gapAt(QPoint pos) const {
    if (!s_.trace) return std::nullopt;
    const int row = s_.layout.rowAt(pos.y() + s_.scrollY);
    if (row < 0) return std::nullopt;
    const TimeNs t = s_.axis.timeForX(pos.x());
    const TrackRow& r = s_.layout.rows()[row];
    const std::vector<GapSpan>* gaps = nullptr;
    if (r.kind == TrackRow::Kind::DeviceIdle)
        gaps = &s_.gaps.deviceGaps(r.device);
    else if (r.gpuStream && !r.lanes.empty()) {
        const Track& t0 = s_.trace->track(r.lanes.front());
        const int stripTop =
            r.y + r.height - TrackLayout::kRowPad - TrackLayout::kGapStrip - s_.scrollY;
        const bool inLane0 = pos.y() - (r.y - s_.scrollY) < TrackLayout::kDepthHeight;
        if ((pos.y() >= stripTop || inLane0) && !painter_.sliceAt(s_, pos).valid())
            gaps = &s_.gaps.streamGaps(t0.device, t0.tid);
    }
    if (!gaps) return std::nullopt;
    const TimeNs slack = static_cast<TimeNs>(std::ceil(2 * s_.axis.nsPerPixel()));
    const size_t i = GapIndex::firstEndingAfter(*gaps, t - slack);
    if (i < gaps->size() && (*gaps)[i].start <= t + slack) return (*gaps)[i];
    return std::nullopt;
}

QString TracksArea::sliceTooltip(const TimelinePainter::Hit& hit) const {
    const Track& track = s_.trace->track(hit.slice.track);
    auto line = [&](SliceIndex i) { // the full name and the exact duration
        return QStringLiteral("%1\n%2").arg(
            wrappedText(s_.trace->name(SliceRef{hit.slice.track, i})),
            QString::fromStdString(formatPreciseDuration(track.slices.dur[i])));
    };
    if (hit.merged)
        return QStringLiteral("%1 slices merged here (zoom in to tell them apart)\nlongest: %2")
            .arg(hit.count)
            .arg(line(hit.slice.index));
    if (hit.fold.count <= 1) return line(hit.slice.index);
    // A folded level: the slice each of its depths holds in view, outermost first.
    QString tip = QStringLiteral("%1 levels folded, one slice each in view (double-click to "
                                 "unfold):")
                      .arg(hit.fold.count);
    const TrackLod* summary = painter_.cache().lod(hit.slice.track);
    if (!summary) return line(hit.slice.index);
    const TrackLod& lod = *summary;
    for (int d = hit.fold.first; d < hit.fold.first + hit.fold.count; ++d) {
        const auto depth = uint16_t(d);
        const uint32_t p = lod.firstNotBefore(track, depth, s_.axis.visible().start);
        if (p >= lod.countAt(depth)) break;
        tip += QStringLiteral("\n  ") +
               painter_.cache().label(track.slices.name[lod.sliceAtDepth(depth, p)]);
    }
    return tip + QStringLiteral("\n") + line(hit.slice.index);
}

void TracksArea::mouseDoubleClickEvent(QMouseEvent* e) {
    if (e->button() == Qt::LeftButton) emit doubleClicked(e->position().toPoint());
}

void TracksArea::contextMenuEvent(QContextMenuEvent* e) {
    emit contextMenuRequested(e->pos(), e->globalPos());
    e->accept();
}

const TrackRow* TracksArea::rowUnder(QPoint pos) const {
    const int row = s_.layout.rowAt(pos.y() + s_.scrollY);
    return row >= 0 ? &s_.layout.rows()[size_t(row)] : nullptr;
}

// What a memory, launch queue or GPU idle row says at t (an idle row outside a gap: the
// device's time breakdown); empty for other rows.
QString TracksArea::rowTooltip(const TrackRow& r, TimeNs t, bool inGap) const {
    switch (r.kind) {
    case TrackRow::Kind::Memory:
        return memoryTooltip(s_, r, t);
    case TrackRow::Kind::Queue:
        if (const StreamQueue* q = s_.queues.stream(r.device, r.stream)) return queueTooltip(*q, t);
        return {};
    case TrackRow::Kind::DeviceIdle:
        if (const GpuTimeSplit* split = s_.utilisation.split(r.device); split && !inGap)
            return deviceTimeTooltip(r.device, *split);
        return {};
    default:
        return {};
    }
}

void TracksArea::hover(QPoint pos, QPoint globalPos) {
    if (!s_.trace) {
        emit hoverChanged(pos.x(), std::nullopt, SliceRef{});
        return;
    }
    const std::optional<GapSpan> gap = gapAt(pos);
    QString tip;
    if (gap) {
        const ExplainedGap* e = s_.gaps.explained(*gap);
        tip = e ? gapDescription(*s_.trace, *e)
                : QStringLiteral("GPU idle %1")
                      .arg(QString::fromStdString(formatDuration(gap->duration())));
    }
    const TimelinePainter::Hit hit = gap ? TimelinePainter::Hit{} : painter_.hitAt(s_, pos);
    const SliceRef slice = hit.slice;
    if (slice.valid())
        tip = sliceTooltip(hit);
    else if (const InstantRef in = gap ? InstantRef{} : instantAt(s_, pos); in.valid())
        tip = instantTooltip(*s_.trace, in);
    else if (const SampleHit sh = sampleAt(s_, pos, painter_.cache()); sh.valid())
        tip = sampleTooltip(*s_.trace, *sh.thread, sh.index);
    else if (const int note = gap ? -1 : noteAtX(s_, pos.x(), false); note >= 0)
        tip = noteTooltip(s_, s_.notes[size_t(note)]); // a note's line, a flag's edge
    else if (const TrackRow* r = rowUnder(pos)) {
        // A gap's own tooltip stays unless the row has something to say there.
        if (QString rowTip = rowTooltip(*r, s_.axis.timeForX(pos.x()), gap.has_value());
            !rowTip.isEmpty())
            tip = std::move(rowTip);
    }
    emit hoverChanged(pos.x(), gap, slice);
    if (tip.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(globalPos, tip, this);
}

} // namespace strata
