#pragma once
// Build-time step: the sorted (id, slice) indices of the slices' correlation ids and Kineto
// External ids, for Trace::byCorrelation / byExternalId.
#include "model/trace.h"

namespace strata {

// Fills `correlation` and `external` with an entry per slice whose extra has a non-negative id,
// each sorted by (id, ref). The entries are made track by track, slice by slice (so in ref
// order) and placed by id keeping that order: by counting when the ids are dense (recorders
// number them as they go; both cores, each placing half of the ids), else by a stable sort.
void buildIdIndices(const std::vector<Track>& tracks, const PodVector<SliceExtra>& extras,
                    bool parallel, PodVector<IdIndexEntry>& correlation,
                    PodVector<IdIndexEntry>& external);

} // namespace strata
