#include "gap_index.h"

#include <algorithm>

namespace strata {

namespace {
const std::vector<GpuGap> kNone;

// Walks the slices of several start-sorted tracks in global start order (k-way merge), calling
// f(start, end) for those whose kind passes `want`.
template <class Want, class F>
void mergeWalk(const Trace& trace, const std::vector<TrackId>& ids, Want want, F f) {
    std::vector<size_t> pos(ids.size(), 0);
    while (true) {
        int best = -1;
        TimeNs bestStart = 0;
        for (size_t l = 0; l < ids.size(); ++l) {
            const SliceColumns& c = trace.track(ids[l]).slices;
            while (pos[l] < c.size() && !want(c.kind[pos[l]])) ++pos[l];
            if (pos[l] < c.size() && (best < 0 || c.start[pos[l]] < bestStart)) {
                best = static_cast<int>(l);
                bestStart = c.start[pos[l]];
            }
        }
        if (best < 0) return;
        const SliceColumns& c = trace.track(ids[best]).slices;
        const size_t i = pos[best]++;
        f(c.start[i], c.end(i));
    }
}

template <class Want>
std::vector<GpuGap> gapsOf(const Trace& trace, const std::vector<TrackId>& ids, Want want,
                           TimeNs threshold) {
    std::vector<GpuGap> out;
    bool any = false;
    TimeNs lastEnd = 0;
    mergeWalk(trace, ids, want, [&](TimeNs s, TimeNs e) {
        if (any && s - lastEnd > threshold) out.push_back({lastEnd, s});
        lastEnd = any ? std::max(lastEnd, e) : e;
        any = true;
    });
    out.shrink_to_fit();
    return out;
}
} // namespace

void GapIndex::clear() {
    streams_.clear();
    devices_.clear();
}

void GapIndex::compute(const Trace& trace, TimeNs threshold) {
    clear();
    threshold_ = threshold;
    std::map<std::pair<int32_t, int64_t>, std::vector<TrackId>> streamTracks;
    std::map<int32_t, std::vector<TrackId>> deviceTracks;
    for (TrackId id = 0; id < trace.tracks().size(); ++id) {
        const Track& t = trace.track(id);
        if (t.kind != TrackKind::GpuStream) continue;
        streamTracks[{t.device, t.tid}].push_back(id);
        deviceTracks[t.device].push_back(id);
    }
    for (const auto& [key, ids] : streamTracks)
        streams_[key] = gapsOf(
            trace, ids, [](SliceKind k) { return k == SliceKind::Kernel; }, threshold);
    for (const auto& [dev, ids] : deviceTracks)
        devices_[dev] = gapsOf(
            trace, ids, [](SliceKind k) { return isGpuBusyKind(k); }, threshold);
}

const std::vector<GpuGap>& GapIndex::streamGaps(int32_t device, int64_t stream) const {
    auto it = streams_.find({device, stream});
    return it == streams_.end() ? kNone : it->second;
}

const std::vector<GpuGap>& GapIndex::deviceGaps(int32_t device) const {
    auto it = devices_.find(device);
    return it == devices_.end() ? kNone : it->second;
}

size_t GapIndex::firstEndingAfter(const std::vector<GpuGap>& gaps, TimeNs t) {
    return static_cast<size_t>(std::partition_point(gaps.begin(), gaps.end(),
                                                    [t](const GpuGap& g) { return g.end <= t; }) -
                               gaps.begin());
}

size_t GapIndex::memoryBytes() const {
    size_t b = 0;
    for (const auto& [k, v] : streams_) b += v.capacity() * sizeof(GpuGap) + 64;
    for (const auto& [k, v] : devices_) b += v.capacity() * sizeof(GpuGap) + 64;
    return b;
}

} // namespace strata
