#pragma once
// Summary statistics of a list of durations (or latencies) in nanoseconds.
//
// Percentiles use the nearest-rank definition on the sorted values v[0..n-1]:
//   P(p) = v[ceil(p * n / 100) - 1]   (integer p in [1, 100], exact integer arithmetic),
// so every percentile is a value that occurred. The median is P(50): for an even count it is
// the LOWER of the two middle values (no averaging).
#include "model/time.h"

#include <cstdint>
#include <vector>

namespace strata {

struct DurationStats {
    uint64_t count = 0;
    TimeNs total = 0;
    TimeNs min = 0; // all fields 0 when count == 0
    TimeNs max = 0;
    double mean = 0.0; // total / count, in ns
    TimeNs median = 0;
    TimeNs p95 = 0;
};

// Nearest-rank percentile of values sorted ascending; 0 for an empty list.
TimeNs nearestRankPercentile(const std::vector<TimeNs>& sorted, unsigned percent);

// Sorts `values` in place and summarizes them.
DurationStats summarizeDurations(std::vector<TimeNs>& values);

} // namespace strata
