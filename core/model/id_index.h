#pragma once
// Build-time step: the sorted (id, slice) indices of the slices' correlation ids and Kineto
// External ids, for Trace::byCorrelation / byExternalId.
#include "model/trace.h"

namespace strata {

// Fills `correlation` and `external` with an entry per slice whose extra has a non-negative id,
// each sorted by (id, ref). Every extra belongs to one slice: the entries are made by walking
// the extras in memory order (ids there are mostly already ascending: recorders number them as
// they go), then radix-sorted by id if they are not, and equal ids put in slice order.
void buildIdIndices(const std::vector<Track>& tracks, const PodVector<SliceExtra>& extras,
                    bool parallel, PodVector<IdIndexEntry>& correlation,
                    PodVector<IdIndexEntry>& external);

} // namespace strata
