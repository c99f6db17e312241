#include "model/slice_nester.h"

#include <algorithm>

namespace strata {

namespace {
constexpr size_t kMaxDepth = UINT16_MAX;
}

void SliceNester::nest(std::vector<RawSlice>& slices, Track& track,
                       std::vector<RawSlice>& overflow) {
    // Start ascending; at equal starts the longer slice first so that it becomes the parent;
    // then insertion order.
    std::sort(slices.begin(), slices.end(), [](const RawSlice& a, const RawSlice& b) {
        if (a.start != b.start) return a.start < b.start;
        if (a.dur != b.dur) return a.dur > b.dur;
        return a.seq < b.seq;
    });

    std::vector<RawSlice> accepted;
    accepted.reserve(slices.size());
    std::vector<SliceIndex> parent;
    std::vector<uint16_t> depth;
    parent.reserve(slices.size());
    depth.reserve(slices.size());
    std::vector<SliceIndex> stack; // open slices, outermost first
    for (const RawSlice& s : slices) {
        const TimeNs end = s.start + s.dur;
        while (!stack.empty()) {
            const RawSlice& top = accepted[stack.back()];
            const TimeNs topEnd = top.start + top.dur;
            // A slice that ends at or before s's start is closed (so zero-length slices never
            // enclose anything).
            if (topEnd <= s.start)
                stack.pop_back();
            else
                break;
        }
        if (!stack.empty() && end > accepted[stack.back()].start + accepted[stack.back()].dur) {
            overflow.push_back(s); // partial overlap: not nested in the open slice
            continue;
        }
        if (stack.size() >= kMaxDepth) {
            overflow.push_back(s);
            continue;
        }
        parent.push_back(stack.empty() ? kNoSlice : stack.back());
        depth.push_back(static_cast<uint16_t>(stack.size()));
        stack.push_back(static_cast<SliceIndex>(accepted.size()));
        accepted.push_back(s);
    }
    slices = std::move(accepted);

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
