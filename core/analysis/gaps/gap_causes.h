#pragma once
// Why the GPU waited: every idle gap over the threshold, per device and per
// stream (analysis/gpu_gaps), gets one cause, decided from where the gap's time went on the
// thread that launched the op ending it (analysis/gap_breakdown.h: blocked in a synchronizing
// call, in launch calls, in traced CPU work, untraced, queued after the launch returned):
//   launch_bound     "CPU-bound": the launch came late because the thread was working
//                    elsewhere; the dominant frame is named, and "input pipeline" when a
//                    DataLoader span covers most of the gap;
//   launch_overhead  launch calls (and the launch latency after the last one) fill most of the
//                    gap: the CPU was launching back to back and could not keep up;
//   synchronization  blocking calls cover most of the gap (named: the longest);
//   dependency       the op was launched in time (its launch call returned before the gap
//                    began, or it then sat queued for most of a gap of 20 µs or more) and waited
//                    on the device; `waitedOn` names an op of another stream only when its end
//                    explains the op's start (it ended within 20 µs or a tenth of the gap
//                    before it), else the wait is not visible in the trace;
//   unattributed     the trace has no launch record for it (said, never guessed).
// A stream-wait call (cudaStreamWaitEvent) the launching thread made before the launch is named
// too. Issue 44: what the process's threads were blocked in while the gap lasted (other_threads.h);
// a synchronization whose wait the trace does not show (no GPU op anywhere from the blocking
// call's start to the gap's end: the GPU may be running work launched outside the capture) is
// marked, and so is the time the launching thread spent capturing a graph (graph_capture.h). Per
// step (analysis/trace_steps.h) the same totals, and the idle time before the device's first op and
// after its last (in the range) apart. Warnings say what would make the figures false
// (analysis/clock_checks.h: clock skew either way; analysis/gap_checks.h: graph replays missing
// kernels, a capture window that cuts a step).
#include "analysis/analysis_range.h"
#include "analysis/frame_roles.h"
#include "analysis/gaps/gap_breakdown.h"
#include "analysis/gaps/gpu_gaps.h"
#include "analysis/ranks/clock_checks.h"
#include "analysis/trace_steps.h"
#include "model/trace.h"

#include <array>
#include <string>
#include <vector>

namespace strata {

enum class GapCause : uint8_t {
    LaunchBound,
    LaunchOverhead,
    Synchronization,
    Dependency,
    Unattributed
};
constexpr int kGapCauseCount = 5;
// The stable key (JSON, CSV): "launch_bound", "launch_overhead", "synchronization", ...
const char* gapCauseName(GapCause c);
// What a user reads: "CPU-bound", "launch overhead", "synchronization", "dependency",
// "unattributed".
const char* gapCauseLabel(GapCause c);

// A thread of the launching process blocked while a gap lasted (a synchronize, a blocking or
// pageable copy, a wait: other_threads.h).
struct ThreadWait {
    int64_t pid = 0;
    int64_t tid = 0;
    bool launching = false; // the launching thread itself, after its launch call returned
    SliceRef call;          // the call with the most time in the gap
    TimeNs overlap = 0;     // its time inside the gap
};

struct ExplainedGap {
    GpuGap gap;
    GapCause cause = GapCause::Unattributed;
    SliceRef launch;           // the launch call of the op that ends the gap
    bool launchedLate = false; // that call returned after the gap began
    // Launch call start - gap start, for a late launch (docs/analysis.md): negative when the call
    // was already running when the gap began.
    TimeNs late = 0;
    GapBreakdown breakdown;     // where the gap's time went on the launching thread
    SliceRef blockingCall;      // synchronization: the blocking call with the most of the gap
    bool inputPipeline = false; // launch_bound with most of the gap under a DataLoader span
    SliceRef waitedOn;          // dependency: an op of another stream whose end explains it
    SliceRef waitCall;          // dependency: a stream-wait call before the launch
    // Synchronization whose wait the trace does not show: no GPU op ran anywhere from the
    // blocking call's start to the gap's end.
    bool unseenWait = false;
    TimeNs inCapture = 0; // the launching thread's time in a graph capture, inside the gap
    std::vector<ThreadWait> otherThreads; // blocked while the gap lasted, most first (at most 4)
    // A graph capture fills most of the gap: its launches run no kernel by design.
    bool captured() const { return 2 * inCapture > gap.duration(); }
    // Time whose cause the trace does not show: a dependency on nothing visible, a wait on
    // nothing recorded. No saving is claimed for it (advisor.h).
    bool causeNotVisible() const; // The share of the gap the launching thread spent in traced calls
                                  // and frames (blocked,
    // launch, cpu): a low share with a late launch says the CPU ran untraced code.
    double tracedShare() const;
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
    std::array<CauseTotals, kGapCauseCount> byCause{};
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
    ClockCheck clock;                                  // both directions (clock_checks.h)
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
