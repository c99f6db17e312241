#pragma once
// Where the GPU time went (analysis/ops/gpu_time_breakdown.h) as `strata-cli breakdown --json`
// prints it (the command adds the file and the timing):
//   {"devices": [{"device", "ops", "total_us", "computation_us", "communication_us",
//                 "exposed_comm_us", "memcpy_us", "exposed_memcpy_us", "busy_us", "idle_us",
//                 "steps": [{"step", "start_us", "end_us", <the same figures>}]}],
//    "unlinked_left_out", "rule": {"ops", "communication", "memcpy", "computation", "exposed",
//                                   "total", "steps"}}
// (start_us and end_us relative to the trace start).
#include "analysis/ops/gpu_time_breakdown.h"

#include <nlohmann/json.hpp>

namespace strata {

nlohmann::json gpuTimeBreakdownToJson(const Trace& trace, const GpuTimeBreakdown& b);

} // namespace strata
