#pragma once
// The kernel metrics of the TensorBoard plugin (analysis/ops/kernel_metrics.h) added to the JSON
// of `strata-cli stats --json` (op_stats_json.h); times in microseconds:
//   each row of "kernels" gains, for its kernel name: "tensor_cores" (bool), "blocks_per_sm" |
//   null and "achieved_occupancy_pct" | null (the duration-weighted means; null where no kernel
//   of the name carries the arg);
//   "kernel_metrics": {"window_us", "kernel_time_us", "tensor_core_us", "tensor_core_share",
//     "kernels_with_blocks_per_sm", "kernels_with_occupancy",
//     "devices": [{"device", "kernel_time_us", "tensor_core_us", "tensor_core_share",
//                  "sm_efficiency" | null, "achieved_occupancy_pct" | null}]}
// ("window_us": the length of the window the per-device figures are averaged over).
#include "analysis/ops/kernel_metrics.h"
#include "analysis/ops/op_stats.h"

#include <nlohmann/json.hpp>

namespace strata {

// `stats` is opStatsToJson(st, ...): its "kernels" rows are st.kernels, in that order.
void addKernelMetricsToJson(nlohmann::json& stats, const OpStats& st, const KernelMetrics& m);

} // namespace strata
