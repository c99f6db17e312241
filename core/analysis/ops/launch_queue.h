#pragma once
// The launch queue of each stream over time (issue 46), under the rule of HolisticTraceAnalysis's
// queue length (hta/analyzers/trace_counters.py, get_queue_length_time_series): the number of
// operations a launch call has enqueued on the stream that have not started yet.
//
// The rule, per (device, stream):
//   launches   the CPU calls HTA counts as launches (isQueueLaunchName: cudaLaunchKernel,
//              cudaLaunchKernelExC, cuLaunchKernel, cuLaunchKernelEx, cudaMemcpyAsync,
//              cudaMemsetAsync, hipLaunchKernel, hipExtModuleLaunchKernel, hipMemcpyAsync,
//              hipMemsetAsync, hipMemcpyWithStream, MTIA's runFunction) that are linked by
//              correlation to a kernel, copy or set on a stream other than -1; GPU ops with no such
//              call (a graph launch's kernels, a synchronous cudaMemcpy's copy) are not counted;
//   +1         at the launch call's start; -1 at the op's START (HTA decrements when the op
//              begins to execute, so the length is launched-but-not-started);
//   series     one point per change, in time order, each the length after it (a step function);
//              at equal times the starts come before the launches (HTA's order there is pandas'
//              unstable sort: undefined), so a tie never shows a length the stream never held;
//   maximum    the largest length; time at maximum: the time to the next point summed over the
//              points at the maximum (the last point has no duration, as in HTA's
//              get_time_spent_blocked_on_full_queue); time at limit: the same over the points
//              at >= `limit` (HTA's max_queue_length, CUDA_MAX_LAUNCH_QUEUE_PER_STREAM = 1024).
#include "analysis/ops/gpu_ops.h"
#include "model/trace.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace strata {

struct QueuePoint {
    TimeNs time = 0;
    int64_t length = 0;
};

struct StreamQueue {
    int32_t device = -1;
    int64_t stream = -1;
    uint64_t launches = 0;          // ops counted (each one launch and one start)
    std::vector<QueuePoint> series; // 2 x launches points, in time order
    int64_t maxLength = 0;
    TimeNs timeAtMax = 0;
    TimeNs timeAtLimit = 0;
};

struct LaunchQueue {
    static constexpr int64_t kDefaultLimit = 1024;
    int64_t limit = kDefaultLimit;
    std::vector<StreamQueue> streams; // by (device, stream); streams with >= 1 counted op
    uint64_t notLaunched = 0;         // ops on a stream with no launch call of the list
};

// Whether HTA counts a CPU call of this name as a launch (the list above).
bool isQueueLaunchName(std::string_view name);

// Over `ops` as collectGpuOps lists them (sorted by device, stream, start, end);
// `htaMicroseconds`: launch calls start at their start rounded up to a whole µs, as HTA loads
// a trace with fractional µs (analysis/ops/hta_conventions.h; the ops rounded there).
LaunchQueue launchQueue(const Trace& trace, const GpuOpList& ops,
                        int64_t limit = LaunchQueue::kDefaultLimit, bool htaMicroseconds = false);

// The length each op of `ops` saw, under the same rule: just after its launch call (atLaunch)
// and just after its own start (atStart); -1 for an op with no counted launch. HTA's critical
// path reads them (analysis/critical_path) in the order of HTA's rows: at equal times launches
// before starts (as its concat lists them; its sort is unstable there).
struct OpQueueLength {
    int64_t atLaunch = -1;
    int64_t atStart = -1;
};
std::vector<OpQueueLength> queueLengthsPerOp(const Trace& trace, const GpuOpList& ops,
                                             bool htaMicroseconds = false);

} // namespace strata
