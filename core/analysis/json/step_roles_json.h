#pragma once
// Step time by role (analysis/ops/step_roles.h) as `strata-cli breakdown --json` prints it under
// "step_roles":
//   {"steps": [{"step", "start_us", "end_us", "total_us", "kernel_us", "memcpy_us", "memset_us",
//               "communication_us", "runtime_us", "data_loading_us", "cpu_op_us", "other_us",
//               "overlap": {"computation_us", "communication_us", "overlap_us", "other_us"}}],
//    "average": {the same figures, over the steps}, "tail_steps_left_out", "rule"}
// (start_us and end_us relative to the trace start; average null without steps).
#include "analysis/ops/step_roles.h"

#include <nlohmann/json.hpp>

namespace strata {

nlohmann::json stepRolesToJson(const Trace& trace, const StepRoles& roles);

} // namespace strata
