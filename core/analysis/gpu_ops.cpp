#include "analysis/gpu_ops.h"

#include <algorithm>
#include <tuple>

namespace strata {

namespace {

// [first, last) of the slices of `track` whose start lies in `range` (slices sorted by start).
std::pair<size_t, size_t> startsInRange(const SliceColumns& s, TimeRange range) {
    if (isWholeTrace(range)) return {0, s.size()};
    const auto b = std::lower_bound(s.start.begin(), s.start.end(), range.start);
    const auto e = std::lower_bound(b, s.start.end(), range.end);
    return {static_cast<size_t>(b - s.start.begin()), static_cast<size_t>(e - s.start.begin())};
}

} // namespace

GpuOpList collectGpuOps(const Trace& trace, TimeRange range) {
    GpuOpList out;
    out.range = range;
    const auto& tracks = trace.tracks();
    for (TrackId t = 0; t < tracks.size(); ++t) {
        const Track& track = tracks[t];
        const SliceColumns& s = track.slices;
        if (s.size() == 0) continue;
        const bool gpuTrack = track.kind == TrackKind::GpuStream;
        const auto [first, last] = startsInRange(s, range);
        for (size_t i = first; i < last; ++i) {
            if (!isGpuBusyKind(s.kind[i])) continue;
            GpuOp op;
            op.start = s.start[i];
            op.end = s.start[i] + s.dur[i];
            op.ref = SliceRef{t, static_cast<SliceIndex>(i)};
            op.kind = s.kind[i];
            if (gpuTrack) {
                op.device = track.device;
                op.stream = track.tid;
            } else {
                ++out.offGpuTrack;
                if (const GpuActivity* g = trace.gpu(op.ref)) {
                    op.device = g->device;
                    op.stream = g->stream;
                }
            }
            out.ops.push_back(op);
        }
    }
    std::sort(out.ops.begin(), out.ops.end(), [](const GpuOp& a, const GpuOp& b) {
        return std::tie(a.device, a.stream, a.start, a.end, a.ref) <
               std::tie(b.device, b.stream, b.start, b.end, b.ref);
    });
    return out;
}

std::vector<BusySegment> deviceBusySegments(const std::vector<GpuOp>& ops) {
    // Sort compact keys (not pointers into `ops`): cache-friendly on millions of ops.
    struct Key {
        int32_t device;
        uint32_t index; // into ops; ops are sorted, so the index breaks ties deterministically
        TimeNs start;
        TimeNs end;
    };
    std::vector<Key> order;
    order.reserve(ops.size());
    for (size_t i = 0; i < ops.size(); ++i)
        order.push_back(Key{ops[i].device, static_cast<uint32_t>(i), ops[i].start, ops[i].end});
    std::sort(order.begin(), order.end(), [](const Key& a, const Key& b) {
        return std::tie(a.device, a.start, a.end, a.index) <
               std::tie(b.device, b.start, b.end, b.index);
    });
    std::vector<BusySegment> segments;
    for (const Key& k : order) {
        const SliceRef ref = ops[k.index].ref;
        if (!segments.empty() && segments.back().device == k.device &&
            k.start <= segments.back().end) {
            BusySegment& seg = segments.back();
            if (k.end >= seg.end) {
                seg.end = k.end;
                seg.last = ref;
            }
            ++seg.ops;
            continue;
        }
        segments.push_back(BusySegment{k.device, k.start, k.end, ref, ref, 1});
    }
    return segments;
}

} // namespace strata
