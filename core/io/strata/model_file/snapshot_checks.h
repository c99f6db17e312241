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
struct StackSamples;
} // namespace strata

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

// The slices carrying an id, of every track, [0] correlation ids and [1] External ids: those whose
// id the index keeps in place and those whose id it lists.
struct IdCounts {
    size_t inPlace[2] = {0, 0};
    size_t listed[2] = {0, 0};
};
// The model's ids: its extras (checked: their indices in range) and External ids, its indices.
struct IdSources {
    const std::vector<Track>& tracks;
    const PodVector<SliceExtra>& extras;
    const PodVector<int64_t>& externalIds;
    const IdIndex* index[2]; // correlation, External id
};
// Track `k`'s slices that carry an id, counted into *counts; each whose id is kept in place must
// be among that id's places (the ids rise along a track: the places are read in order).
Problem checkSliceIds(const Track& track, uint32_t k, const IdSources& ids, IdCounts* counts);

// Index `f` (0: correlation, 1: External id) of a model read from a file, piece `piece` of
// `pieces` of it: each entry names a slice of the model, an id's slices in ref order (none twice),
// the list sorted by id, holding no id kept in place, each listed slice carrying its id. With
// checkSliceIds, and as many entries in place and listed as there are such slices, the index
// holds exactly the slices that carry an id, each under its own.
Problem checkIndexPiece(const IdSources& ids, int f, size_t piece, size_t pieces);
// The index's sizes agree (its places per id, its list's two columns).
Problem checkIndexSizes(const IdIndex& index, bool external);
// The slices the index keeps in place (the listed ones: listIds.size()).
size_t entriesInPlace(const IdIndex& index);

// The stack samples (model/stack_samples.h): each callsite's parent before it and its frame a
// string; the threads sorted, their rows one after the other covering every sample; each
// thread's samples in time order within the bounds, naming a callsite and a known kind.
Problem checkStackSamples(const StackSamples& samples, size_t strings, TimeRange bounds);

} // namespace strata::snapshot
