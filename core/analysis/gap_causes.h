#pragma once
// Why the GPU waited (issue 18, first part): every idle gap over the threshold, per device and per
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
// Warnings say what would make the figures false (kernels that start before their launch call:
// CPU/GPU clock skew).
#include "analysis/analysis_range.h"
#include "analysis/gpu_gaps.h"
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
};

struct CauseTotals {
    uint64_t count = 0;
    TimeNs idle = 0;
};

struct GapCauses {
    TimeNs threshold = 0;
    std::vector<ExplainedGap> deviceGaps; // over the threshold, by (device, start)
    std::vector<ExplainedGap> streamGaps; // over the threshold, by (device, stream, start)
    std::array<CauseTotals, kGapCauseCount> byCause{}; // over the device gaps
    std::vector<std::string> warnings;
};

GapCauses explainGpuGaps(const Trace& trace, TimeNs threshold, TimeRange range = wholeTrace());

} // namespace strata
