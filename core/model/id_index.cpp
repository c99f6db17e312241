#include "model/id_index.h"

#include "model/parallel_for.h"
#include "model/radix_sort.h"

#include <algorithm>
#include <atomic>
#include <tuple>

namespace strata {

namespace {

bool byIdThenRef(const IdIndexEntry& a, const IdIndexEntry& b) {
    return std::tie(a.id, a.ref) < std::tie(b.id, b.ref);
}

// [begin, end) of half h of n items.
std::pair<size_t, size_t> half(size_t n, size_t h) {
    return {h == 0 ? 0 : n / 2, h == 0 ? n / 2 : n};
}

// owner[e] = the slice whose extra is e, or an invalid ref. Returns false when some extra is
// named by two slices (never made by the builder; the caller then takes the slow path).
bool extraOwners(const std::vector<Track>& tracks, size_t nExtras, bool parallel,
                 PodVector<SliceRef>& owner) {
    owner.resize_for_overwrite(nExtras);
    parallelFor(2, parallel, [&](size_t h) {
        const auto [lo, hi] = half(nExtras, h);
        std::fill(owner.begin() + lo, owner.begin() + hi, SliceRef{});
    });
    std::atomic<size_t> named{0};
    parallelFor(tracks.size(), parallel, [&](size_t t) {
        const auto& ex = tracks[t].slices.extra;
        size_t n = 0;
        for (SliceIndex k = 0; k < ex.size(); ++k) {
            if (ex[k] >= nExtras) continue;
            // Tracks own disjoint extras; the atomic store only keeps a damaged model defined.
            std::atomic_ref<SliceRef>(owner[ex[k]])
                .store(SliceRef{TrackId(t), k}, std::memory_order_relaxed);
            ++n;
        }
        named += n;
    });
    std::atomic<size_t> owned{0};
    parallelFor(2, parallel, [&](size_t h) {
        const auto [lo, hi] = half(nExtras, h);
        size_t n = 0;
        for (size_t e = lo; e < hi; ++e) n += owner[e].valid();
        owned += n;
    });
    return owned == named;
}

// Orders entries made in extras order by (id, ref): a stable radix sort by id when the ids are
// not ascending yet, then every run of equal ids sorted by ref (runs are short: a launch and
// its kernel).
void sortEntries(PodVector<IdIndexEntry>& out, bool idsAscending) {
    if (!idsAscending &&
        !radixSortStable(out.data(), out.size(), [](const IdIndexEntry& e) { return e.id; }))
        return std::sort(out.begin(), out.end(), byIdThenRef);
    for (size_t i = 0; i < out.size();) {
        size_t j = i + 1;
        bool sorted = true;
        for (; j < out.size() && out[j].id == out[i].id; ++j) sorted &= out[j - 1].ref < out[j].ref;
        if (!sorted) std::sort(out.begin() + i, out.begin() + j, byIdThenRef);
        i = j;
    }
}

// The index of one id field through the owners: each half of the extras counted, then written
// at its offset (on both cores).
void indexField(const PodVector<SliceExtra>& extras, const PodVector<SliceRef>& owner,
                int64_t SliceExtra::*field, bool parallel, PodVector<IdIndexEntry>& out) {
    struct Half {
        size_t count = 0;
        bool ascending = true;
        int64_t first = INT64_MAX, last = INT64_MIN;
    } halves[2];
    parallelFor(2, parallel, [&](size_t h) {
        const auto [lo, hi] = half(extras.size(), h);
        Half& r = halves[h];
        for (size_t e = lo; e < hi; ++e) {
            const int64_t id = extras[e].*field;
            if (id < 0 || !owner[e].valid()) continue;
            if (r.count++ == 0) r.first = id;
            r.ascending &= id >= r.last;
            r.last = id;
        }
    });
    out.clear();
    const size_t count = halves[0].count + halves[1].count;
    if (count == 0) return;
    out.resize_for_overwrite(count);
    parallelFor(2, parallel, [&](size_t h) {
        const auto [lo, hi] = half(extras.size(), h);
        IdIndexEntry* w = out.data() + (h == 0 ? 0 : halves[0].count);
        for (size_t e = lo; e < hi; ++e) {
            const int64_t id = extras[e].*field;
            if (id >= 0 && owner[e].valid()) *w++ = IdIndexEntry{id, owner[e]};
        }
    });
    const bool ascending =
        halves[0].ascending && halves[1].ascending &&
        (halves[0].count == 0 || halves[1].count == 0 || halves[0].last <= halves[1].first);
    sortEntries(out, ascending);
}

// The slow path for a model where extras are shared: every (track, slice) visited.
void indexByTracks(const std::vector<Track>& tracks, const PodVector<SliceExtra>& extras,
                   int64_t SliceExtra::*field, PodVector<IdIndexEntry>& out) {
    out.clear();
    for (TrackId t = 0; t < tracks.size(); ++t) {
        const auto& ex = tracks[t].slices.extra;
        for (SliceIndex k = 0; k < ex.size(); ++k)
            if (ex[k] < extras.size() && extras[ex[k]].*field >= 0)
                out.push_back(IdIndexEntry{extras[ex[k]].*field, SliceRef{t, k}});
    }
    sortEntries(out, false);
}

} // namespace

void buildIdIndices(const std::vector<Track>& tracks, const PodVector<SliceExtra>& extras,
                    bool parallel, PodVector<IdIndexEntry>& correlation,
                    PodVector<IdIndexEntry>& external) {
    PodVector<SliceRef> owner;
    const bool unique = extraOwners(tracks, extras.size(), parallel, owner);
    for (int i = 0; i < 2; ++i) {
        const auto field = i == 0 ? &SliceExtra::correlation : &SliceExtra::externalId;
        auto& out = i == 0 ? correlation : external;
        if (unique)
            indexField(extras, owner, field, parallel, out);
        else
            indexByTracks(tracks, extras, field, out);
    }
}

} // namespace strata
