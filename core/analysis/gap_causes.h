#pragma once
// Why the GPU waited: every idle gap over the threshold, per device and per
// stream (analysis/gpu_gaps), gets one cause, decided from the launch call of the op that ends it
// (by correlation id):
//   launch_bound     the launch call started after the gap began: the CPU was late (late =
//                    launch start - gap start); the CPU slices that occupied the launching thread
//                    during the gap are listed, and how much of the gap traced CPU work covers;
//   synchronization  as launch_bound, but a blocking call on the launching thread (device,
//                    stream or event synchronize, a synchronous copy or set, a syncing
//                    allocation or free) ended inside the gap: the host drained the GPU first;
//   dependency       the work was launched before the gap began yet started after it (it waited
//                    on an event, another stream, a copy engine or the device);
//   unattributed     the trace has no launch record for it (said, never guessed).
// For a dependency, what it waited on when the trace shows it: the op of another stream of the
// device that ended last inside the gap (the device gap's previous op, when it ran on another
// stream), and a stream-wait call (cudaStreamWaitEvent) the launching thread made before the
// launch. Per step (analysis/trace_steps.h) the same totals, and the idle time before the
// device's first op and after its last (in the range) apart. Warnings say what would make the
// figures false (analysis/gap_checks.h: clock skew, graph replays missing kernels, a capture
// window that cuts a step).
#include "analysis/analysis_range.h"
#include "analysis/gpu_gaps.h"
#include "analysis/trace_steps.h"
#include "model/trace.h"

#include <array>
#include <string>
#include <vector>

namespace strata {

enum class GapCause : uint8_t { LaunchBound, Synchronization, Dependency, Unattributed };
constexpr int kGapCauseCount = 4;
const char* gapCauseName(GapCause c); // "launch_bound", "synchronization", ...

// A blocking call by its name (cudaDeviceSynchronize, cudaStreamSynchronize, cudaMemcpy,
// cuCtxSynchronize, cudaFree, ...).
bool isBlockingCallName(std::string_view name);

struct CpuOverlap {
    StringId name = 0;
    TimeNs overlap = 0; // time of the gap the slices of this name covered
    uint16_t depth = 0; // deepest level seen (leaf-most first among equals)
};

struct ExplainedGap {
    GpuGap gap;
    GapCause cause = GapCause::Unattributed;
    SliceRef launch;             // the launch call of the op that ends the gap
    TimeNs late = 0;             // launch start - gap start (launch_bound, synchronization)
    SliceRef blockingCall;       // synchronization: the call that ended inside the gap
    std::vector<CpuOverlap> cpu; // on the launching thread: top 5 by overlap, leaf-most first
    TimeNs cpuCovered = 0;       // traced CPU time on that thread inside the gap
    SliceRef waitedOn;           // dependency: the other stream's op that ended last in the gap
    SliceRef waitCall;           // dependency: a stream-wait call before the launch
};

struct CauseTotals {
    uint64_t count = 0;
    TimeNs idle = 0;
};

// One step's device time: its length, the device idle inside it (every gap, clipped to the
// step) and, over the gaps over the threshold that start in it, the totals per cause.
struct StepGaps {
    TraceStep step;
    int32_t device = -1;
    TimeNs idle = 0;
    std::array<CauseTotals, 4> byCause{};
};

// Idle time of a device at the edges of the range: before its first op and after its last.
struct EdgeIdle {
    int32_t device = -1;
    TimeNs before = 0; // range start (or trace start) .. first op start
    TimeNs after = 0;  // last op end .. range end (or trace end)
};

struct GapCauses {
    TimeNs threshold = 0;
    std::string stepPrefix;               // how steps were found (empty: ProfilerStep#)
    std::vector<ExplainedGap> deviceGaps; // over the threshold, by (device, start)
    std::vector<ExplainedGap> streamGaps; // over the threshold, by (device, stream, start)
    std::array<CauseTotals, kGapCauseCount> byCause{}; // over the device gaps
    std::vector<StepGaps> steps;                       // by (step, device)
    std::vector<EdgeIdle> edges;                       // by device
    std::vector<DeviceGapStats> devices;               // busy, idle, gaps per device
    std::vector<std::string> warnings;
};

// `stepPrefix`: how steps are named (analysis/trace_steps.h; empty: ProfilerStep#).
GapCauses explainGpuGaps(const Trace& trace, TimeNs threshold, TimeRange range = wholeTrace(),
                         const std::string& stepPrefix = {});
// The same over ops already collected (collectGpuOps), so several analyses share one pass.
struct GpuOpList;
GapCauses explainGpuGaps(const Trace& trace, const GpuOpList& ops, TimeNs threshold,
                         const std::string& stepPrefix = {});

} // namespace strata
