#pragma once
// Build-time step: the sorted (id, slice) index of one id field of the slices' extras
// (correlation ids or Kineto External ids), for Trace::byCorrelation / byExternalId.
#include "model/trace.h"

namespace strata {

// Fills `out` with an entry per slice whose extra has a non-negative `field`, sorted by (id, ref).
// Ids are mostly dense counters: then one counting pass puts every entry in place with no
// scratch memory; sparse ids are radix- (or, when very spread, comparison-) sorted.
void buildIdIndex(const std::vector<Track>& tracks, const PodVector<SliceExtra>& extras,
                  int64_t SliceExtra::*field, bool parallel, PodVector<IdIndexEntry>& out);

} // namespace strata
