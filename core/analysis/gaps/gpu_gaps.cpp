#include "analysis/gaps/gpu_gaps.h"

#include "analysis/ops/gpu_ops.h"

#include <algorithm>

namespace strata {

namespace {

// One stream's ops (sorted by start): the holes in the union of its kernels, copies and sets.
// A copy or set between two kernels keeps the stream busy, as it keeps the device busy.
void addStreamGaps(const GpuOp* first, const GpuOp* last, TimeNs threshold, TimeNs keepOver,
                   GpuGaps& out) {
    StreamGapStats st;
    st.device = first->device;
    st.stream = first->stream;
    bool any = false;
    TimeNs busyEnd = 0;
    SliceRef busyLast; // the op with the latest end so far
    for (const GpuOp* op = first; op != last; ++op) {
        if (!isGpuBusyKind(op->kind)) continue;
        if (op->kind == SliceKind::Kernel) ++st.kernels;
        ++st.ops;
        if (!any) {
            any = true;
            st.firstStart = op->start;
        } else if (op->start > busyEnd) {
            const TimeNs gap = op->start - busyEnd;
            ++st.gaps;
            if (gap > threshold) ++st.gapsOverThreshold;
            st.idle = addSaturating(st.idle, gap);
            st.longest = std::max(st.longest, gap);
            if (gap > keepOver)
                out.streamGaps.push_back(
                    GpuGap{busyEnd, op->start, st.device, st.stream, busyLast, op->ref});
        }
        if (st.ops == 1 || op->end >= busyEnd) {
            busyEnd = op->end;
            busyLast = op->ref;
        }
    }
    st.lastEnd = busyEnd;
    if (any) out.byStream.push_back(st);
}

} // namespace

GpuGaps computeGpuGaps(const Trace& trace, TimeNs threshold, TimeRange range) {
    return computeGpuGaps(collectGpuOps(trace, range), threshold);
}

GpuGaps computeGpuGaps(const GpuOpList& list, TimeNs threshold, TimeNs keepGapsOver) {
    GpuGaps out;
    out.range = list.range;
    out.threshold = threshold;
    const std::vector<GpuOp>& ops = list.ops;

    // Per stream: ops are sorted by (device, stream, start, end, ref), so each stream is a run.
    for (size_t i = 0; i < ops.size();) {
        size_t j = i;
        while (j < ops.size() && ops[j].device == ops[i].device && ops[j].stream == ops[i].stream)
            ++j;
        addStreamGaps(ops.data() + i, ops.data() + j, threshold, keepGapsOver, out);
        i = j;
    }

    // Per device: holes between consecutive busy segments.
    BusySegment prev;
    forEachBusySegment(ops, [&](const BusySegment& seg) {
        if (out.byDevice.empty() || out.byDevice.back().device != seg.device) {
            DeviceGapStats d;
            d.device = seg.device;
            d.firstStart = seg.start;
            out.byDevice.push_back(d);
        } else {
            const TimeNs gap = seg.start - prev.end; // > 0 by construction of the union
            DeviceGapStats& d = out.byDevice.back();
            ++d.gaps;
            if (gap > threshold) ++d.gapsOverThreshold;
            d.idle = addSaturating(d.idle, gap);
            d.longest = std::max(d.longest, gap);
            if (gap > keepGapsOver)
                out.deviceGaps.push_back(
                    GpuGap{prev.end, seg.start, seg.device, -1, prev.last, seg.first});
        }
        DeviceGapStats& d = out.byDevice.back();
        d.ops += seg.ops;
        d.busy = addSaturating(d.busy, seg.end - seg.start);
        d.lastEnd = seg.end;
        prev = seg;
    });
    return out;
}

} // namespace strata
