// The id indices of a model read from a file (model/id_index.h) against the slices: an index
// that names a slice carrying another id would show a kernel's launch as some other call. A slice
// whose id is kept in place is looked up there (the ids rise along a track, so the places are read
// in order, rather than each place followed to its slice: a cache miss or three each); a listed
// slice is followed from the list (a binary search per slice would cost more); both are counted.
#include "io/strata/model_file/snapshot_arrays.h"
#include "io/strata/model_file/snapshot_checks.h"
#include "model/trace.h"

#include <algorithm>
#include <cinttypes>

namespace strata::snapshot {
namespace {

// The array of an index's column: 0 counts, 1 places, 2 listed ids, 3 listed slices.
uint16_t column(bool external, int which) {
    return uint16_t((external ? ExternalDenseCount : CorrelationDenseCount) + which);
}

const char* nameOf(bool external) {
    return external ? "External-id" : "correlation";
}

bool has(const std::vector<Track>& tracks, SliceRef r) {
    return r.track < tracks.size() && r.index < tracks[r.track].slices.size();
}

// Where the index keeps `id`'s slices in place: their first place and how many there are; null
// when it lists them.
const SliceRef* placesOf(const IdIndex& x, int64_t id, uint8_t* n) {
    if (id < x.denseLo || uint64_t(id) - uint64_t(x.denseLo) >= x.denseCount.size()) return nullptr;
    const size_t i = size_t(uint64_t(id) - uint64_t(x.denseLo));
    if (x.denseCount[i] == IdIndex::kListed) return nullptr;
    *n = std::min(x.denseCount[i], x.places); // (more is refused by checkIndexPiece)
    return x.densePlaces.data() + i * x.places;
}

// The id slice r (in range) carries under index f; -1: none.
int64_t idOf(const IdSources& ids, int f, SliceRef r) {
    const uint32_t e = ids.tracks[r.track].slices.extra[r.index];
    if (e >= ids.extras.size()) return -1;
    if (f == 0) return ids.extras[e].correlation;
    const uint32_t x = ids.extras[e].external;
    return x < ids.externalIds.size() ? ids.externalIds[x] : -1;
}

// Entry `at` of column `which` names slice r, which must follow `before`.
Problem checkEntry(const std::vector<Track>& tracks, bool ext, int which, size_t at, int64_t id,
                   SliceRef r, const SliceRef* before) {
    if (!has(tracks, r))
        return problemAt(column(ext, which), 0, at,
                         "the %s index: id %" PRId64
                         " names a slice the model does not have (track %u, slice %u)",
                         nameOf(ext), id, unsigned(r.track), unsigned(r.index));
    if (before && !(*before < r))
        return problemAt(column(ext, which), 0, at,
                         "the %s index: id %" PRId64 "'s slices out of order or repeated",
                         nameOf(ext), id);
    return {};
}

} // namespace

Problem checkSliceIds(const Track& track, uint32_t k, const IdSources& ids, IdCounts* counts) {
    const Column<uint32_t>& extra = track.slices.extra;
    for (size_t i = 0; i < extra.size(); ++i) {
        const uint32_t e = extra[i];
        if (e >= ids.extras.size()) continue;
        const SliceExtra& x = ids.extras[e];
        const int64_t id[2] = {
            x.correlation, x.external < ids.externalIds.size() ? ids.externalIds[x.external] : -1};
        for (int f = 0; f < 2; ++f) {
            if (id[f] < 0) continue;
            uint8_t n = 0;
            const SliceRef* places = placesOf(*ids.index[f], id[f], &n);
            if (!places) {
                ++counts->listed[f];
                continue;
            }
            ++counts->inPlace[f];
            if (std::find(places, places + n, SliceRef{k, SliceIndex(i)}) == places + n)
                return problemAt(SliceExtraColumn, k, i,
                                 "track %u, slice %zu: it carries %s id %" PRId64
                                 ", among whose slices the index does not hold it",
                                 unsigned(k), i, nameOf(f == 1), id[f]);
        }
    }
    return {};
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

size_t entriesInPlace(const IdIndex& x) {
    size_t n = 0;
    for (const uint8_t c : x.denseCount) n += c == IdIndex::kListed ? 0 : c;
    return n;
}

Problem checkIndexPiece(const IdSources& ids, int f, size_t piece, size_t pieces) {
    const IdIndex& x = *ids.index[f];
    const bool external = f == 1;
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
            if (Problem p = checkEntry(ids.tracks, external, 1, at, id, x.densePlaces[at], before);
                !p.ok())
                return p;
        }
    }
    const size_t last = listed * (piece + 1) / pieces;
    for (size_t j = listed * piece / pieces; j < last; ++j) {
        const int64_t id = x.listIds[j];
        if (j && id < x.listIds[j - 1])
            return problemAt(column(external, 2), 0, j,
                             "the %s index's list: id %" PRId64 " after %" PRId64
                             " (the list is sorted by id)",
                             nameOf(external), id, x.listIds[j - 1]);
        uint8_t n = 0;
        if (placesOf(x, id, &n))
            return problemAt(column(external, 2), 0, j,
                             "the %s index's list: id %" PRId64 ", whose slices are kept in place",
                             nameOf(external), id);
        const SliceRef r = x.listRefs[j];
        const SliceRef* before = j && x.listIds[j - 1] == id ? &x.listRefs[j - 1] : nullptr;
        if (Problem p = checkEntry(ids.tracks, external, 3, j, id, r, before); !p.ok()) return p;
        if (const int64_t carried = idOf(ids, f, r); carried != id)
            return problemAt(column(external, 3), 0, j,
                             "the %s index's list: id %" PRId64
                             " names track %u's slice %u, which carries %" PRId64,
                             nameOf(external), id, unsigned(r.track), unsigned(r.index), carried);
    }
    return {};
}

} // namespace strata::snapshot
