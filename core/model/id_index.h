#pragma once
// The slices that carry each correlation id or Kineto External id, for Trace::byCorrelation /
// byExternalId, and the build-time step that makes them.
#include "util/pod_vector.h"
#include "model/track.h"

#include <span>
#include <vector>

namespace strata {

struct SliceExtra;

// Id -> the slices carrying it, in ref order. Dense ids (recorders number them as they go) keep
// up to `places` slices each in place — 2 for correlation ids (a launch and its kernel), 4 for
// External ids (a CPU op, its runtime call and kernel) — and an id with more is listed apart;
// sparse ids are all listed. Built once by buildIdIndices().
struct IdIndex {
    static constexpr uint8_t kListed = UINT8_MAX;
    uint8_t places = 2;
    int64_t denseLo = 0;
    PodVector<uint8_t> denseCount;   // per id denseLo + i: slices in place (0..places) or kListed
    PodVector<SliceRef> densePlaces; // `places` per id, the first denseCount[i] of them set
    PodVector<int64_t> listIds;      // sorted
    PodVector<SliceRef> listRefs;    // listRefs[j] carries listIds[j]; ref order within an id

    std::span<const SliceRef> find(int64_t id) const;
    size_t memoryBytes() const;
};

// Fills `correlation` and `external` from every slice whose extra has a non-negative id
// (`externalIds`: the trace's External ids, which extras point into).
void buildIdIndices(const std::vector<Track>& tracks, const PodVector<SliceExtra>& extras,
                    const PodVector<int64_t>& externalIds, bool parallel, IdIndex& correlation,
                    IdIndex& external);

} // namespace strata
