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
    // On return `slices` holds the accepted slices in column order (slice k of the track is
    // slices[k]); the rest are in `overflow`. `track.slices` must be empty.
    void nest(PodVector<RawSlice>& slices, Track& track, PodVector<RawSlice>& overflow);
};

} // namespace strata
