#pragma once
// Build-time step: sorts one lane's slices, nests them (depth, parent, self time) into the
// track's columns, and hands back the slices that overlap without nesting (for the next lane).
#include "model/pod_vector.h"
#include "model/track.h"

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

class SliceNester {
public:
    // Fills `track.slices` (empty before) with the slices that nest and moves the rest to
    // `overflow`; `slices` is consumed (empty on return, its memory given back as the columns
    // grow). With `seqs`, seqs[k] is the seq of the track's slice k.
    void nest(PodVector<RawSlice>& slices, Track& track, PodVector<RawSlice>& overflow,
              std::vector<uint32_t>* seqs = nullptr);
};

} // namespace strata
