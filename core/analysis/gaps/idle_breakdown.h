#pragma once
// HTA's idle-time breakdown (issue 46): each stream's idle time split into host wait, kernel
// wait and other, under the rule of HolisticTraceAnalysis's get_idle_time_breakdown
// (hta/analyzers/breakdown_analysis.py, docs/source/features/idle_time_breakdown.rst), so a user
// coming from HTA reads the same figures. Strata's own gap causes (gap_causes.h) stay the
// headline; docs/analysis.md ("HTA's idle breakdown and launch queue") says how the two differ.
//
// The rule, per (device, stream):
//   ops        the stream's own kernels, copies and sets (HTA: categories kernel, gpu_memcpy,
//              gpu_memset), stream -1 left out, in order of start (then end);
//   intervals  one per op after the first: its start minus the previous op's end (the previous
//              in that order, not the latest end: overlapping ops give a negative interval,
//              summed as HTA sums it); nothing before the first op or after the last;
//   host wait  the op's launch call (by correlation) started after the previous op ended;
//   kernel     not host wait, and the interval is shorter than `kernelDelay`;
//   other      the rest (an op with no launch call found is never host wait).
// HTA's consecutive_kernel_delay is 30 in its time unit, which is microseconds (its docs say
// nanoseconds; its parser keeps the trace's µs): kDefaultKernelDelay is therefore 30 µs.
#include "analysis/ops/gpu_ops.h"
#include "model/trace.h"

#include <cstdint>
#include <vector>

namespace strata {

struct IdleSplit {
    TimeNs hostWait = 0;
    TimeNs kernelWait = 0;
    TimeNs other = 0;
    uint64_t hostWaitIntervals = 0;
    uint64_t kernelWaitIntervals = 0;
    uint64_t otherIntervals = 0;
    TimeNs total() const { return hostWait + kernelWait + other; }
};

struct StreamIdle {
    int32_t device = -1;
    int64_t stream = -1;
    uint64_t ops = 0;
    uint64_t withoutLaunch = 0; // ops after the first with no launch call found
    IdleSplit split;
};

struct IdleBreakdown {
    static constexpr TimeNs kDefaultKernelDelay = 30'000;
    TimeNs kernelDelay = kDefaultKernelDelay;
    std::vector<StreamIdle> streams; // by (device, stream); streams with >= 1 op
};

// Over `ops` as collectGpuOps lists them (sorted by device, stream, start, end);
// `htaMicroseconds`: launch calls start at their start rounded up to a whole µs, as HTA loads
// a trace with fractional µs (analysis/ops/hta_conventions.h; the ops rounded there).
IdleBreakdown idleBreakdown(const Trace& trace, const GpuOpList& ops,
                            TimeNs kernelDelay = IdleBreakdown::kDefaultKernelDelay,
                            bool htaMicroseconds = false);

} // namespace strata
