#pragma once
// Kernel statistics: per kernel name and per GPU device, over the kernels that start in a range.
//
// Definitions (what the CLI and the GUI both show):
// - A kernel's time is its own duration (start to end), counted in full even when it runs past
//   the end of the range (kernels are attributed to a range by their start).
// - Busy time of a device = the length of the union of all its kernels, copies and sets (over all
//   its streams) that start in the range. The trace's busy time is the sum over devices.
// - share of a kernel name = its total time / the trace's busy time. Concurrent kernels (several
//   streams or devices) can make the shares add up to more than 1; they never do on one serial
//   stream.
// - Percentiles: nearest rank (see duration_stats.h).
#include "analysis/analysis_range.h"
#include "analysis/duration_stats.h"
#include "model/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace strata {

struct KernelNameStats {
    StringId nameId = 0;
    std::string name;
    DurationStats time; // count, total, min, max, mean, median, p95 of the kernel durations
    double shareOfBusy = 0.0;
};

struct DeviceGpuTime {
    int32_t device = -1;
    uint64_t kernels = 0;
    uint64_t memcpys = 0;
    uint64_t memsets = 0;
    TimeNs kernelTime = 0; // sum of kernel durations (not a union)
    TimeNs memcpyTime = 0;
    TimeNs memsetTime = 0;
    TimeNs busyTime = 0; // union of kernels, copies and sets
};

struct KernelStats {
    TimeRange range;
    uint64_t kernels = 0;
    uint64_t memcpys = 0;
    uint64_t memsets = 0;
    TimeNs kernelTime = 0;
    TimeNs busyTime = 0;
    uint64_t offGpuTrack = 0; // GPU ops found outside GpuStream tracks (still counted)
    // By total time descending, then name ascending.
    std::vector<KernelNameStats> byName;
    // By device ascending; only devices with at least one kernel, copy or set.
    std::vector<DeviceGpuTime> byDevice;
};

struct GpuOpList;

KernelStats computeKernelStats(const Trace& trace, TimeRange range = wholeTrace());
// The same over ops already collected (collectGpuOps), so several analyses share one pass.
KernelStats computeKernelStats(const Trace& trace, const GpuOpList& ops);

} // namespace strata
