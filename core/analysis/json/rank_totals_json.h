#pragma once
// The rows of `strata-cli summary`, `gaps` and `stats` over several FILEs (the ranks of a job) as
// their --json prints them: a row per rank, in rank order (analysis/ranks/rank_identity.h's
// rankOrder), and their whole (analysis/ranks/rank_totals.h). Each row is made while its trace is
// held (the rows' own parts from its analysis), so that the set is never held at once.
#include "analysis/gaps/gap_causes.h"
#include "analysis/ranks/rank_identity.h"
#include "analysis/ranks/rank_totals.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace strata {

// gaps: {"threshold_us", "ranks": [{"rank", "file", "host", "warnings", "span_us",
//        "by_cause": {"<cause>": {"count", "idle_us", "share_of_span"}}, "steps"}],
//        "whole": {"span_us", "by_cause"}}
struct GapRankRow {
    RankIdentity id;
    std::string file;
    GapTotals totals;
    std::vector<std::string> warnings;
    nlohmann::json steps; // gapStepsOfRankToJson of its gap causes
};
// A rank's steps: [{"name", "device", "dur_us", "idle_us", "by_cause": {"<cause>": {"count",
// "idle_us"}}}].
nlohmann::json gapStepsOfRankToJson(const GapCauses& gaps);
nlohmann::json gapRanksToJson(const std::vector<GapRankRow>& rows, const GapTotals& whole,
                              double thresholdUs);

// stats: {"ranks": [{"rank", "file", "host", "warnings", "kernels", "kernel_time_us", "busy_us",
//         "idle_us", "busy_share"}],
//         "whole": {"kernels", "kernel_time_us", "busy_us", "idle_us", "busy_share",
//                   "categories": [{"category", "count", "time_us", "share"}],
//                   "kernels_by_name": [{"name", "category", "count", "total_us", "mean_us",
//                                        "min_us", "max_us", "share", "ranks"}]}}
struct StatsRankRow {
    RankIdentity id;
    std::string file;
    uint64_t kernels = 0;
    TimeNs kernelTime = 0, busy = 0, idle = 0, span = 0; // span: the devices', summed
    std::vector<std::string> warnings;
};
// `span`: the ranks' spans summed (what the whole's busy share divides by).
nlohmann::json statsRanksToJson(const std::vector<StatsRankRow>& rows, const StatsTotals& whole,
                                TimeNs span);

// summary: {"ranks": [{"rank", "file", "host", "summary": (analysis/json/trace_summary_json.h)}],
//           "whole": summaryTotalsToJson}
struct SummaryRankRow {
    RankIdentity id;
    std::string file;
    nlohmann::json summary; // summaryToJson of its summary
};
nlohmann::json summaryRanksToJson(const std::vector<SummaryRankRow>& rows,
                                  const SummaryTotals& whole);
// {"kernels", "memcpy", "memset", "kernel_time_us", "busy_us", "gaps_over_threshold", "idle_us"}
nlohmann::json summaryTotalsToJson(const SummaryTotals& totals);

} // namespace strata
