#include "model/slice_nester.h"

#include <algorithm>

namespace strata {

namespace {
constexpr size_t kMaxDepth = UINT16_MAX;
}

void SliceNester::nest(PodVector<RawSlice>& slices, Track& track, PodVector<RawSlice>& overflow,
                       std::vector<uint32_t>* seqs) {
    // Start ascending; at equal starts the longer slice first so that it becomes the parent;
    // then insertion order.
    const auto before = [](const RawSlice& a, const RawSlice& b) {
        if (a.start != b.start) return a.start < b.start;
        if (a.dur != b.dur) return a.dur > b.dur;
        return a.seq < b.seq;
    };
    // Recorders and most writers emit a thread's slices in order already, with slices made from
    // B/E pairs appended after them: only the unsorted tail is sorted, then merged in.
    RawSlice* const sortedEnd = std::is_sorted_until(slices.begin(), slices.end(), before);
    if (sortedEnd != slices.end()) {
        std::sort(sortedEnd, slices.end(), before);
        std::inplace_merge(slices.begin(), sortedEnd, slices.end(), before);
    }

    // Accepted slices are compacted in place (write index w never passes read index r).
    std::vector<SliceIndex> parent;
    std::vector<uint16_t> depth;
    parent.reserve(slices.size());
    depth.reserve(slices.size());
    std::vector<SliceIndex> stack; // open slices, outermost first (indices of accepted slices)
    size_t w = 0;
    for (size_t r = 0; r < slices.size(); ++r) {
        const RawSlice s = slices[r];
        const TimeNs end = s.start + s.dur;
        // A slice that ends at or before s's start is closed (so zero-length slices never
        // enclose anything).
        while (!stack.empty() && slices[stack.back()].start + slices[stack.back()].dur <= s.start)
            stack.pop_back();
        const bool partialOverlap =
            !stack.empty() && end > slices[stack.back()].start + slices[stack.back()].dur;
        if (partialOverlap || stack.size() >= kMaxDepth) {
            overflow.push_back(s); // not nested in the open slice: goes to the next lane
            continue;
        }
        parent.push_back(stack.empty() ? kNoSlice : stack.back());
        depth.push_back(static_cast<uint16_t>(stack.size()));
        stack.push_back(static_cast<SliceIndex>(w));
        slices[w++] = s;
    }
    slices.resize(w);

    SliceColumns& c = track.slices;
    const size_t n = slices.size();
    for (auto* col : {&c.start, &c.dur, &c.self}) col->reserve(n);
    for (auto* col : {&c.name, &c.category, &c.args, &c.extra}) col->reserve(n);
    c.kind.reserve(n);
    c.flags.reserve(n);
    c.parent = std::move(parent);
    c.depth = std::move(depth);
    if (seqs) seqs->resize(n);
    TimeNs maxDur = 0;
    uint16_t maxDepth = 0;
    constexpr size_t kReleaseBlock = size_t(1) << 16;
    for (size_t k = 0; k < n; ++k) {
        const RawSlice& s = slices[k];
        c.start.push_back(s.start);
        c.dur.push_back(s.dur);
        c.self.push_back(s.dur);
        c.name.push_back(s.name);
        c.category.push_back(s.category);
        c.args.push_back(s.args);
        c.extra.push_back(s.extra);
        c.kind.push_back(s.kind);
        c.flags.push_back(s.flags);
        if (seqs) (*seqs)[k] = s.seq;
        maxDur = std::max(maxDur, s.dur);
        maxDepth = std::max<uint16_t>(maxDepth, c.depth[k] + 1);
        // The columns are written as the raw slices are read: give read pages back.
        if ((k + 1) % kReleaseBlock == 0) slices.release_prefix(k + 1);
    }
    slices.clear();
    for (size_t k = 0; k < n; ++k) {
        if (c.parent[k] != kNoSlice) c.self[c.parent[k]] -= c.dur[k];
    }
    track.maxDuration = maxDur;
    track.maxDepth = maxDepth;
}

SliceNester::Lanes SliceNester::nestIntoLanes(PodVector<RawSlice> pending, Track& base,
                                              std::vector<SliceRef>* seqMap, uint32_t seqCount) {
    Lanes out;
    if (seqMap) seqMap->assign(seqCount, SliceRef{});
    Track* lane = &base;
    uint32_t laneNo = 0;
    std::vector<uint32_t> seqs;
    while (true) {
        PodVector<RawSlice> overflow;
        nest(pending, *lane, overflow, seqMap ? &seqs : nullptr);
        if (seqMap)
            for (SliceIndex k = 0; k < seqs.size(); ++k) (*seqMap)[seqs[k]] = SliceRef{laneNo, k};
        if (overflow.empty()) break;
        out.spilled += overflow.size();
        Track next;
        next.kind = base.kind;
        next.pid = base.pid;
        next.tid = base.tid;
        next.device = base.device;
        next.name = base.name;
        next.cookie = base.cookie;
        next.lane = ++laneNo;
        out.extra.push_back(std::move(next));
        lane = &out.extra.back();
        pending = std::move(overflow);
    }
    return out;
}

} // namespace strata
