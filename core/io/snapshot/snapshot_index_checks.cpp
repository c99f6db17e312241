// The id indices of a model read from a file (model/id_index.h) against the slices: an index
// that names a slice carrying another id would show a kernel's launch as some other call.
#include "io/snapshot/snapshot_arrays.h"
#include "io/snapshot/snapshot_checks.h"
#include "model/trace.h"

#include <cinttypes>

namespace strata::snapshot {
namespace {

// The id slice r carries (-1: none), r in range.
struct IdOf {
    const std::vector<Track>& tracks;
    const PodVector<SliceExtra>& extras;
    const PodVector<int64_t>& externalIds;
    bool external;

    bool has(SliceRef r) const {
        return r.track < tracks.size() && r.index < tracks[r.track].slices.size();
    }
    int64_t operator()(SliceRef r) const {
        const uint32_t e = tracks[r.track].slices.extra[r.index];
        if (e >= extras.size()) return -1;
        if (!external) return extras[e].correlation;
        const uint32_t x = extras[e].external;
        return x < externalIds.size() ? externalIds[x] : -1;
    }
};

// The array of an index's column: 0 counts, 1 places, 2 listed ids, 3 listed slices.
uint16_t column(bool external, int which) {
    return uint16_t((external ? ExternalDenseCount : CorrelationDenseCount) + which);
}

const char* nameOf(bool external) {
    return external ? "External-id" : "correlation";
}

// Entry `at` of column `which` names slice r, which must carry `id` and follow `before`.
Problem checkEntry(const IdOf& idOf, int which, size_t at, int64_t id, SliceRef r,
                   const SliceRef* before) {
    const bool ext = idOf.external;
    if (!idOf.has(r))
        return problemAt(column(ext, which), 0, at,
                         "the %s index: id %" PRId64
                         " names a slice the model does not have (track %u, slice %u)",
                         nameOf(ext), id, unsigned(r.track), unsigned(r.index));
    if (before && !(*before < r))
        return problemAt(column(ext, which), 0, at,
                         "the %s index: id %" PRId64 "'s slices out of order or repeated",
                         nameOf(ext), id);
    if (const int64_t carried = idOf(r); carried != id)
        return problemAt(column(ext, which), 0, at,
                         "the %s index: id %" PRId64
                         " names track %u's slice %u, which carries %" PRId64,
                         nameOf(ext), id, unsigned(r.track), unsigned(r.index), carried);
    return {};
}

} // namespace

IdCounts countIds(const Track& track, const PodVector<SliceExtra>& extras,
                  const PodVector<int64_t>& externalIds) {
    IdCounts c;
    for (const uint32_t e : track.slices.extra) {
        if (e >= extras.size()) continue;
        const SliceExtra& x = extras[e];
        c.of[0] += x.correlation >= 0;
        c.of[1] += x.external < externalIds.size() && externalIds[x.external] >= 0;
    }
    return c;
}

Problem checkIndexSizes(const IdIndex& x, bool external) {
    if (x.densePlaces.size() != x.denseCount.size() * x.places)
        return problemAt(column(external, 1), 0, 0, "the %s index: its places and ids disagree",
                         nameOf(external));
    if (x.listRefs.size() != x.listIds.size())
        return problemAt(column(external, 3), 0, 0,
                         "the %s index: its list's ids and slices disagree", nameOf(external));
    return {};
}

size_t indexEntries(const IdIndex& x) {
    size_t n = x.listIds.size();
    for (const uint8_t c : x.denseCount) n += c == IdIndex::kListed ? 0 : c;
    return n;
}

Problem checkIndexPiece(const IdIndex& x, bool external, const std::vector<Track>& tracks,
                        const PodVector<SliceExtra>& extras, const PodVector<int64_t>& externalIds,
                        size_t piece, size_t pieces) {
    const IdOf idOf{tracks, extras, externalIds, external};
    const size_t dense = x.denseCount.size(), listed = x.listIds.size();
    for (size_t i = dense * piece / pieces; i < dense * (piece + 1) / pieces; ++i) {
        const uint8_t n = x.denseCount[i];
        if (n == IdIndex::kListed) continue;
        const int64_t id = x.denseLo + int64_t(i);
        if (n > x.places)
            return problemAt(column(external, 0), 0, i,
                             "the %s index: %u slices in place for id %" PRId64
                             ", which has %u places",
                             nameOf(external), unsigned(n), id, unsigned(x.places));
        for (uint8_t k = 0; k < n; ++k) {
            const size_t at = i * x.places + k;
            const SliceRef* before = k ? &x.densePlaces[at - 1] : nullptr;
            if (Problem p = checkEntry(idOf, 1, at, id, x.densePlaces[at], before); !p.ok())
                return p;
        }
    }
    for (size_t j = listed * piece / pieces; j < listed * (piece + 1) / pieces; ++j) {
        const int64_t id = x.listIds[j];
        if (j && id < x.listIds[j - 1])
            return problemAt(column(external, 2), 0, j,
                             "the %s index's list: id %" PRId64 " after %" PRId64
                             " (the list is sorted by id)",
                             nameOf(external), id, x.listIds[j - 1]);
        if (id >= x.denseLo && uint64_t(id) - uint64_t(x.denseLo) < dense &&
            x.denseCount[size_t(uint64_t(id) - uint64_t(x.denseLo))] != IdIndex::kListed)
            return problemAt(column(external, 2), 0, j,
                             "the %s index's list: id %" PRId64 ", whose slices are kept in place",
                             nameOf(external), id);
        const SliceRef* before = j && x.listIds[j - 1] == id ? &x.listRefs[j - 1] : nullptr;
        if (Problem p = checkEntry(idOf, 3, j, id, x.listRefs[j], before); !p.ok()) return p;
    }
    return {};
}

} // namespace strata::snapshot
