#include "analysis/duration_stats.h"

#include <algorithm>

namespace strata {

TimeNs nearestRankPercentile(const std::vector<TimeNs>& sorted, unsigned percent) {
    if (sorted.empty()) return 0;
    const uint64_t n = sorted.size();
    const uint64_t p = std::clamp(percent, 1u, 100u);
    const uint64_t rank = std::max<uint64_t>(1, (p * n + 99) / 100); // ceil(p * n / 100)
    return sorted[rank - 1];
}

DurationStats summarizeDurations(std::vector<TimeNs>& values) {
    DurationStats s;
    if (values.empty()) return s;
    std::sort(values.begin(), values.end());
    s.count = values.size();
    for (TimeNs v : values) s.total = addSaturating(s.total, v);
    s.min = values.front();
    s.max = values.back();
    s.mean = static_cast<double>(s.total) / static_cast<double>(s.count);
    s.median = nearestRankPercentile(values, 50);
    s.p95 = nearestRankPercentile(values, 95);
    return s;
}

} // namespace strata
