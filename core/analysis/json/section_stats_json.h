#pragma once
// Statistics of in-kernel timer sections (analysis/sections/section_stats.h) as `strata-cli
// sections --json` prints them (without the kernel and the timing, which the command adds);
// values in the statistics' unit (ns with a clock rate, else cycles or the array's own):
//   {"unit", "clock_hz" | null, "launches", "blocks", "lost", "total",
//    "sections": [{"name", "count", "total", "mean", "median", "p95", "max", "share", "blocks",
//                  "block_mean", "block_max"}],
//    "warnings"}
#include "analysis/sections/section_stats.h"

#include <nlohmann/json.hpp>

namespace strata {

nlohmann::json sectionStatsToJson(const SectionStats& stats);

} // namespace strata
