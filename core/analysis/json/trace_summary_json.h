#pragma once
// The whole-trace summary (analysis/trace_summary.h) as `strata-cli summary --json` prints it
// (without its timings, which the command adds).
#include "analysis/trace_summary.h"

#include <nlohmann/json.hpp>

#include <string>

namespace strata {

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
//                     "negative", "mean_us", "min_us", "max_us", "median_us", "p95_us"},
//  "memory": [{"device" (-1: host), "peak_bytes", "peak_ts_us", "samples",
//              "recorded_device" (when the events named another: memory_usage.h),
//              "reserved_peak_bytes" (when known), "running_sum" (true: the 2021 schema's
//              Bytes summed)}]}: each device's most allocated over the range
// top_kernels holds the first `topKernels` names by total time (descending, then name).
nlohmann::json summaryToJson(const TraceSummary& summary, const std::string& file,
                             size_t topKernels = 10);

} // namespace strata
