#include "model/id_index.h"

#include "model/trace.h"

#include "model/parallel_for.h"
#include "model/radix_sort.h"

#include <algorithm>

namespace strata {

namespace {

using IdField = int64_t SliceExtra::*;

struct IdRange {
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    size_t count = 0; // extras with an id
    void add(const IdRange& o) {
        lo = std::min(lo, o.lo);
        hi = std::max(hi, o.hi);
        count += o.count;
    }
};

// f(id, ref) for every slice whose extra has an id in [lo, hi], in ref order.
template <typename F>
void forEachId(const std::vector<Track>& tracks, const PodVector<SliceExtra>& extras, IdField field,
               int64_t lo, int64_t hi, F&& f) {
    for (TrackId t = 0; t < tracks.size(); ++t) {
        const auto& ex = tracks[t].slices.extra;
        for (SliceIndex k = 0; k < ex.size(); ++k) {
            if (ex[k] >= extras.size()) continue;
            const int64_t id = extras[ex[k]].*field;
            if (id >= lo && id <= hi) f(id, SliceRef{t, k});
        }
    }
}

// The slices [begin, end) of each track one walk visits.
struct Span {
    SliceIndex begin = 0, end = 0;
};

// The id of the first slice at or after k that has one (INT64_MAX: none).
int64_t nextId(const Track& t, const PodVector<SliceExtra>& extras, IdField field, SliceIndex k) {
    const auto& ex = t.slices.extra;
    for (; k < ex.size(); ++k)
        if (ex[k] < extras.size() && extras[ex[k]].*field >= 0) return extras[ex[k]].*field;
    return INT64_MAX;
}

// Where a track's ids reach `mid`, if they rise along the track (a binary search).
SliceIndex splitAt(const Track& t, const PodVector<SliceExtra>& extras, IdField field,
                   int64_t mid) {
    SliceIndex lo = 0, hi = SliceIndex(t.slices.size());
    while (lo < hi) {
        const SliceIndex m = lo + (hi - lo) / 2;
        if (nextId(t, extras, field, m) >= mid)
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
void forEachIdInWindows(const std::vector<Track>& tracks, const PodVector<SliceExtra>& extras,
                        IdField field, int64_t lo, int64_t hi, const std::vector<Span>& spans,
                        bool& late, bool& outside, G&& g) {
    constexpr int64_t kWindow = 1 << 14;
    std::vector<SliceIndex> cursor(tracks.size());
    for (TrackId t = 0; t < tracks.size(); ++t) cursor[t] = spans[t].begin;
    for (int64_t from = lo;; from += kWindow) {
        const int64_t to = hi - from < kWindow ? INT64_MAX : from + kWindow - 1; // last: the rest
        for (TrackId t = 0; t < tracks.size(); ++t) {
            const auto& ex = tracks[t].slices.extra;
            SliceIndex k = cursor[t];
            for (; k < spans[t].end; ++k) {
                if (ex[k] >= extras.size()) continue;
                const int64_t id = extras[ex[k]].*field;
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
        if (to == INT64_MAX) return;
    }
}

struct Entry {
    int64_t id;
    SliceRef ref;
};

// Sorts the listed entries by (id, ref) into the index's list. They came in ref order per id
// unless `late`.
void setList(std::vector<Entry>& entries, bool late, IdIndex& out) {
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

// Dense ids: each slice put in its id's next place, the third slice of an id moving the id's
// slices to the list. Each core takes half of the ids and, where a track's ids rise, only the
// part of the track that holds them (else the whole track, skipping the rest).
void indexDense(const std::vector<Track>& tracks, const PodVector<SliceExtra>& extras,
                IdField field, const IdRange& r, bool parallel, IdIndex& out) {
    const size_t span = size_t(uint64_t(r.hi) - uint64_t(r.lo)) + 1;
    const int64_t mid = r.lo + int64_t(span / 2);
    const std::pair<int64_t, int64_t> ids[2] = {{r.lo, mid - 1}, {mid, r.hi}};
    std::vector<Span> spans[2] = {std::vector<Span>(tracks.size()),
                                  std::vector<Span>(tracks.size())};
    for (TrackId t = 0; t < tracks.size(); ++t) {
        const SliceIndex split = splitAt(tracks[t], extras, field, mid);
        spans[0][t] = {0, split};
        spans[1][t] = {split, SliceIndex(tracks[t].slices.size())};
    }
    out.denseLo = r.lo;
    out.denseCount.resize_for_overwrite(span);
    out.densePlaces.resize_for_overwrite(2 * span);
    std::vector<Entry> listed[2];
    bool late[2] = {false, false}, outside[2] = {false, false};
    auto place = [&](size_t h) {
        const auto [lo, hi] = ids[h];
        uint8_t* count = out.denseCount.data();
        SliceRef* places = out.densePlaces.data();
        std::fill(count + (lo - r.lo), count + (hi - r.lo) + 1, uint8_t(0));
        listed[h].clear();
        forEachIdInWindows(tracks, extras, field, lo, hi, spans[h], late[h], outside[h],
                           [&](int64_t id, SliceRef ref) {
                               const size_t i = size_t(id - r.lo);
                               const uint8_t c = count[i];
                               if (c < 2) {
                                   places[2 * i + c] = ref;
                                   count[i] = c + 1;
                                   return;
                               }
                               if (c == 2) {
                                   listed[h].push_back({id, places[2 * i]});
                                   listed[h].push_back({id, places[2 * i + 1]});
                                   count[i] = IdIndex::kListed;
                               }
                               listed[h].push_back({id, ref});
                           });
    };
    parallelFor(2, parallel, place);
    if (outside[0] || outside[1]) { // a track whose ids do not rise: walk every track
        for (int h = 0; h < 2; ++h)
            for (TrackId t = 0; t < tracks.size(); ++t)
                spans[h][t] = {0, SliceIndex(tracks[t].slices.size())};
        parallelFor(2, parallel, place);
    }
    listed[0].insert(listed[0].end(), listed[1].begin(), listed[1].end());
    setList(listed[0], late[0] || late[1], out);
    if (!late[0] && !late[1]) return;
    for (size_t i = 0; i < span; ++i) // two slices of an id back in ref order
        if (out.denseCount[i] == 2 && out.densePlaces[2 * i + 1] < out.densePlaces[2 * i])
            std::swap(out.densePlaces[2 * i], out.densePlaces[2 * i + 1]);
}

// Sparse ids: every entry listed.
void indexSparse(const std::vector<Track>& tracks, const PodVector<SliceExtra>& extras,
                 IdField field, IdIndex& out) {
    std::vector<Entry> entries;
    forEachId(tracks, extras, field, 0, INT64_MAX, [&](int64_t id, SliceRef ref) {
        entries.push_back({id, ref});
    });
    setList(entries, false, out);
}

} // namespace

void buildIdIndices(const std::vector<Track>& tracks, const PodVector<SliceExtra>& extras,
                    bool parallel, IdIndex& correlation, IdIndex& external) {
    // The range of each field's ids, each core reading half of the extras.
    IdRange halves[2][2];
    parallelFor(2, parallel, [&](size_t h) {
        const size_t from = h == 0 ? 0 : extras.size() / 2,
                     to = h == 0 ? extras.size() / 2 : extras.size();
        IdRange c, x;
        for (size_t e = from; e < to; ++e) {
            if (const int64_t id = extras[e].correlation; id >= 0) c.add({id, id, 1});
            if (const int64_t id = extras[e].externalId; id >= 0) x.add({id, id, 1});
        }
        halves[h][0] = c;
        halves[h][1] = x;
    });
    for (int f = 0; f < 2; ++f) {
        const IdField field = f == 0 ? &SliceExtra::correlation : &SliceExtra::externalId;
        IdIndex& out = f == 0 ? correlation : external;
        out = IdIndex{};
        IdRange r = halves[0][f];
        r.add(halves[1][f]);
        if (r.count == 0) continue;
        if (uint64_t(r.hi) - uint64_t(r.lo) < 2 * uint64_t(r.count) + 16384)
            indexDense(tracks, extras, field, r, parallel, out);
        else
            indexSparse(tracks, extras, field, out);
    }
}

std::span<const SliceRef> IdIndex::find(int64_t id) const {
    if (id >= denseLo && uint64_t(id) - uint64_t(denseLo) < denseCount.size()) {
        const size_t i = size_t(uint64_t(id) - uint64_t(denseLo));
        if (denseCount[i] != kListed) return {densePlaces.data() + 2 * i, denseCount[i]};
    }
    const auto [lo, hi] = std::equal_range(listIds.begin(), listIds.end(), id);
    return {listRefs.data() + (lo - listIds.begin()), size_t(hi - lo)};
}

size_t IdIndex::memoryBytes() const {
    return denseCount.capacity() + densePlaces.capacity() * sizeof(SliceRef) +
           listIds.capacity() * sizeof(int64_t) + listRefs.capacity() * sizeof(SliceRef);
}

} // namespace strata
