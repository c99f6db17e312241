#pragma once
// A baseline and a candidate compared (analysis/compare/trace_diff.h) as `strata-cli diff --json`
// prints it; times in microseconds (sections: µs, or kilocycles when "sections_unit" says so):
//   {"noise": {"by_steps", "baseline_steps", "candidate_steps", "reference_steps", "rule"},
//    "devices": [{"device", "baseline", "candidate": {"present", "busy_us", "idle_us",
//                 "idle_by_cause_us": {"<cause>": us}}}],
//    "steps": [{"index", "device", "baseline", "candidate": {"present", "step", "length_us",
//               "idle_us", "idle_by_cause_us"}}],
//    "sections_unit": "us" | "kilocycles",
//    "kernels", "ops", "copies", "sections": [{"name", ["shown"], "status", "baseline",
//        "candidate": {"count", "total_us", "mean_us", "median_us", "p95_us", ["step_mean_us",
//        "step_spread_us"], ["gpu_total_us", ["gpu_step_mean_us", "gpu_step_spread_us"]]},
//        "delta_total_us", "delta_share", ["step_spread_us"], ["gpu_status", "delta_gpu_us",
//        ["gpu_step_spread_us"]]}]}
//    "shown": the name as tables show it, where it differs; the gpu_ keys: CPU ops that launched
//    GPU work, that work's time and its status by the same rule (trace_diff.h)
// with the command's own keys beside them (analysis_ms, baseline and candidate: {file, step}).
#include "analysis/compare/trace_diff.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <string_view>

namespace strata {

// The noise rule the diff was judged by, in words (also the text output's "noise rule:").
std::string diffNoiseRule(const TraceDiff& diff);

// The JSON without the row arrays: noise, devices, steps, sections_unit.
nlohmann::json traceDiffHeadToJson(const TraceDiff& diff);

// `head` (traceDiffHeadToJson and the caller's keys) and the row arrays "kernels", "ops",
// "copies" and "sections" as one JSON object, exactly as dump(1) of one tree holding them all
// would write it (keys sorted), handed to `write` piece by piece: each row is made and written
// on its own, so that a diff of a million rows is never held as one tree or one string.
void writeTraceDiffJson(const TraceDiff& diff, const nlohmann::json& head,
                        const std::function<void(std::string_view)>& write);

} // namespace strata
