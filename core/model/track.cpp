#include "model/track.h"

#include <algorithm>

namespace strata {

size_t SliceColumns::memoryBytes() const {
    return start.capacity() * sizeof(TimeNs) + dur.capacity() * sizeof(TimeNs) +
           name.capacity() * sizeof(StringId) + category.capacity() * sizeof(StringId) +
           parent.capacity() * sizeof(SliceIndex) + args.capacity() * sizeof(ArgSetId) +
           extra.capacity() * sizeof(uint32_t) + depth.capacity() * sizeof(uint16_t) +
           kind.capacity() * sizeof(SliceKind) + flags.capacity() * sizeof(uint8_t);
}

TimeNs SliceColumns::selfTime(SliceIndex i) const {
    TimeNs self = dur[i];
    const TimeNs e = end(i);
    for (size_t j = size_t(i) + 1; j < size() && start[j] < e; ++j)
        if (parent[j] == i) self -= dur[j];
    return std::max<TimeNs>(0, self);
}

std::vector<TimeNs> SliceColumns::selfTimes(SliceIndex first, SliceIndex last) const {
    last = std::min<SliceIndex>(last, SliceIndex(size()));
    if (first >= last) return {};
    std::vector<TimeNs> self(dur.begin() + first, dur.begin() + last);
    TimeNs scanEnd = start[first]; // children start before their parent's end
    for (SliceIndex i = first; i < last; ++i) scanEnd = std::max(scanEnd, end(i));
    for (size_t j = size_t(first) + 1; j < size() && start[j] < scanEnd; ++j) {
        const SliceIndex p = parent[j];
        if (p != kNoSlice && p >= first && p < last) self[p - first] -= dur[j];
    }
    for (TimeNs& s : self) s = std::max<TimeNs>(0, s);
    return self;
}

std::pair<SliceIndex, SliceIndex> Track::overlapping(TimeNs t0, TimeNs t1) const {
    const auto& st = slices.start;
    // Any slice overlapping [t0, t1) starts at or after t0 - maxDuration and before t1.
    const TimeNs lo = t0 - maxDuration;
    auto first = std::lower_bound(st.begin(), st.end(), lo);
    auto last = std::lower_bound(first, st.end(), t1);
    auto f = static_cast<SliceIndex>(first - st.begin());
    const auto l = static_cast<SliceIndex>(last - st.begin());
    // Skip leading slices that end before t0 (zero-length slices exactly at t0 count).
    while (f < l && slices.start[f] + slices.dur[f] < t0) ++f;
    while (f < l && slices.start[f] + slices.dur[f] == t0 && slices.dur[f] != 0) ++f;
    return {f, l};
}

SliceIndex Track::sliceAt(TimeNs t, uint16_t d) const {
    // Slices nest strictly on a lane, so a slice containing t is the last slice starting at or
    // before t, or one of its ancestors: walk up the parent chain to depth d.
    const auto& st = slices.start;
    auto it = std::upper_bound(st.begin(), st.end(), t);
    if (it == st.begin()) return kNoSlice;
    SliceIndex i = static_cast<SliceIndex>(it - st.begin()) - 1;
    // Among equal starts the later one is the deeper (ties sort longer first).
    while (i != kNoSlice && slices.depth[i] > d) i = slices.parent[i];
    if (i == kNoSlice || slices.depth[i] != d) return kNoSlice;
    const TimeNs end = st[i] + std::max<TimeNs>(slices.dur[i], 1);
    return t < end ? i : kNoSlice;
}

} // namespace strata
