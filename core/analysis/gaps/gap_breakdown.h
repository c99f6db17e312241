#pragma once
// Where a GPU idle gap's time went (issue 27), on the thread that launched the op ending it: each
// instant of the gap is counted once, in one of
//   blocked    inside a blocking call (a synchronize, a synchronous copy, a syncing free, an
//              asynchronous copy to or from pageable memory: host_waits.h) — the thread waited
//              for the device or the driver;
//   launch     inside another CUDA/HIP runtime or driver call (launches, event records); a
//              kernel's first launch that loaded its module (first_launch.h) is marked warm-up;
//   cpu        inside traced CPU work: the *exclusive* time of the deepest slice there (a CPU op,
//              a Python frame), so nested frames of one name never count twice and the parts
//              never exceed the gap;
//   untraced   no slice below the enclosing annotation or step (or no slice at all): the thread
//              ran code the profiler did not record, or waited outside any call it records;
//   queued     after the launch call returned: the GPU had the op and had not started it
//              (launch latency, or a dependency on other work).
// Each part names its call or frame and the nearest frame above it a user recognises
// (frame_roles.h: an aten:: op, an nn.Module, a record_function / NVTX range, a Python frame of
// their own code). The parts, in integer nanoseconds, sum to the gap's length exactly.
// One sweep over the slices that start in the gap plus the stack open at its start: no walk over
// everything before it, however deep the stacks. A thread's extra lanes (slices that overlap
// without nesting, model/build/spill_lanes.h) are swept too: at each instant the innermost slice
// is the open one that started last on any lane, so a slice moved to an extra lane keeps its
// time instead of leaving it to its former parent (issue 44).
#include "analysis/frame_roles.h"
#include "model/trace.h"

#include <array>
#include <vector>

namespace strata {

enum class GapPartKind : uint8_t { Blocked, Launch, Cpu, Untraced, Queued, Other };
constexpr int kGapPartKindCount = 5;        // Other only gathers the smallest parts of a list
const char* gapPartKindName(GapPartKind k); // "blocked", "launch", "cpu", "untraced", ...

constexpr StringId kNoName = StringPool::kNotFound;

struct GapPart {
    GapPartKind kind = GapPartKind::Cpu;
    StringId name = kNoName;    // the call, the frame, or the annotation over untraced time
    StringId context = kNoName; // the nearest recognised frame above `name`
    TimeNs time = 0;
    uint32_t gathered = 1; // Other: how many parts it holds
    bool warmUp = false;   // launch: a kernel's first launch, loading its module (first_launch.h)
};

struct GapBreakdown {
    static constexpr size_t kMaxParts = 8;
    bool known = false; // false: no launch call, so no thread to look at
    std::array<TimeNs, kGapPartKindCount> byKind{}; // sums to the gap's length
    // By time, longest first: at most kMaxParts, the smallest gathered into one Other part;
    // they sum to the gap's length too.
    std::vector<GapPart> parts;
    TimeNs inputPipeline = 0;     // time under a DataLoader span
    StringId inputSpan = kNoName; // the outermost such span (the longest-lived)
    SliceRef blockingCall;        // the blocking call with the most time in the gap
    TimeNs warmUp = 0;            // launch time in kernels' first launches (module loading)
    TimeNs of(GapPartKind k) const { return byKind[size_t(k)]; }
    // The largest part of traced or untraced CPU time (cpu, untraced), or null.
    const GapPart* dominantCpu() const;
};

class GapContext;
// The gap [start, end) on the thread of `launch`, the launch call of the op that ends it: until
// the call returned, what the thread was doing; from then on, queued.
GapBreakdown breakDownGap(GapContext& context, SliceRef launch, TimeNs start, TimeNs end);

} // namespace strata
