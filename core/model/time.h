#pragma once
// Time in Strata's core: signed 64-bit nanoseconds from one clock per trace.
#include <algorithm>
#include <cstdint>

namespace strata {

using TimeNs = int64_t;

// The times a trace holds: every start and end within +-kMaxTimeNs (2^62 ns, about 146 years
// either side of the clock's zero), so that the difference of any two fits in TimeNs. Readers
// skip and count events outside it (TraceBuilder::build() drops any that reach it).
constexpr TimeNs kMaxTimeNs = (TimeNs(1) << 62) - 1;
constexpr bool timeInRange(TimeNs t) {
    return t >= -kMaxTimeNs && t <= kMaxTimeNs;
}
// A slice [start, start + dur) whose both ends are in range (dur >= 0).
constexpr bool spanInRange(TimeNs start, TimeNs dur) {
    return timeInRange(start) && dur >= 0 && dur <= kMaxTimeNs && start + dur <= kMaxTimeNs;
}

// a + b, held at the int64 limits instead of overflowing: for totals of durations, which may
// overlap (kernels on several streams) and so exceed any one span.
constexpr TimeNs addSaturating(TimeNs a, TimeNs b) {
    TimeNs r;
    if (__builtin_add_overflow(a, b, &r)) return b > 0 ? INT64_MAX : INT64_MIN;
    return r;
}

struct TimeRange {
    TimeNs start = 0;
    TimeNs end = 0; // exclusive

    TimeNs duration() const { return end - start; }
    bool empty() const { return end <= start; }
    bool contains(TimeNs t) const { return t >= start && t < end; }
    bool overlaps(TimeNs s, TimeNs e) const { return s < end && e > start; }
    friend bool operator==(const TimeRange&, const TimeRange&) = default;
};

// `r` made a view of `bounds`: its duration within [min(minDuration, bounds' duration),
// bounds' duration] (a narrower one grows around its centre), then shifted to lie inside.
inline TimeRange clampToBounds(TimeRange r, TimeRange bounds, TimeNs minDuration) {
    const TimeNs full = bounds.duration();
    const TimeNs minDur = std::min(minDuration, full);
    const TimeNs dur = std::clamp(r.duration(), minDur, full);
    TimeNs start = r.start;
    if (r.duration() < minDur) start = r.start - (minDur - r.duration()) / 2;
    start = std::clamp(start, bounds.start, bounds.end - dur);
    return {start, start + dur};
}

} // namespace strata
