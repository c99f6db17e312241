#include "analysis/ops/gpu_ops.h"

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
    size_t gpuSlices = 0; // room for the GPU tracks' ops at once (no regrowth on millions)
    for (const Track& track : tracks)
        if (track.kind == TrackKind::GpuStream) gpuSlices += track.slices.size();
    out.ops.reserve(gpuSlices);
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
    const auto order = [](const GpuOp& a, const GpuOp& b) {
        return std::tie(a.device, a.stream, a.start, a.end, a.ref) <
               std::tie(b.device, b.stream, b.start, b.end, b.ref);
    };
    // Tracks come sorted by start: usually the list already is (one lane per stream).
    if (!std::is_sorted(out.ops.begin(), out.ops.end(), order))
        std::sort(out.ops.begin(), out.ops.end(), order);
    return out;
}

namespace {

// One stream per device and the ops sorted (collectGpuOps): the union straight from the list,
// without the order vector and the merges.
bool oneStreamPerDevice(const std::vector<GpuOp>& ops) {
    for (size_t i = 1; i < ops.size(); ++i) {
        const GpuOp& a = ops[i - 1];
        const GpuOp& b = ops[i];
        if (a.device == b.device && a.stream != b.stream) return false;
        if (std::tie(a.device, a.stream, a.start, a.end) >
            std::tie(b.device, b.stream, b.start, b.end))
            return false;
    }
    return true;
}

} // namespace

std::vector<BusySegment> deviceBusySegments(const std::vector<GpuOp>& ops) {
    std::vector<BusySegment> segments;
    forEachBusySegment(ops, [&](const BusySegment& s) { segments.push_back(s); });
    return segments;
}

void forEachBusySegment(const std::vector<GpuOp>& ops,
                        const std::function<void(const BusySegment&)>& emit) {
    // The segment being grown; emitted when an op starts past its end (or on another device).
    BusySegment cur;
    bool open = false;
    auto add = [&](int32_t device, TimeNs start, TimeNs end, SliceRef ref) {
        if (open && cur.device == device && start <= cur.end) {
            if (end >= cur.end) {
                cur.end = end;
                cur.last = ref;
            }
            ++cur.ops;
            return;
        }
        if (open) emit(cur);
        cur = BusySegment{device, start, end, ref, ref, 1};
        open = true;
    };
    if (oneStreamPerDevice(ops)) {
        for (const GpuOp& o : ops) add(o.device, o.start, o.end, o.ref);
        if (open) emit(cur);
        return;
    }
    // Order compact keys (not pointers into `ops`): cache-friendly on millions of ops.
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
    // `ops` is sorted by (device, stream, start, end, ref): each device is a block of sorted
    // stream runs. Merging the runs pairwise (O(n log streams)) orders each device by
    // (start, end, index) without a full sort.
    const auto less = [](const Key& a, const Key& b) {
        return std::tie(a.start, a.end, a.index) < std::tie(b.start, b.end, b.index);
    };
    const bool grouped = std::is_sorted(ops.begin(), ops.end(), [](const GpuOp& a, const GpuOp& b) {
        return std::tie(a.device, a.stream, a.start, a.end) <
               std::tie(b.device, b.stream, b.start, b.end);
    });
    if (!grouped) { // not from collectGpuOps: sort it all
        std::sort(order.begin(), order.end(), [&less](const Key& a, const Key& b) {
            return a.device != b.device ? a.device < b.device : less(a, b);
        });
    }
    std::vector<size_t> runs; // run starts, then order.size()
    for (size_t i = 0; grouped && i < ops.size(); ++i)
        if (i == 0 || ops[i].device != ops[i - 1].device || ops[i].stream != ops[i - 1].stream)
            runs.push_back(i);
    runs.push_back(order.size());
    for (size_t d = 0; grouped && d + 1 < runs.size();) {
        size_t e = d + 1; // runs [d, e) belong to one device
        while (e + 1 < runs.size() && order[runs[e]].device == order[runs[d]].device) ++e;
        std::vector<size_t> bounds(runs.begin() + d, runs.begin() + e + 1);
        while (bounds.size() > 2) {
            std::vector<size_t> merged;
            for (size_t r = 0; r + 2 < bounds.size(); r += 2) {
                std::inplace_merge(order.begin() + bounds[r], order.begin() + bounds[r + 1],
                                   order.begin() + bounds[r + 2], less);
                merged.push_back(bounds[r]);
            }
            if (bounds.size() % 2 == 0) merged.push_back(bounds[bounds.size() - 2]);
            merged.push_back(bounds.back());
            bounds.swap(merged);
        }
        d = e;
    }
    for (const Key& k : order) add(k.device, k.start, k.end, ops[k.index].ref);
    if (open) emit(cur);
}

} // namespace strata
