#pragma once
// Where a device's GPU time went with overlap accounted (issue 46), under the rule TraceLens's
// GPU timeline uses (TraceLens/TreePerf/gpu_event_analyser.py), per device, per step and for any
// range:
//   buckets        communication: kernels and sets that kernelCategory() calls communication
//                  (NCCL, RCCL, collectives by name); memcpy: copies and ROCm's copy kernels
//                  (kernelCategory: memcpy); computation: every other kernel and set;
//   each bucket    the union of its ops' intervals (overlaps counted once);
//   exposed comm   communication not overlapped by computation;
//   exposed memcpy memcpy not overlapped by computation or communication;
//   busy           the union of all ops (= DeviceGapStats::busy over the same ops);
//   total          the first op's start to the latest op end; idle = total - busy, so
//                  computation + exposed comm + exposed memcpy + idle = total.
// Ops: all kernels, copies and sets (BreakdownOps::All), or only those a runtime call launched
// (Linked: found by correlation, a graph launch's included), as TraceLens counts by default.
// A step (analysis/trace_steps.h) holds the ops launched inside it (an op with no launch: the
// ops that start inside it), its total running from its first op's start to its last op's end:
// a kernel launched in a step and run after it is counted in that step.
#include "analysis/analysis_range.h"
#include "analysis/trace_steps.h"
#include "model/trace.h"

#include <string>
#include <vector>

namespace strata {

enum class BreakdownOps : uint8_t { All, Linked };

struct GpuTimeSplit {
    uint64_t ops = 0;
    TimeNs total = 0;
    TimeNs computation = 0;
    TimeNs communication = 0;
    TimeNs exposedComm = 0;
    TimeNs memcpy = 0;
    TimeNs exposedMemcpy = 0;
    TimeNs busy = 0;
    TimeNs idle = 0;
};

struct StepTimeSplit {
    TraceStep step;
    GpuTimeSplit split;
};

struct DeviceTimeBreakdown {
    int32_t device = -1;
    GpuTimeSplit split;
    std::vector<StepTimeSplit> steps; // the steps with ops on this device, in step order
};

struct GpuTimeBreakdown {
    BreakdownOps ops = BreakdownOps::All;
    std::vector<DeviceTimeBreakdown> devices; // by device; devices with >= 1 op counted
    uint64_t unlinkedLeftOut = 0;             // Linked: ops no runtime call launched
};

// The ops whose start lies in `range` (collectGpuOps); `stepPrefix` as findSteps takes it.
GpuTimeBreakdown gpuTimeBreakdown(const Trace& trace, BreakdownOps ops = BreakdownOps::All,
                                  TimeRange range = wholeTrace(),
                                  const std::string& stepPrefix = {});
// The same over ops already collected (TraceAnalysis shares them).
struct GpuOpList;
GpuTimeBreakdown gpuTimeBreakdown(const Trace& trace, const GpuOpList& list, BreakdownOps ops,
                                  const std::string& stepPrefix);

const char* breakdownOpsName(BreakdownOps ops); // "all", "linked"

} // namespace strata
