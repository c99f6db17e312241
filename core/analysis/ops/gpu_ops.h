#pragma once
// The GPU work of a trace as one flat list: every kernel, memcpy and memset (isGpuBusyKind)
// with the (device, stream) it ran on. The overflow lanes of one (device, stream) — tracks with
// the same device and stream but lane > 0 — are merged here, so every analysis "per stream"
// sees one stream, and the union of busy time per device is computed in one place.
#include "analysis/analysis_range.h"
#include "model/trace.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace strata {

struct GpuOp {
    TimeNs start = 0;
    TimeNs end = 0;
    SliceRef ref;
    SliceKind kind = SliceKind::Kernel;
    int32_t device = -1;
    int64_t stream = -1;
    TimeNs duration() const { return end - start; }
};

struct GpuOpList {
    TimeRange range = wholeTrace(); // the ops are those that start in this range
    // Sorted by (device, stream, start, end, ref).
    std::vector<GpuOp> ops;
    // Ops found on tracks that are not GpuStream tracks; their device/stream come from their
    // GpuActivity, or are -1 when they have none. Counted so that nothing is silently dropped.
    uint64_t offGpuTrack = 0;
};

// All kernels, copies and sets whose start lies in `range` (see analysis_range.h).
GpuOpList collectGpuOps(const Trace& trace, TimeRange range = wholeTrace());

// One maximal busy interval of a device: the union of overlapping or touching ops of all its
// streams. Ops are closed intervals here: ops that touch (next.start == end) merge, and a
// zero-length op that touches nothing is a zero-length segment of its own.
struct BusySegment {
    int32_t device = -1;
    TimeNs start = 0;
    TimeNs end = 0;
    SliceRef first;   // the op that opened the segment (earliest start)
    SliceRef last;    // the op whose end closed it (latest end)
    uint32_t ops = 0; // ops merged into the segment
};

// Union of the ops per device, sorted by (device, start). Fastest on ops sorted as
// collectGpuOps sorts them (merges the stream runs); any order is accepted.
std::vector<BusySegment> deviceBusySegments(const std::vector<GpuOp>& ops);
// The same segments, in the same order, handed to `f` one by one (nothing kept: on millions of
// ops the memory, and on some machines its page faults, are most of the cost).
void forEachBusySegment(const std::vector<GpuOp>& ops,
                        const std::function<void(const BusySegment&)>& f);

} // namespace strata
