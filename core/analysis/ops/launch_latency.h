#pragma once
// Launch latency: for every kernel that starts in a range, the time from the start of the CPU API
// call that launched it (cudaLaunchKernel, cuLaunchKernel, hipLaunchKernel..., found by
// correlation id through Trace::launchOf) to the kernel's start.
//
// Kernels without a launching call are counted (unmatched) and left out of the statistics.
// A negative latency (the kernel starts before its launch call: clock skew between the CPU and
// GPU timestamps) is kept in the statistics as it is, and counted in `negative`.
#include "analysis/analysis_range.h"
#include "analysis/duration_stats.h"
#include "model/trace.h"

#include <cstdint>
#include <vector>

namespace strata {

struct KernelLaunch {
    SliceRef kernel;
    SliceRef launch;
    TimeNs latency = 0; // kernel start - launch start
};

struct LaunchLatencyStats {
    TimeRange range;
    uint64_t kernels = 0;               // kernels considered
    uint64_t unmatched = 0;             // kernels with no launching API call, of which
    uint64_t noCorrelation = 0;         // ... carry no correlation id at all
    uint64_t negative = 0;              // matched kernels that start before their launch call
    DurationStats latency;              // over the matched kernels
    std::vector<KernelLaunch> launches; // matched kernels, by (device, stream, start)
};

struct GpuOpList;

LaunchLatencyStats computeLaunchLatency(const Trace& trace, TimeRange range = wholeTrace());
// The same over ops already collected (collectGpuOps), so several analyses share one pass.
LaunchLatencyStats computeLaunchLatency(const Trace& trace, const GpuOpList& ops);

} // namespace strata
