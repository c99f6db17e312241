#pragma once
// Build-time step: puts a track's slices in nesting order, nests them (depth, parent) in the
// track's columns and moves the slices that overlap without nesting to extra lanes.
#include "model/trace.h"
#include "model/track.h"
#include "util/pod_vector.h"

#include <vector>

namespace strata {

// A slice as the builder holds it before build().
struct RawSlice {
    TimeNs start = 0;
    TimeNs dur = 0;
    StringId name = 0;
    StringId category = 0;
    ArgSetId args = kNoArgs;
    uint32_t extra = kNoExtra;
    SliceKind kind = SliceKind::Generic;
    uint8_t flags = 0;
    uint32_t seq = 0; // insertion order on its track (for v2 flows)
};

// Nesting order: start ascending; at equal starts the longer slice first (it becomes the
// parent); then insertion order.
inline bool nestsBefore(const RawSlice& a, const RawSlice& b) {
    if (a.start != b.start) return a.start < b.start;
    if (a.dur != b.dur) return a.dur > b.dur;
    return a.seq < b.seq;
}

class SliceNester {
public:
    // A base track nested with its extra lanes: the lanes beyond the first (the base track
    // itself, filled in place) and how many slices went to them.
    struct Lanes {
        std::vector<Track> extra;
        size_t spilled = 0;
    };
    // Nests `pending` into `base` and what overlaps without nesting into as many extra lanes as
    // it takes (each a copy of base's identity with lane = 1, 2, ...): a slice goes to the first
    // lane where it nests, so lanes are reused once their slices end. With `seqMap`: for every
    // seq below seqCount, SliceRef{lane number (0 = base), index in that lane}.
    Lanes nestIntoLanes(PodVector<RawSlice> pending, Track& base,
                        std::vector<SliceRef>* seqMap = nullptr, uint32_t seqCount = 0);

    // The same for a base track whose columns a reader filled in insertion order (the slice at
    // index k has seq k, counting only those; see TraceBuilder::prefillSlices) and the slices
    // `fromEdges` made from its B/E pairs (their seqs counting both kinds). Sorted columns stay
    // where they are: the few slices from B/E are merged in and the columns nested in place.
    Lanes nestPrefilled(Track& base, PodVector<RawSlice> fromEdges);

private:
    // Fills `track.slices` (empty before) with `slices` in nesting order and nests them;
    // `slices` is consumed (empty on return, its memory given back as the columns grow). With
    // `seqs`, seqs[k] is the seq of the track's slice k.
    void nest(PodVector<RawSlice>& slices, Track& track, Lanes& lanes, std::vector<uint32_t>* seqs,
              std::vector<SliceRef>* seqMap);
    // The nesting itself, for a track whose columns (start, dur, name, category, args, extra,
    // kind, flags) already hold its slices in nesting order: fills parent, depth, maxDepth and
    // maxDuration, and moves the slices that overlap without nesting to extra lanes in one pass
    // (O(log lanes) each), removing them from the columns (and from seqs; with seqMap, every
    // slice's place is written there).
    void nestSorted(Track& track, Lanes& lanes, std::vector<uint32_t>* seqs,
                    std::vector<SliceRef>* seqMap);
};

} // namespace strata
