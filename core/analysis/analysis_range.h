#pragma once
// The time range an analysis looks at. Analyses attribute a slice to a range by its START:
// a slice belongs to [start, end) when range.start <= slice.start < range.end, whatever its
// duration. Adjacent ranges therefore partition the slices (each counted exactly once).
#include "model/time.h"

#include <cstdint>
#include <limits>

namespace strata {

// The whole trace, whatever its bounds (a zero-length slice at the very end included).
inline constexpr TimeRange wholeTrace() {
    return TimeRange{std::numeric_limits<TimeNs>::min(), std::numeric_limits<TimeNs>::max()};
}

inline constexpr bool isWholeTrace(const TimeRange& r) {
    return r == wholeTrace();
}

inline constexpr bool startsIn(const TimeRange& r, TimeNs sliceStart) {
    return sliceStart >= r.start && sliceStart < r.end;
}

} // namespace strata
