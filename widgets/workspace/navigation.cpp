#include "navigation.h"

namespace strata {

Navigation::Navigation(Workspace* workspace, QObject* parent)
    : QObject(parent), workspace_(workspace) {
    // Connected before any view (views are made after their navigation), so views that
    // observe both see the reset state when they hear of the new trace.
    connect(workspace_, &Workspace::currentChanged, this, &Navigation::reset);
    reset(workspace_->current());
}

void Navigation::reset(const std::shared_ptr<const Trace>& trace) {
    // What was recorded, not the profiler's markers around it (Trace::contentBounds).
    TimeRange b = trace ? trace->contentBounds() : TimeRange{0, 1000};
    if (b.end <= b.start) b.end = b.start + 1;
    if (workspace_->amending()) {
        // The same trace, amended: the user stays where they are, but the whole trace is what
        // it holds now (its GPU shifted moves its ends), and a view of all of it stays one.
        const bool wholeShown = visible_ == bounds_;
        bounds_ = b;
        setVisibleRange(wholeShown ? b : visible_);
        return;
    }
    bounds_ = b;
    setHoveredSlice({});
    setSelectedSlice({});
    setSelectedRange(std::nullopt);
    if (visible_ != b) {
        visible_ = b;
        emit visibleRangeChanged(b);
    }
}

void Navigation::setVisibleRange(TimeRange r) {
    r = clampToBounds(r, bounds_, kMinVisibleDuration);
    if (r == visible_) return;
    visible_ = r;
    emit visibleRangeChanged(r);
}

void Navigation::setSelectedRange(std::optional<TimeRange> r) {
    if (r && r->empty()) r.reset();
    if (r == range_) return;
    range_ = r;
    emit selectedRangeChanged(r);
}

void Navigation::setSelectedSlice(TraceSliceRef r, bool reveal) {
    if (!r.valid()) r = {};
    if (!(r == selected_)) {
        selected_ = r;
        emit selectedSliceChanged(r);
    }
    if (reveal && r.valid()) emit revealRequested(r);
}

void Navigation::setHoveredSlice(TraceSliceRef r) {
    if (!r.valid()) r = {};
    if (r == hovered_) return;
    hovered_ = r;
    emit hoveredSliceChanged(r);
}

} // namespace strata
