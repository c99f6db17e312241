#pragma once
// The roofline (analysis/ops/roofline.h) as `strata-cli roofline --json` prints it:
//   {"launches_measured", "launches_incomplete",
//    "devices": [{"device", "dram_bytes_per_s", "flops_per_s": {"FP64", "FP32", "FP16"}}],
//    "kernels": [{"name", "device", "launches", "flops": {"FP64", "FP32", "FP16"}, "bytes",
//                 "time_us", "precision", "intensity", "achieved_flops_per_s",
//                 "attainable_flops_per_s", "roof_share", "bound"}]}
// A figure that cannot be had (no ceiling, no DRAM bytes) is null; "bound" is "memory",
// "compute" or "unknown".
#include "analysis/ops/roofline.h"

#include <nlohmann/json.hpp>

namespace strata {

nlohmann::json rooflineToJson(const Trace& trace, const Roofline& roofline);

} // namespace strata
