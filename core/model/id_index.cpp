#include "model/id_index.h"

#include "model/parallel_for.h"
#include "model/radix_sort.h"

#include <algorithm>
#include <tuple>

namespace strata {

namespace {

// Calls f(id, ref) for every slice of track t that has the id, in slice order.
template <typename F>
void forEachId(const std::vector<Track>& tracks, const PodVector<SliceExtra>& extras,
               int64_t SliceExtra::*field, TrackId t, F&& f) {
    const auto& ex = tracks[t].slices.extra;
    for (SliceIndex k = 0; k < ex.size(); ++k) {
        if (ex[k] == kNoExtra) continue;
        const int64_t id = extras[ex[k]].*field;
        if (id >= 0) f(id, SliceRef{t, k});
    }
}

// The sparse path: each track's entries written at its offset (on all cores), then sorted.
void sortedIndex(const std::vector<Track>& tracks, const PodVector<SliceExtra>& extras,
                 int64_t SliceExtra::*field, bool parallel, PodVector<IdIndexEntry>& out) {
    const size_t nTracks = tracks.size();
    std::vector<size_t> offset(nTracks + 1, 0);
    parallelFor(nTracks, parallel, [&](size_t t) {
        forEachId(tracks, extras, field, TrackId(t), [&](int64_t, SliceRef) { ++offset[t + 1]; });
    });
    for (size_t t = 0; t < nTracks; ++t) offset[t + 1] += offset[t];
    out.resize_for_overwrite(offset[nTracks]);
    parallelFor(nTracks, parallel, [&](size_t t) {
        IdIndexEntry* w = out.data() + offset[t];
        forEachId(tracks, extras, field, TrackId(t), [&](int64_t id, SliceRef ref) {
            *w++ = IdIndexEntry{id, ref};
        });
    });
    const auto byIdThenRef = [](const IdIndexEntry& a, const IdIndexEntry& b) {
        return std::tie(a.id, a.ref) < std::tie(b.id, b.ref);
    };
    if (std::is_sorted(out.begin(), out.end(), byIdThenRef)) return;
    // Entries were made in (track, index) order: a stable sort by id alone orders by (id, ref).
    if (!radixSortStable(out.data(), out.size(), [](const IdIndexEntry& e) { return e.id; }))
        std::sort(out.begin(), out.end(), byIdThenRef);
}

} // namespace

void buildIdIndex(const std::vector<Track>& tracks, const PodVector<SliceExtra>& extras,
                  int64_t SliceExtra::*field, bool parallel, PodVector<IdIndexEntry>& out) {
    // Every extra belongs to one slice, so the ids are counted straight from the extras, in
    // memory order (the slices of one track reach them scattered among the other tracks').
    size_t count = 0;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (const SliceExtra& e : extras) {
        const int64_t id = e.*field;
        if (id < 0) continue;
        ++count;
        lo = std::min(lo, id);
        hi = std::max(hi, id);
    }
    if (count == 0) return out.clear();
    const uint64_t span = uint64_t(hi) - uint64_t(lo);
    if (span >= 4 * count || count >= UINT32_MAX)
        return sortedIndex(tracks, extras, field, parallel, out);

    // Dense ids: a counting sort straight into place, tracks visited in order so that equal ids
    // stay in (track, index) order.
    std::vector<uint32_t> at(span + 2, 0);
    for (const SliceExtra& e : extras)
        if (e.*field >= 0) ++at[uint64_t(e.*field - lo) + 1];
    for (size_t i = 1; i < at.size(); ++i) at[i] += at[i - 1];
    out.resize_for_overwrite(count);
    size_t placed = 0;
    for (TrackId t = 0; t < tracks.size(); ++t)
        forEachId(tracks, extras, field, t, [&](int64_t id, SliceRef ref) {
            const uint32_t pos = at[uint64_t(id - lo)]++;
            if (pos < count) out[pos] = IdIndexEntry{id, ref};
            ++placed;
        });
    // An extra shared or left out by the slices would leave holes: never expected, but then
    // the sparse path is exact.
    if (placed != count) sortedIndex(tracks, extras, field, parallel, out);
}

} // namespace strata
