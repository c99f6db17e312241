#include "model/slice_nester.h"

#include <algorithm>

namespace strata {

namespace {
constexpr size_t kMaxDepth = UINT16_MAX;
}

void SliceNester::nest(PodVector<RawSlice>& slices, Track& track, PodVector<RawSlice>& overflow) {
    // Start ascending; at equal starts the longer slice first so that it becomes the parent;
    // then insertion order.
    const auto before = [](const RawSlice& a, const RawSlice& b) {
        if (a.start != b.start) return a.start < b.start;
        if (a.dur != b.dur) return a.dur > b.dur;
        return a.seq < b.seq;
    };
    // Recorders and most writers emit a thread's slices in order already: check before sorting.
    if (!std::is_sorted(slices.begin(), slices.end(), before))
        std::sort(slices.begin(), slices.end(), before);

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
    c.start.resize(n);
    c.dur.resize(n);
    c.self.resize(n);
    c.name.resize(n);
    c.category.resize(n);
    c.args.resize(n);
    c.extra.resize(n);
    c.kind.resize(n);
    c.flags.resize(n);
    c.parent = std::move(parent);
    c.depth = std::move(depth);
    TimeNs maxDur = 0;
    uint16_t maxDepth = 0;
    for (size_t k = 0; k < n; ++k) {
        const RawSlice& s = slices[k];
        c.start[k] = s.start;
        c.dur[k] = s.dur;
        c.self[k] = s.dur;
        c.name[k] = s.name;
        c.category[k] = s.category;
        c.args[k] = s.args;
        c.extra[k] = s.extra;
        c.kind[k] = s.kind;
        c.flags[k] = s.flags;
        maxDur = std::max(maxDur, s.dur);
        maxDepth = std::max<uint16_t>(maxDepth, c.depth[k] + 1);
    }
    for (size_t k = 0; k < n; ++k) {
        if (c.parent[k] != kNoSlice) c.self[c.parent[k]] -= c.dur[k];
    }
    track.maxDuration = maxDur;
    track.maxDepth = maxDepth;
}

} // namespace strata
