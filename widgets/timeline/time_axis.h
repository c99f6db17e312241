#pragma once
// Time <-> pixel arithmetic of the timeline: the trace bounds, the visible range and the width in
// pixels. Zooming keeps the time under the cursor fixed; the visible range is clamped to the
// bounds and to a minimum duration.
#include "model/time.h"

namespace strata {

class TimeAxis {
public:
    static constexpr TimeNs kMinDuration = 100; // narrowest visible window, ns

    void setBounds(TimeRange bounds); // also resets the visible range to all of it
    TimeRange bounds() const { return bounds_; }
    void setWidth(int px);
    int width() const { return width_; }

    // Sets the visible range, clamped: duration within [min(kMinDuration, bounds), bounds],
    // then shifted to lie inside the bounds. Returns whether it changed.
    bool setVisible(TimeRange r);
    TimeRange visible() const { return visible_; }

    double nsPerPixel() const;
    double xForTime(TimeNs t) const;
    TimeNs timeForX(double x) const;

    // New duration = duration * factor (factor < 1 zooms in), keeping the time at x fixed.
    bool zoomAt(double factor, double x);
    bool panBy(TimeNs dt);

private:
    TimeRange bounds_{0, 1000};
    TimeRange visible_{0, 1000};
    int width_ = 1000;
};

} // namespace strata
