#pragma once
// Step time by role per rank of a set (analysis/ranks/rank_step_roles.h) as `strata-cli breakdown
// --json FILE FILE...` prints it beside "traces", in the shape of the other commands over several
// FILEs (analysis/json/rank_totals_json.h): a row per rank, in rank order, and their whole:
//   {"ranks": [{"rank", "file", "host",
//               "step_roles": {"steps_summed", "total_us", "kernel_us", "memcpy_us", "memset_us",
//                              "communication_us", "runtime_us", "data_loading_us", "cpu_op_us",
//                              "other_us", "overlap": {"computation_us", "communication_us",
//                              "overlap_us", "other_us"},
//                              "steps": [{"step", the same figures for that step}],
//                              "tail_steps_left_out"}}],
//    "whole": {"step_roles": {the same sums over the ranks, without "steps"}},
//    "rank_step": the step name summed (--step), or null for every step}
// The figures of a row's "steps" are those of `strata-cli breakdown --json` on that rank alone.
#include "analysis/ranks/rank_identity.h"
#include "analysis/ranks/rank_step_roles.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace strata {

struct RolesRankRow {
    RankIdentity id;
    std::string file;
    StepRoles roles; // stepRoles of its trace alone
};

// The figures of `sum` ({"steps_summed", "total_us", ..., "overlap": {...}}).
nlohmann::json stepRoleSumToJson(const StepRoleSum& sum);
// `step`: the one step summed per rank (empty: every step).
nlohmann::json stepRolesOfRanksToJson(const std::vector<RolesRankRow>& rows,
                                      const std::string& step);

} // namespace strata
