#pragma once
// Time in Strata's core: signed 64-bit nanoseconds from one clock per trace.
#include <algorithm>
#include <cstdint>

namespace strata {

using TimeNs = int64_t;

struct TimeRange {
    TimeNs start = 0;
    TimeNs end = 0; // exclusive

    TimeNs duration() const { return end - start; }
    bool empty() const { return end <= start; }
    bool contains(TimeNs t) const { return t >= start && t < end; }
    bool overlaps(TimeNs s, TimeNs e) const { return s < end && e > start; }
    friend bool operator==(const TimeRange&, const TimeRange&) = default;
};

} // namespace strata
