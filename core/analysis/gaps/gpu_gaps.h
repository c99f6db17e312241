#pragma once
// GPU idle gaps, per (device, stream) and per device, over the GPU work that starts in a range.
//
// Per stream (overflow lanes of one stream merged): the holes in the union of the stream's
// kernels, copies and sets (a copy between two kernels keeps the stream busy, as it keeps the
// device busy): ops sorted by start, a gap where an op starts after every earlier op ended.
// idle = sum of the gaps (so it lies between the first op's start and the last end), longest =
// the largest gap.
//
// Per device: the holes in the union of the device's kernels, copies and sets over all its
// streams (see deviceBusySegments), between its first start and its last end.
//
// gapsOverThreshold counts gaps STRICTLY longer than the threshold. Every positive gap is kept as
// an interval (the timeline draws them; the "why the GPU waited" analysis classifies them by the
// op that ends them).
#include "analysis/analysis_range.h"
#include "model/trace.h"

#include <cstdint>
#include <vector>

namespace strata {

struct GpuGap {
    TimeNs start = 0; // end of the previous op
    TimeNs end = 0;   // start of the next op
    int32_t device = -1;
    int64_t stream = -1; // -1 for a device gap
    SliceRef prev;       // op before the gap (for a device gap: the op with the latest end)
    SliceRef next;       // op that ends the gap
    TimeNs duration() const { return end - start; }
};

struct StreamGapStats {
    int32_t device = -1;
    int64_t stream = -1;
    uint64_t kernels = 0;
    uint64_t ops = 0;  // kernels, copies and sets
    uint64_t gaps = 0; // positive gaps
    uint64_t gapsOverThreshold = 0;
    TimeNs idle = 0;
    TimeNs longest = 0;
    TimeNs firstStart = 0; // first op's start
    TimeNs lastEnd = 0;    // latest op end
};

struct DeviceGapStats {
    int32_t device = -1;
    uint64_t ops = 0; // kernels, copies and sets
    uint64_t gaps = 0;
    uint64_t gapsOverThreshold = 0;
    TimeNs idle = 0;
    TimeNs longest = 0;
    TimeNs busy = 0;       // union length
    TimeNs firstStart = 0; // first op's start
    TimeNs lastEnd = 0;    // latest op end
};

struct GpuGaps {
    TimeRange range;
    TimeNs threshold = 0;
    std::vector<StreamGapStats>
        byStream; // by (device, stream); streams with >= 1 kernel, copy or set
    std::vector<DeviceGapStats> byDevice; // by device; devices with >= 1 kernel, copy or set
    std::vector<GpuGap> streamGaps;       // by (device, stream, start)
    std::vector<GpuGap> deviceGaps;       // by (device, start)
};

struct GpuOpList;

GpuGaps computeGpuGaps(const Trace& trace, TimeNs threshold, TimeRange range = wholeTrace());
// The same over ops already collected (collectGpuOps), so several analyses share one pass.
// `keepGapsOver`: only gaps longer than this are kept as intervals (the statistics count every
// gap); -1 keeps all.
GpuGaps computeGpuGaps(const GpuOpList& ops, TimeNs threshold, TimeNs keepGapsOver = -1);

} // namespace strata
