#pragma once
// The whole-trace summary that `strata-cli summary` prints: counts, kernel statistics, GPU idle
// gaps and launch latency, over one range (its JSON form: analysis/json/trace_summary_json.h).
#include "analysis/analysis_range.h"
#include "analysis/analysis_settings.h"
#include "analysis/gaps/gpu_gaps.h"
#include "analysis/memory_usage.h"
#include "analysis/ops/kernel_stats.h"
#include "analysis/ops/launch_latency.h"
#include "model/trace.h"

#include <cstddef>
#include <string>
#include <vector>

namespace strata {

struct SummaryOptions {
    TimeNs gapThreshold = AnalysisSettings::kDefaultGapThreshold;
    TimeRange range = wholeTrace();
    const MemoryUsage* memory = nullptr; // the trace's, when already computed (else computed)
};

struct TraceSummary {
    size_t slices = 0;
    size_t counterSamples = 0;
    size_t instants = 0;
    size_t flows = 0;
    std::vector<std::string> warnings; // the trace's, then the memory rows' (memory_usage.h)
    KernelStats kernels;
    GpuGaps gaps;
    LaunchLatencyStats launch;
    std::vector<MemoryPeak> memory; // each device's peak over the range (host: device -1)
};

TraceSummary summarizeTrace(const Trace& trace, const SummaryOptions& options = {});
// The same over ops already collected over options.range (collectGpuOps).
struct GpuOpList;
TraceSummary summarizeTrace(const Trace& trace, const GpuOpList& ops,
                            const SummaryOptions& options);

// Nanoseconds as floating-point microseconds.
inline double toMicros(TimeNs ns) {
    return static_cast<double>(ns) / 1000.0;
}

} // namespace strata
