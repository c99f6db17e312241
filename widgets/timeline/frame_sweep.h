#pragma once
// The views a frame benchmark paints (strata-bench render, strata --screenshot --frames): 12 zoom
// levels, geometrically from the whole trace down to a 1 us window, 5 places each (10 % .. 90 %
// across), each shown and then panned twice by a tenth of the view: 180 ranges, level by level.
#include "model/time.h"

#include <vector>

namespace strata {

constexpr int kSweepLevels = 12;
constexpr int kSweepPerLevel = 15; // 5 places x (shown + 2 pans)

std::vector<TimeRange> frameSweep(TimeRange bounds);
// The window of level `level` (ns), for per-level reports.
double frameSweepWindow(TimeRange bounds, int level);

} // namespace strata
