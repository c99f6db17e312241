#pragma once
// The checks of a model read from a file (TraceSnapshot::validate): every index points inside the
// model and every value is one TraceBuilder::build() could have made — each track's slices in
// start order (the longer first at equal starts), within the trace's bounds, nested exactly as
// their parents and depths say; counter samples and instants in time order within the bounds;
// the flows' orders, the id indices, the process, thread and section lists sorted as their
// lookups assume. A problem names the array and the element (or the Model record's field).
// Internal to io/snapshot.
#include "model/id_index.h"
#include "model/time.h"
#include "util/pod_vector.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace strata {
struct SliceExtra;
}

namespace strata::snapshot {

// What is wrong with a model read from a file, and where: element `element` of array `array`
// (ids: snapshot_arrays.h) of `owner`, or a field of the Model record (array 0).
struct Problem {
    std::string what;
    uint16_t array = 0;
    uint32_t owner = 0;
    uint64_t element = 0;
    bool ok() const { return what.empty(); }
};

// A problem at an element, or (array 0) in the Model record; printf-style.
Problem problemAt(uint16_t array, uint32_t owner, uint64_t element, const char* f, ...)
    __attribute__((format(printf, 4, 5)));

// What a track's values may point into and must lie within.
struct TrackLimits {
    size_t strings = 0;
    size_t argSets = 0;
    size_t extras = 0;
    TimeRange bounds;
};

// Track `k`: its slices (indices, order, times, nesting, kinds, flags, maxDepth and maxDuration),
// its counter samples and its instants.
Problem checkTrack(const Track& track, uint32_t k, const TrackLimits& limits);

// The slices carrying an id, of every track: [0] correlation ids, [1] External ids.
struct IdCounts {
    size_t of[2] = {0, 0};
};
// Track `k`'s slices that carry a correlation id and an External id (their extras checked).
IdCounts countIds(const Track& track, const PodVector<SliceExtra>& extras,
                  const PodVector<int64_t>& externalIds);

// An id index (`external`: the External-id one) read from a file, piece `piece` of `pieces` of
// it: each entry names a slice that carries its id, an id's slices in ref order, the list sorted
// by id and holding no id kept in place. With IdCounts and indexEntries() equal, the index holds
// exactly the slices that carry an id, each under its own.
Problem checkIndexPiece(const IdIndex& index, bool external, const std::vector<Track>& tracks,
                        const PodVector<SliceExtra>& extras, const PodVector<int64_t>& externalIds,
                        size_t piece, size_t pieces);
// The index's sizes agree (its places per id, its list's two columns).
Problem checkIndexSizes(const IdIndex& index, bool external);
// The slices the index holds.
size_t indexEntries(const IdIndex& index);

} // namespace strata::snapshot
