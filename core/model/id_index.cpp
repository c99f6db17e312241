#include "model/id_index.h"

#include "model/trace.h"
#include "util/parallel_for.h"
#include "util/radix_sort.h"

#include <algorithm>

namespace strata {

namespace {

// The id a slice's extra carries (-1: none, or no extra): its correlation id, or with
// `external`, its External id. Held by value in the loops below, so that the stores of the
// index (bytes, which may alias anything) do not make the compiler reload it.
struct IdOf {
    const SliceExtra* extras = nullptr;
    size_t extraCount = 0;
    const int64_t* external = nullptr;
    int64_t operator()(uint32_t e) const {
        if (e >= extraCount) return -1;
        if (!external) return extras[e].correlation;
        const uint32_t x = extras[e].external;
        return x == SliceExtra::kNone ? -1 : external[x];
    }
};

struct IdRange {
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    size_t count = 0; // extras with an id
    void add(const IdRange& o) {
        lo = std::min(lo, o.lo);
        hi = std::max(hi, o.hi);
        count += o.count;
    }
};

// The range of the non-negative ids id(i) over half h of [0, n).
template <typename Id> IdRange rangeOfHalf(size_t n, size_t h, Id&& id) {
    IdRange r;
    for (size_t i = h == 0 ? 0 : n / 2, end = h == 0 ? n / 2 : n; i < end; ++i)
        if (const int64_t v = id(i); v >= 0) r.add({v, v, 1});
    return r;
}

// f(id, ref) for every slice whose extra has an id, in ref order.
template <typename F> void forEachId(const std::vector<Track>& tracks, const IdOf idOf, F&& f) {
    for (TrackId t = 0; t < tracks.size(); ++t) {
        const auto& ex = tracks[t].slices.extra;
        for (SliceIndex k = 0; k < ex.size(); ++k)
            if (const int64_t id = idOf(ex[k]); id >= 0) f(id, SliceRef{t, k});
    }
}

// The slices [begin, end) of each track one walk visits.
struct Span {
    SliceIndex begin = 0, end = 0;
};

// The id of the first slice at or after k that has one (INT64_MAX: none).
int64_t nextId(const Track& t, const IdOf idOf, SliceIndex k) {
    const auto& ex = t.slices.extra;
    for (; k < ex.size(); ++k)
        if (const int64_t id = idOf(ex[k]); id >= 0) return id;
    return INT64_MAX;
}

// Where a track's ids reach `mid`, if they rise along the track (a binary search).
SliceIndex splitAt(const Track& t, const IdOf idOf, int64_t mid) {
    SliceIndex lo = 0, hi = SliceIndex(t.slices.size());
    while (lo < hi) {
        const SliceIndex m = lo + (hi - lo) / 2;
        if (nextId(t, idOf, m) >= mid)
            hi = m;
        else
            lo = m + 1;
    }
    return lo;
}

// g(id, ref) for every slice of `spans` whose extra has an id in [lo, hi], the ids taken in
// windows of kWindow: a track's slices come mostly in id order, so each window's counts and
// entries stay in cache. Sets `late` when some id came after its window (its track's ids go
// back in time: equal ids may then be out of ref order) and `outside` when a slice with an id
// outside [lo, hi] was met (skipped).
template <typename G>
void forEachIdInWindows(const std::vector<Track>& tracks, const IdOf idOf, int64_t lo, int64_t hi,
                        const std::vector<Span>& spans, bool& lateOut, bool& outsideOut, G&& g) {
    constexpr int64_t kWindow = 1 << 14;
    bool late = false, outside = false; // locals: g's stores may alias the caller's flags
    std::vector<SliceIndex> cursor(tracks.size());
    for (TrackId t = 0; t < tracks.size(); ++t) cursor[t] = spans[t].begin;
    for (int64_t from = lo;; from += kWindow) {
        const int64_t to = hi - from < kWindow ? INT64_MAX : from + kWindow - 1; // last: the rest
        for (TrackId t = 0; t < tracks.size(); ++t) {
            const uint32_t* ex = tracks[t].slices.extra.data();
            const SliceIndex end = spans[t].end;
            SliceIndex k = cursor[t];
            for (; k < end; ++k) {
                const int64_t id = idOf(ex[k]);
                if (id < 0) continue;
                if (id > to) break;
                if (id < lo || id > hi) {
                    outside = true;
                    continue;
                }
                late |= id < from;
                g(id, SliceRef{t, k});
            }
            cursor[t] = k;
        }
        if (to == INT64_MAX) break;
    }
    lateOut = late;
    outsideOut = outside;
}

struct Entry {
    int64_t id;
    SliceRef ref;
};

// Sorts the listed entries by (id, ref) into the index's list. They came in ref order per id
// unless `late`.
void setList(PodVector<Entry>& entries, bool late, IdIndex& out) {
    if (!radixSortStable(entries.data(), entries.size(), [](const Entry& e) { return e.id; }))
        late = true; // keys too far apart for a radix sort
    if (late)
        std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
            return a.id != b.id ? a.id < b.id : a.ref < b.ref;
        });
    out.listIds.resize_for_overwrite(entries.size());
    out.listRefs.resize_for_overwrite(entries.size());
    for (size_t j = 0; j < entries.size(); ++j) {
        out.listIds[j] = entries[j].id;
        out.listRefs[j] = entries[j].ref;
    }
}

// Dense ids: each slice put in its id's next place; a slice beyond the id's places moves the
// id's slices to the list. Each core takes half of the ids and, where a track's ids rise, only the
// part of the track that holds them (else the whole track, skipping the rest).
void indexDense(const std::vector<Track>& tracks, const IdOf idOf, const IdRange& r, bool parallel,
                IdIndex& out) {
    const size_t span = size_t(uint64_t(r.hi) - uint64_t(r.lo)) + 1;
    const int64_t mid = r.lo + int64_t(span / 2);
    const std::pair<int64_t, int64_t> ids[2] = {{r.lo, mid - 1}, {mid, r.hi}};
    std::vector<Span> spans[2] = {std::vector<Span>(tracks.size()),
                                  std::vector<Span>(tracks.size())};
    for (TrackId t = 0; t < tracks.size(); ++t) {
        const SliceIndex split = splitAt(tracks[t], idOf, mid);
        spans[0][t] = {0, split};
        spans[1][t] = {split, SliceIndex(tracks[t].slices.size())};
    }
    out.denseLo = r.lo;
    out.denseCount.resize_for_overwrite(span);
    const size_t p = out.places;
    out.densePlaces.resize_for_overwrite(p * span);
    PodVector<Entry> listed[2];
    bool late[2] = {false, false}, outside[2] = {false, false};
    auto place = [&](size_t h) {
        const auto [lo, hi] = ids[h];
        uint8_t* count = out.denseCount.data();
        SliceRef* places = out.densePlaces.data();
        std::fill(count + (lo - r.lo), count + (hi - r.lo) + 1, uint8_t(0));
        PodVector<Entry>& list = listed[h];
        list.clear();
        forEachIdInWindows(tracks, idOf, lo, hi, spans[h], late[h], outside[h],
                           [count, places, p, base = r.lo, &list](int64_t id, SliceRef ref) {
                               const size_t i = size_t(id - base);
                               const uint8_t c = count[i];
                               if (c < p) {
                                   places[p * i + c] = ref;
                                   count[i] = c + 1;
                                   return;
                               }
                               if (c == p) {
                                   for (size_t j = 0; j < p; ++j)
                                       list.push_back({id, places[p * i + j]});
                                   count[i] = IdIndex::kListed;
                               }
                               list.push_back({id, ref});
                           });
    };
    parallelFor(2, parallel, place);
    if (outside[0] || outside[1]) { // a track whose ids do not rise: walk every track
        for (int h = 0; h < 2; ++h)
            for (TrackId t = 0; t < tracks.size(); ++t)
                spans[h][t] = {0, SliceIndex(tracks[t].slices.size())};
        parallelFor(2, parallel, place);
    }
    listed[0].append(listed[1].data(), listed[1].size());
    setList(listed[0], late[0] || late[1], out);
    if (!late[0] && !late[1]) return;
    for (size_t i = 0; i < span; ++i) // the slices of each id back in ref order
        if (out.denseCount[i] != IdIndex::kListed)
            std::sort(&out.densePlaces[p * i], &out.densePlaces[p * i] + out.denseCount[i]);
}

// Sparse ids: every entry listed, sorted by (id, ref) straight into the list. The entries come
// in ref order: one walk over the tracks counts them by the top bits of their id, a second puts
// each in its part of the list, and each part not in order already (small enough to stay in
// cache, unless the ids crowd into few parts) is sorted by id in place. No copy of the entries
// is made the size of the list, and the list is written once.
void indexSparse(const std::vector<Track>& tracks, const IdOf idOf, const IdRange& r,
                 IdIndex& out) {
    constexpr int kPartBits = 11;
    const uint64_t span = uint64_t(r.hi) - uint64_t(r.lo);
    int shift = 0;
    while ((span >> shift) >= (uint64_t(1) << kPartBits)) ++shift;
    const auto partOf = [lo = r.lo, shift](int64_t id) {
        return size_t((uint64_t(id) - uint64_t(lo)) >> shift);
    };
    std::vector<size_t> at((size_t(1) << kPartBits) + 1, 0);
    forEachId(tracks, idOf, [&](int64_t id, SliceRef) { ++at[partOf(id) + 1]; });
    for (size_t d = 1; d < at.size(); ++d) at[d] += at[d - 1];
    out.listIds.resize_for_overwrite(at.back());
    out.listRefs.resize_for_overwrite(at.back());
    int64_t* const ids = out.listIds.data();
    SliceRef* const refs = out.listRefs.data();
    std::vector<size_t> next(at.begin(), at.end() - 1);
    forEachId(tracks, idOf, [&](int64_t id, SliceRef ref) {
        const size_t j = next[partOf(id)]++;
        ids[j] = id;
        refs[j] = ref;
    });
    PodVector<Entry> part;
    for (size_t d = 0; d + 1 < at.size(); ++d) {
        const size_t from = at[d], m = at[d + 1] - from;
        if (std::is_sorted(ids + from, ids + from + m)) continue; // one id each part: shift 0
        part.resize_for_overwrite(m);
        for (size_t j = 0; j < m; ++j) part[j] = {ids[from + j], refs[from + j]};
        if (!radixSortStable(part.data(), m, [](const Entry& e) { return e.id; }))
            std::stable_sort(part.begin(), part.end(),
                             [](const Entry& a, const Entry& b) { return a.id < b.id; });
        for (size_t j = 0; j < m; ++j) {
            ids[from + j] = part[j].id;
            refs[from + j] = part[j].ref;
        }
    }
}

} // namespace

void buildIdIndices(const std::vector<Track>& tracks, const PodVector<SliceExtra>& extras,
                    const PodVector<int64_t>& externalIds, bool parallel, IdIndex& correlation,
                    IdIndex& external) {
    // The range of each kind of id, each core reading half of the values.
    IdRange halves[2][2];
    parallelFor(2, parallel, [&](size_t h) {
        halves[h][0] =
            rangeOfHalf(extras.size(), h, [&](size_t i) { return extras[i].correlation; });
        halves[h][1] = rangeOfHalf(externalIds.size(), h, [&](size_t i) { return externalIds[i]; });
    });
    for (int f = 0; f < 2; ++f) {
        const IdOf idOf{extras.data(), extras.size(), f == 0 ? nullptr : externalIds.data()};
        IdIndex& out = f == 0 ? correlation : external;
        out = IdIndex{};
        out.places = f == 0 ? 2 : 4;
        IdRange r = halves[0][f];
        r.add(halves[1][f]);
        if (r.count == 0) continue;
        if (uint64_t(r.hi) - uint64_t(r.lo) < 2 * uint64_t(r.count) + 16384)
            indexDense(tracks, idOf, r, parallel, out);
        else
            indexSparse(tracks, idOf, r, out);
    }
}

std::span<const SliceRef> IdIndex::find(int64_t id) const {
    if (id >= denseLo && uint64_t(id) - uint64_t(denseLo) < denseCount.size()) {
        const size_t i = size_t(uint64_t(id) - uint64_t(denseLo));
        if (denseCount[i] != kListed) return {densePlaces.data() + places * i, denseCount[i]};
    }
    const auto [lo, hi] = std::equal_range(listIds.begin(), listIds.end(), id);
    return {listRefs.data() + (lo - listIds.begin()), size_t(hi - lo)};
}

size_t IdIndex::memoryBytes() const {
    return denseCount.capacity() + densePlaces.capacity() * sizeof(SliceRef) +
           listIds.capacity() * sizeof(int64_t) + listRefs.capacity() * sizeof(SliceRef);
}

} // namespace strata
