// One track of a model read from a file against what TraceBuilder::build() makes of a track
// (model/slice_nester.cpp, spill_lanes.cpp): slices sorted by start, the longer first at equal
// starts, each within the trace's bounds, its parent the innermost earlier slice of the lane still
// open at its start (one that ends at or before it is closed), its depth the number of those open
// slices, its end within its parent's; maxDepth the deepest depth + 1 and maxDuration the longest
// slice; counter samples and instants in time order within the bounds; every index in range.
#include "io/strata/model_file/snapshot_arrays.h"
#include "io/strata/model_file/snapshot_checks.h"
#include "io/strata/strata_format.h"
#include "model/track.h"

#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <vector>

namespace strata::snapshot {

Problem problemAt(uint16_t array, uint32_t owner, uint64_t element, const char* f, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, f);
    std::vsnprintf(buf, sizeof buf, f, ap);
    va_end(ap);
    return {buf, array, owner, element};
}

namespace {

constexpr uint8_t kKnownFlags = kSliceClosedAtEnd | kSliceFromBE;

// "slice 7" or "none" (a parent).
std::string sliceText(SliceIndex i) {
    return i == kNoSlice ? "none" : "slice " + std::to_string(i);
}

// The indices of slice i.
Problem sliceIndices(const SliceColumns& s, uint32_t k, size_t i, const TrackLimits& l) {
    auto bad = [&](uint16_t array, const char* what) {
        return problemAt(array, k, i, "track %u, slice %zu: an index out of range (%s)",
                         unsigned(k), i, what);
    };
    if (s.name[i] >= l.strings) return bad(SliceName, "a name id");
    if (s.category[i] >= l.strings) return bad(SliceCategory, "a category id");
    if (s.args[i] != kNoArgs && s.args[i] >= l.argSets) return bad(SliceArgs, "an arg set id");
    if (s.extra[i] != kNoExtra && s.extra[i] >= l.extras) return bad(SliceExtraColumn, "an extra");
    if (uint8_t(s.kind[i]) > format::kMaxSliceKind) return bad(SliceKindColumn, "a kind");
    if (s.flags[i] & ~kKnownFlags) return bad(SliceFlagsColumn, "a flag");
    return {};
}

Problem checkSlices(const Track& tr, uint32_t k, const TrackLimits& l) {
    const SliceColumns& s = tr.slices;
    const TimeNs lo = l.bounds.start, hi = l.bounds.end;
    struct Open {
        SliceIndex index;
        TimeNs end;
    };
    std::vector<Open> open; // the lane's open slices, outermost first
    TimeNs longest = 0;
    size_t deepest = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        const TimeNs start = s.start[i], dur = s.dur[i];
        if (start < lo || start > hi)
            return problemAt(SliceStart, k, i,
                             "track %u, slice %zu: starts at %" PRId64
                             " ns, outside the trace's bounds [%" PRId64 ", %" PRId64 "]",
                             unsigned(k), i, start, lo, hi);
        if (i && start < s.start[i - 1])
            return problemAt(SliceStart, k, i,
                             "track %u, slice %zu: starts at %" PRId64
                             " ns, before slice %zu (%" PRId64
                             " ns): a track's slices are in start order",
                             unsigned(k), i, start, i - 1, s.start[i - 1]);
        if (dur < 0 || dur > hi - start)
            return problemAt(SliceDur, k, i,
                             "track %u, slice %zu: a duration of %" PRId64
                             " ns, %s (the trace ends at %" PRId64 " ns)",
                             unsigned(k), i, dur, dur < 0 ? "negative" : "past the trace's end",
                             hi);
        if (i && start == s.start[i - 1] && dur > s.dur[i - 1])
            return problemAt(SliceDur, k, i,
                             "track %u, slice %zu: longer than slice %zu, which starts at the "
                             "same time (the longer comes first)",
                             unsigned(k), i, i - 1);
        const TimeNs end = start + dur;
        while (!open.empty() && open.back().end <= start) open.pop_back();
        const SliceIndex parent = open.empty() ? kNoSlice : open.back().index;
        if (s.parent[i] != parent)
            return problemAt(SliceParent, k, i,
                             "track %u, slice %zu: parent %s, where the slices before it make it "
                             "%s",
                             unsigned(k), i, sliceText(s.parent[i]).c_str(),
                             sliceText(parent).c_str());
        if (s.depth[i] != open.size())
            return problemAt(SliceDepth, k, i,
                             "track %u, slice %zu: depth %u, where its parents make it %zu",
                             unsigned(k), i, unsigned(s.depth[i]), open.size());
        if (!open.empty() && end > open.back().end)
            return problemAt(SliceDur, k, i,
                             "track %u, slice %zu: ends at %" PRId64
                             " ns, after its parent slice %u (%" PRId64 " ns)",
                             unsigned(k), i, end, unsigned(parent), open.back().end);
        if (Problem p = sliceIndices(s, k, i, l); !p.ok()) return p;
        open.push_back({SliceIndex(i), end});
        longest = std::max(longest, dur);
        deepest = std::max(deepest, open.size());
    }
    if (tr.maxDepth != deepest || tr.maxDuration != longest)
        return problemAt(0, 0, 0,
                         "track %u: a deepest depth + 1 of %u and a longest slice of %" PRId64
                         " ns, where its slices' are %zu and %" PRId64 " ns",
                         unsigned(k), unsigned(tr.maxDepth), tr.maxDuration, deepest, longest);
    return {};
}

// A time column in order within the bounds.
Problem checkTimes(const Column<TimeNs>& ts, uint16_t array, uint32_t k, const char* what,
                   TimeRange bounds) {
    for (size_t i = 0; i < ts.size(); ++i) {
        if (ts[i] < bounds.start || ts[i] > bounds.end)
            return problemAt(array, k, i,
                             "track %u, %s %zu: at %" PRId64
                             " ns, outside the trace's bounds [%" PRId64 ", %" PRId64 "]",
                             unsigned(k), what, i, ts[i], bounds.start, bounds.end);
        if (i && ts[i] < ts[i - 1])
            return problemAt(array, k, i,
                             "track %u, %s %zu: at %" PRId64
                             " ns, before the one before it (%" PRId64
                             " ns): they are in time order",
                             unsigned(k), what, i, ts[i], ts[i - 1]);
    }
    return {};
}

} // namespace

Problem checkTrack(const Track& tr, uint32_t k, const TrackLimits& l) {
    if (tr.name >= l.strings)
        return problemAt(0, 0, 0, "track %u: a name that is no string", unsigned(k));
    if (Problem p = checkSlices(tr, k, l); !p.ok()) return p;
    if (Problem p = checkTimes(tr.counter.ts, CounterTs, k, "counter sample", l.bounds); !p.ok())
        return p;
    const InstantColumns& in = tr.instants;
    if (Problem p = checkTimes(in.ts, InstantTs, k, "instant", l.bounds); !p.ok()) return p;
    for (size_t i = 0; i < in.size(); ++i) {
        const uint16_t array = in.name[i] >= l.strings                            ? InstantName
                               : in.category[i] >= l.strings                      ? InstantCategory
                               : in.args[i] != kNoArgs && in.args[i] >= l.argSets ? InstantArgs
                                                                                  : 0;
        if (array)
            return problemAt(array, k, i, "track %u, instant %zu: an index out of range",
                             unsigned(k), i);
    }
    return {};
}

} // namespace strata::snapshot
