#pragma once
// The whole-trace summary that `strata-cli summary` prints: counts, kernel statistics, GPU idle
// gaps and launch latency, over one range, plus its JSON form (the CLI's --json output).
#include "analysis/analysis_range.h"
#include "analysis/analysis_settings.h"
#include "analysis/gaps/gpu_gaps.h"
#include "analysis/ops/kernel_stats.h"
#include "analysis/ops/launch_latency.h"
#include "model/trace.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace strata {

struct SummaryOptions {
    TimeNs gapThreshold = AnalysisSettings::kDefaultGapThreshold;
    TimeRange range = wholeTrace();
};

struct TraceSummary {
    size_t slices = 0;
    size_t counterSamples = 0;
    size_t instants = 0;
    size_t flows = 0;
    std::vector<std::string> warnings;
    KernelStats kernels;
    GpuGaps gaps;
    LaunchLatencyStats launch;
};

TraceSummary summarizeTrace(const Trace& trace, const SummaryOptions& options = {});
// The same over ops already collected over options.range (collectGpuOps).
struct GpuOpList;
TraceSummary summarizeTrace(const Trace& trace, const GpuOpList& ops,
                            const SummaryOptions& options);

// The JSON object described in the CLI's documentation (times in µs as floats):
// {"file", "slices", "counters", "instants", "flows", "warnings",
//  "gpu": {"kernels", "memcpy", "memset", "kernel_time_us", "busy_us", "off_gpu_track",
//          "kernel_time_us_by_device": {"<device>": us}, "busy_us_by_device": {...},
//          "top_kernels": [{"name", "count", "total_us", "mean_us", "min_us", "max_us",
//                           "median_us", "p95_us", "share_of_busy"}]},
//  "gaps": {"threshold_us", "by_stream": [{"device", "stream", "kernels", "gaps",
//           "gaps_over_threshold", "idle_us", "longest_us"}],
//           "by_device": [{"device", "ops", "gaps", "gaps_over_threshold", "idle_us",
//           "longest_us", "busy_us"}]},
//  "launch_latency": {"kernels", "matched", "unmatched", "unmatched_without_correlation",
//                     "negative", "mean_us", "min_us", "max_us", "median_us", "p95_us"}}
// top_kernels holds the first `topKernels` names by total time (descending, then name).
nlohmann::json summaryToJson(const TraceSummary& summary, const std::string& file,
                             size_t topKernels = 10);

// Nanoseconds as floating-point microseconds.
inline double toMicros(TimeNs ns) {
    return static_cast<double>(ns) / 1000.0;
}

} // namespace strata
