#pragma once
// The cross-rank report (analysis/cross_rank.h) as the JSON `strata-cli ranks --json` prints
// (docs/ranks.md describes every key); times in microseconds on the aligned timeline, from its
// origin:
//   {"ranks": [{"rank", "file", "host", "offset_us" | null, "uncertainty_us" | null, "kernels",
//               "busy_us", "idle_us", "collectives", "steps"}],
//    "alignment": {"method", "requested", "step" | null, "reference_rank" | null, "reason",
//                  "matched_collectives", "spread_us" | null, "median_spread_us" | null,
//                  "tolerance_us", "origin_ns", "warnings"},
//    "steps": [{"step", "straggler_rank" | null, "delay_us", "straggler_by", "median_dur_us",
//               "collectives", "last_to_start_rank" | null, "started_late_us",
//               "ranks": [{"rank", "start_us" | null, "dur_us", "busy_us", "idle_us",
//                          "idle_by_cause_us": {...}, "kernels", "caused_wait_us",
//                          "late_start_us" | null}]}],
//    "collectives": [{"name", "op", "group", "index", "step", "ranks", "ranks_arrival_us",
//                     "ranks_end_us", "wait_us", "late_rank", "late_by_us", "max_wait_us"}],
//    "warnings": [...]}
// and with the files that were not reduced, as `ranks --json` prints it, "errors": [{"file",
// "error"}] (DigestOutcome's; in the order given).
#include "analysis/ranks/cross_rank.h"
#include "analysis/ranks/rank_digest.h"

#include <nlohmann/json.hpp>

namespace strata {

nlohmann::json crossRankToJson(const CrossRankReport& report);
nlohmann::json crossRankToJson(const CrossRankReport& report,
                               const std::vector<DigestOutcome>& failed);

} // namespace strata
