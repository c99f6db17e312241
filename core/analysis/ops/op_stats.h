#pragma once
// Kernel and op statistics (what users miss from the TensorBoard profiler plugin), over the GPU
// work that starts in a range: strata-cli stats and the Statistics dock.
//   kernels     per kernel name (optionally per name and the CPU op or NVTX range that launched
//               it: the innermost enclosing CPU op / annotation of its launch call): count, total,
//               mean, min, max, median, p95 (duration_stats.h: nearest rank), share of all kernel
//               time, the launch configurations seen (grid x block), the launch latency (kernel
//               start - launch call start) and the launch call's duration, means over the kernels
//               whose launch is in the trace;
//   categories  kernel, copy and set time by category (kernel_category.h), share of their sum;
//   cpu ops     per CPU op name (PyTorch ops, and NVTX / user annotations) that start in the
//               range, counted whole: count, total, self (SliceColumns::selfTime: the one
//               definition), and the GPU time of the kernels,
//               copies and sets launched inside it (each op counted once per GPU op, however
//               deep the recursion);
//   copies      per copy kind (HtoD, DtoH, DtoD, peer, ...) and host memory (pageable or not):
//               count, bytes, time, achieved GB/s (bytes / time).
#include "analysis/analysis_range.h"
#include "analysis/duration_stats.h"
#include "analysis/ops/kernel_category.h"
#include "model/trace.h"

#include <array>
#include <string>
#include <vector>

namespace strata {

struct KernelRow {
    StringId nameId = 0;
    std::string name;
    // grouped: the launching CPU op / annotation, or the Python call site ("" none or not grouped)
    std::string launchedBy;
    KernelCategory category = KernelCategory::Other;
    DurationStats time;
    double share = 0;                 // of all kernel time in the range
    std::vector<std::string> configs; // "grid [x,y,z] block [x,y,z]", the first 8 distinct
    uint32_t configCount = 0;         // distinct configurations
    uint64_t launched = 0;            // kernels whose launch call is in the trace
    double launchLatencyMean = 0;     // ns
    double launchCallMean = 0;        // ns
};

struct CategoryRow {
    KernelCategory category = KernelCategory::Other;
    uint64_t count = 0;
    TimeNs time = 0;
    double share = 0; // of all kernel, copy and set time
};

struct CpuOpRow {
    std::string name;
    SliceKind kind = SliceKind::CpuOp;
    uint64_t count = 0;
    TimeNs total = 0, self = 0;
    uint64_t gpuOps = 0; // kernels, copies and sets launched inside
    TimeNs gpuTime = 0;
};

struct CopyRow {
    uint8_t copyKind = 0;  // CUPTI's (model/cupti_names.h), 0 unknown
    bool pageable = false; // host side pageable (unpinned): staged, slower, synchronous
    uint64_t count = 0, bytes = 0;
    TimeNs time = 0;
    double gbPerSecond = 0; // bytes / time (1e9 bytes per second)
};

// The rules the tables use, for whoever counts the same things another way (trace_diff.h):
// a CPU op row is a CPU op or a user annotation; a copy's host memory is pageable when either
// side is pageable memory.
bool isCpuOpKind(SliceKind k);
bool isPageableCopy(const GpuActivity* g);

struct OpStats {
    TimeRange range;
    TimeNs kernelTime = 0;
    std::vector<KernelRow> kernels;      // by total time descending
    std::vector<CategoryRow> categories; // every category, by total time descending
    std::vector<CpuOpRow> cpuOps;        // by GPU time, then total, descending
    std::vector<CopyRow> copies;         // by time descending
};

class LaunchSites;
struct OpStatsOptions {
    TimeRange range = wholeTrace();
    bool groupByLaunchingOp = false;
    // Kernels per name and the Python call site of their launch (launch_sites.h; launchedBy is
    // the site's text, "" none); takes precedence over groupByLaunchingOp.
    const LaunchSites* callSites = nullptr;
};

OpStats computeOpStats(const Trace& trace, const OpStatsOptions& options = {});
// The same over ops already collected (collectGpuOps over options.range).
struct GpuOpList;
OpStats computeOpStats(const Trace& trace, const GpuOpList& ops, const OpStatsOptions& options);

} // namespace strata
