#include "time_axis.h"

#include "workspace/navigation.h"

#include <algorithm>
#include <cmath>

namespace strata {

static_assert(TimeAxis::kMinDuration == Navigation::kMinVisibleDuration,
              "the axis and the navigation clamp the visible range alike");

void TimeAxis::setBounds(TimeRange bounds) {
    if (bounds.end <= bounds.start) bounds.end = bounds.start + 1;
    bounds_ = bounds;
    visible_ = bounds;
}

void TimeAxis::setWidth(int px) {
    width_ = std::max(1, px);
}

bool TimeAxis::setVisible(TimeRange r) {
    const TimeRange v = clampToBounds(r, bounds_, kMinDuration);
    if (v == visible_) return false;
    visible_ = v;
    return true;
}

double TimeAxis::nsPerPixel() const {
    return static_cast<double>(visible_.duration()) / width_;
}

double TimeAxis::xForTime(TimeNs t) const {
    return static_cast<double>(t - visible_.start) * width_ /
           static_cast<double>(visible_.duration());
}

TimeNs TimeAxis::timeForX(double x) const {
    return visible_.start + static_cast<TimeNs>(std::llround(x * nsPerPixel()));
}

bool TimeAxis::zoomAt(double factor, double x) {
    const double frac = std::clamp(x / width_, 0.0, 1.0);
    const double anchor = static_cast<double>(visible_.start) + frac * visible_.duration();
    const TimeNs minDur = std::min(kMinDuration, bounds_.duration());
    const double dur = std::clamp(visible_.duration() * factor, static_cast<double>(minDur),
                                  static_cast<double>(bounds_.duration()));
    const TimeNs start = static_cast<TimeNs>(std::llround(anchor - frac * dur));
    return setVisible({start, start + static_cast<TimeNs>(std::llround(dur))});
}

bool TimeAxis::panBy(TimeNs dt) {
    return setVisible({visible_.start + dt, visible_.end + dt});
}

} // namespace strata
