#pragma once
// Kernel and op statistics (analysis/ops/op_stats.h) with the GPU overview (busy and idle per
// device and per step, analysis/gaps/gap_causes.h) as `strata-cli stats --json` prints them
// (without its timings, which the command adds); times in microseconds:
//   {"warnings", "kernel_time_us",
//    "devices": [{"device", "span_us", "busy_us", "idle_us", "busy_share"}],
//    "steps": [{"name", "device", "dur_us", "busy_us", "idle_us"}],
//    "categories": [{"category", "count", "time_us", "share"}],
//    "kernels": [{"name", "launched_by" | null, "category", "count", "total_us", "mean_us",
//                 "min_us", "max_us", "median_us", "p95_us", "share", "configs",
//                 "config_count", "launched", "launch_latency_mean_us" | null,
//                 "launch_call_mean_us" | null}],
//    "cpu_ops": [{"name", "count", "total_us", "self_us", "gpu_ops", "gpu_us"}],
//    "copies": [{"kind", "pageable", "count", "bytes", "time_us", "gb_per_s"}]}
// "launched_by" is given with `groupByOp` (the kernels per name and launching op).
#include "analysis/gaps/gap_causes.h"
#include "analysis/ops/op_stats.h"

#include <nlohmann/json.hpp>

namespace strata {

nlohmann::json opStatsToJson(const OpStats& stats, const GapCauses& gaps, bool groupByOp);

} // namespace strata
