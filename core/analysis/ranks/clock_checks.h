#pragma once
// Whether a trace's GPU and CPU clocks agree, checked both ways before a gap's cause or a launch's
// lateness is reported (issue 27):
//   early  kernels that start before their launch call started: the GPU clock runs behind the
//          CPU's (or the clocks drift);
//   late   a consistent offset: ops whose launch call began while their device was idle (before
//          its first op, after its last, or inside a gap over the threshold) start long after
//          the call returned — every one of them at least kOffsetMin later, over at least
//          kMinIdleLaunches such launches. A GPU picks up work on an idle device within
//          microseconds, so one prompt start rules an offset out, and the least of the delays is
//          what the GPU clock is ahead by (a ROCm trace whose kernels start 146–281 ms after
//          their launches).
// Either way the check estimates the shift that brings the clocks together (added to every GPU
// op's time: Trace::withGpuTimeShifted), which the GUI offers to apply and strata-cli takes as
// --gpu-shift-us.
#include "model/trace.h"

#include <string>
#include <vector>

namespace strata {

struct ClockCheck {
    static constexpr TimeNs kOffsetMin = 1'000'000; // 1 ms: far beyond any launch latency
    static constexpr uint64_t kMinIdleLaunches = 3;
    uint64_t kernelsLaunched = 0;   // kernels whose launch call is in the trace
    uint64_t startBeforeLaunch = 0; // ... that start before it
    TimeNs mostBefore = 0;          // the most one starts before its call
    uint64_t idleLaunches = 0;      // ops launched while their device was idle
    TimeNs leastIdleDelay = 0;      // the least time such an op started after its call returned
    TimeNs mostIdleDelay = 0;       // and the most
    // Add to every GPU op's time to bring the clocks together; 0 when none is suggested (the
    // clocks agree, or they disagree both ways: drift, not an offset).
    TimeNs suggestedShift = 0;
    bool offset() const { return idleLaunches >= kMinIdleLaunches && leastIdleDelay >= kOffsetMin; }
};

// Over the ops of `ops` and the idle time of `gaps` (computed from them: gpu_gaps.h).
struct GpuOpList;
struct GpuGaps;
ClockCheck checkClocks(const Trace& trace, const GpuOpList& ops, const GpuGaps& gaps);
// What the warnings say (empty when the clocks agree).
std::vector<std::string> clockWarnings(const ClockCheck& check);

} // namespace strata
