#pragma once
// The kernels per Python call site (analysis/ops/call_site_stats.h) as `strata-cli stats --by
// call-site --json` adds them (key "call_sites"); times in microseconds:
//   [{"site" | null, "count", "total_us", "mean_us", "share",
//     "kernels": [{"name", "count", "total_us", "mean_us"}]}]
// "site" is null for the kernels launched outside any Python frame.
#include "analysis/ops/call_site_stats.h"

#include <nlohmann/json.hpp>

namespace strata {

nlohmann::json callSiteStatsToJson(const CallSiteStats& stats);

} // namespace strata
