#pragma once
// Where the user is in the current trace, one object every view and dock observes and asks to
// change: the visible time range, the selected range, the selected and the hovered slice. A
// setter emits its signal only when the value changes; the visible range is kept inside the
// trace's content bounds (Trace::contentBounds: the view stops at the trace's ends). When the
// workspace's current trace changes, everything is reset (the whole trace visible, nothing
// selected); when it is amended (workspace.h: amendCurrent) the bounds follow its content and
// the rest stays (a view of the whole trace stays one). Like Qt Creator's TimelineZoomControl
// and hotspot's FilterAndZoomStack: views hold no copy of this state, they read it here.
#include "workspace.h"

#include <QObject>

#include <optional>

namespace strata {

class Navigation : public QObject {
    Q_OBJECT
public:
    static constexpr TimeNs kMinVisibleDuration = 100; // narrowest visible window, ns

    explicit Navigation(Workspace* workspace, QObject* parent = nullptr);
    Workspace* workspace() const { return workspace_; }

    TimeRange bounds() const { return bounds_; }
    TimeRange visibleRange() const { return visible_; }
    std::optional<TimeRange> selectedRange() const { return range_; }
    TraceSliceRef selectedSlice() const { return selected_; }
    TraceSliceRef hoveredSlice() const { return hovered_; }

public slots:
    void setVisibleRange(strata::TimeRange r);                 // clamped to the bounds
    void setSelectedRange(std::optional<strata::TimeRange> r); // empty ranges clear it
    // `reveal`: the views should bring it into view (a jump from a link, a find result).
    void setSelectedSlice(strata::TraceSliceRef r, bool reveal = false);
    void setHoveredSlice(strata::TraceSliceRef r);

signals:
    void visibleRangeChanged(strata::TimeRange r);
    void selectedRangeChanged(std::optional<strata::TimeRange> r);
    void selectedSliceChanged(strata::TraceSliceRef r);
    void revealRequested(strata::TraceSliceRef r); // after selectedSliceChanged, if asked
    void hoveredSliceChanged(strata::TraceSliceRef r);

private:
    void reset(const std::shared_ptr<const Trace>& trace);
    Workspace* workspace_;
    TimeRange bounds_{0, 1000};
    TimeRange visible_{0, 1000};
    std::optional<TimeRange> range_;
    TraceSliceRef selected_;
    TraceSliceRef hovered_;
};

} // namespace strata
