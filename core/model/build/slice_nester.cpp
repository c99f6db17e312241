#include "model/build/slice_nester.h"

#include "model/build/annotation_edges.h"
#include "model/build/spill_lanes.h"

#include <algorithm>
#include <cstring>
#include <optional>

namespace strata {

namespace {

constexpr size_t kMaxDepth = UINT16_MAX;

// Slice k of a track's columns as a raw slice.
RawSlice readSlice(const SliceColumns& c, size_t k, uint32_t seq) {
    RawSlice s;
    s.start = c.start[k];
    s.dur = c.dur[k];
    s.name = c.name[k];
    s.category = c.category[k];
    s.args = c.args[k];
    s.extra = c.extra[k];
    s.kind = c.kind[k];
    s.flags = c.flags[k];
    s.seq = seq;
    return s;
}

void writeSlice(SliceColumns& c, size_t k, const RawSlice& s) {
    c.start[k] = s.start;
    c.dur[k] = s.dur;
    c.name[k] = s.name;
    c.category[k] = s.category;
    c.args[k] = s.args;
    c.extra[k] = s.extra;
    c.kind[k] = s.kind;
    c.flags[k] = s.flags;
}

void moveSlice(SliceColumns& c, size_t from, size_t to) {
    c.start[to] = c.start[from];
    c.dur[to] = c.dur[from];
    c.name[to] = c.name[from];
    c.category[to] = c.category[from];
    c.args[to] = c.args[from];
    c.extra[to] = c.extra[from];
    c.kind[to] = c.kind[from];
    c.flags[to] = c.flags[from];
}

// Slices [from, end) of the input columns moved to [to, to + end - from), one memmove per
// column (the ranges may overlap).
void moveSlices(SliceColumns& c, size_t from, size_t end, size_t to) {
    if (from == to || from == end) return;
    auto move = [&](auto& col) {
        std::memmove(col.data() + to, col.data() + from, (end - from) * sizeof(col[0]));
    };
    move(c.start);
    move(c.dur);
    move(c.name);
    move(c.category);
    move(c.args);
    move(c.extra);
    move(c.kind);
    move(c.flags);
}

// The input columns (those a reader fills) resized together.
void resizeInput(SliceColumns& c, size_t n) {
    for (auto* col : {&c.start, &c.dur}) col->resize(n);
    for (auto* col : {&c.name, &c.category, &c.args, &c.extra}) col->resize(n);
    c.kind.resize(n);
    c.flags.resize(n);
}

// Sorts raw slices into nesting order: writers emit a track's slices mostly in order, with
// slices made from B/E pairs appended after them, so only the unsorted tail is sorted and then
// merged in.
void sortForNesting(PodVector<RawSlice>& slices) {
    // A lambda, not the function's address, so that the sorts inline the comparison.
    const auto nestsBefore = [](const RawSlice& a, const RawSlice& b) {
        return strata::nestsBefore(a, b);
    };
    RawSlice* const first = slices.begin();
    RawSlice* const last = slices.end();
    // The runs already in order, as long as there are few: a recorder that writes its slices
    // as they end sorts each batch (the Python agent: one run a flush), so merging the runs
    // (O(n log runs)) beats sorting it all (O(n log n)).
    constexpr size_t kMaxRuns = 1024;
    std::vector<RawSlice*> runs{first};
    for (RawSlice* at = first; at != last && runs.size() <= kMaxRuns;)
        runs.push_back(at = std::is_sorted_until(at, last, nestsBefore));
    if (runs.size() == 2) return; // one run: in order
    if (runs.size() <= kMaxRuns) {
        while (runs.size() > 2) {
            std::vector<RawSlice*> merged{first};
            for (size_t i = 0; i + 1 < runs.size(); i += 2) {
                RawSlice* const end = i + 2 < runs.size() ? runs[i + 2] : runs[i + 1];
                if (i + 2 < runs.size()) std::inplace_merge(runs[i], runs[i + 1], end, nestsBefore);
                merged.push_back(end);
            }
            runs = std::move(merged);
        }
        return;
    }
    RawSlice* const sortedEnd = std::is_sorted_until(first, last, nestsBefore);
    std::sort(sortedEnd, last, nestsBefore);
    std::inplace_merge(first, sortedEnd, last, nestsBefore);
}

// Seqs of the slices of a prefilled track: the slices from B/E took the seqs in `taken`
// (ascending); column slice k has the k-th seq that none of them took.
class PrefilledSeqs {
public:
    explicit PrefilledSeqs(std::vector<uint32_t> taken) : taken_(std::move(taken)) {}
    uint32_t operator()(size_t k) const {
        // The number j of taken seqs below the answer is the first j with taken[j] - j > k.
        size_t lo = 0, hi = taken_.size();
        while (lo < hi) {
            const size_t mid = (lo + hi) / 2;
            if (taken_[mid] - mid <= k)
                lo = mid + 1;
            else
                hi = mid;
        }
        return static_cast<uint32_t>(k + lo);
    }

private:
    std::vector<uint32_t> taken_;
};

} // namespace

void SliceNester::nest(PodVector<RawSlice>& slices, Track& track, Lanes& lanes,
                       std::vector<uint32_t>* seqs, std::vector<SliceRef>* seqMap) {
    sortForNesting(slices);
    SliceColumns& c = track.slices;
    const size_t n = slices.size();
    resizeInput(c, n);
    if (seqs) seqs->resize(n);
    constexpr size_t kReleaseBlock = size_t(1) << 16;
    for (size_t k = 0; k < n; ++k) {
        writeSlice(c, k, slices[k]);
        if (seqs) (*seqs)[k] = slices[k].seq;
        // The columns are written as the raw slices are read: give read pages back.
        if ((k + 1) % kReleaseBlock == 0) slices.release_prefix(k + 1);
    }
    slices.clear();
    nestSorted(track, lanes, seqs, seqMap);
}

namespace {

// Extra lane `number` (1, 2, ...) of `base`: its identity, no slices.
Track laneOf(const Track& base, uint32_t number) {
    Track t;
    t.kind = base.kind;
    t.pid = base.pid;
    t.tid = base.tid;
    t.device = base.device;
    t.name = base.name;
    t.cookie = base.cookie;
    t.lane = number;
    return t;
}

// Slice r of `from` appended to `to` with its parent and depth there.
void appendSlice(const SliceColumns& from, size_t r, Track& to, SliceIndex parent, uint16_t depth) {
    SliceColumns& c = to.slices;
    c.start.push_back(from.start[r]);
    c.dur.push_back(from.dur[r]);
    c.name.push_back(from.name[r]);
    c.category.push_back(from.category[r]);
    c.args.push_back(from.args[r]);
    c.extra.push_back(from.extra[r]);
    c.kind.push_back(from.kind[r]);
    c.flags.push_back(from.flags[r]);
    c.parent.push_back(parent);
    c.depth.push_back(depth);
    to.maxDuration = std::max(to.maxDuration, from.dur[r]);
    to.maxDepth = std::max<uint16_t>(to.maxDepth, uint16_t(depth + 1));
}

} // namespace

void SliceNester::nestSorted(Track& track, Lanes& lanes, std::vector<uint32_t>* seqs,
                             std::vector<SliceRef>* seqMap) {
    SliceColumns& c = track.slices;
    const size_t n = c.size();
    c.parent.resize(n);
    c.depth.resize(n);
    struct Open {
        SliceIndex index; // in the compacted columns
        TimeNs end;
    };
    std::vector<Open> stack; // open slices of the base lane, outermost first
    SpillLanes spill(kMaxDepth);
    // Frames that give way to an annotation (model/annotation_edges.h), and the open ones among
    // them and what they called: what starts inside one follows it to its lane.
    const std::vector<uint8_t> yields = framesYieldingToAnnotations(c);
    struct Moved {
        TimeNs end;
        uint32_t lane;
    };
    std::vector<Moved> moved;
    size_t w = 0; // kept slices are compacted in place (w never passes r)
    TimeNs maxDur = 0;
    size_t maxDepth = 0;
    for (size_t r = 0; r < n; ++r) {
        const TimeNs start = c.start[r];
        const TimeNs end = start + c.dur[r];
        // A slice that ends at or before this start is closed (so zero-length slices never
        // enclose anything).
        while (!stack.empty() && stack.back().end <= start) stack.pop_back();
        while (!moved.empty() && moved.back().end <= start) moved.pop_back();
        const bool follows = !moved.empty() && end <= moved.back().end;
        const bool gives = !yields.empty() && yields[r];
        if (follows || gives || (!stack.empty() && end > stack.back().end) ||
            stack.size() >= kMaxDepth) {
            // Not nested in the open slice: to the first extra lane where it nests (a frame's
            // callee to its frame's lane).
            const SpillLanes::Place p =
                follows ? spill.placeIn(moved.back().lane, start, end) : spill.place(start, end);
            if (follows || gives) moved.push_back({end, p.lane});
            if (p.lane == lanes.extra.size())
                lanes.extra.push_back(laneOf(track, uint32_t(lanes.extra.size() + 1)));
            Track& lane = lanes.extra[p.lane];
            if (seqMap && seqs)
                (*seqMap)[(*seqs)[r]] = SliceRef{p.lane + 1, SliceIndex(lane.slices.size())};
            appendSlice(c, r, lane, p.parent, p.depth);
            ++lanes.spilled;
            continue;
        }
        if (w != r) {
            moveSlice(c, r, w);
            if (seqs) (*seqs)[w] = (*seqs)[r];
        }
        c.parent[w] = stack.empty() ? kNoSlice : stack.back().index;
        c.depth[w] = static_cast<uint16_t>(stack.size());
        stack.push_back({static_cast<SliceIndex>(w), end});
        maxDur = std::max(maxDur, end - start);
        maxDepth = std::max(maxDepth, stack.size());
        ++w;
    }
    if (w != n) {
        resizeInput(c, w);
        c.parent.resize(w);
        c.depth.resize(w);
        if (seqs) seqs->resize(w);
    }
    if (seqMap && seqs)
        for (SliceIndex k = 0; k < seqs->size(); ++k) (*seqMap)[(*seqs)[k]] = SliceRef{0, k};
    track.maxDuration = maxDur;
    track.maxDepth = static_cast<uint16_t>(maxDepth);
}

SliceNester::Lanes SliceNester::nestIntoLanes(PodVector<RawSlice> pending, Track& base,
                                              std::vector<SliceRef>* seqMap, uint32_t seqCount) {
    Lanes out;
    if (seqMap) seqMap->assign(seqCount, SliceRef{});
    std::vector<uint32_t> seqs;
    nest(pending, base, out, seqMap ? &seqs : nullptr, seqMap);
    return out;
}

namespace {

// The column slices out of nesting order: those before which a slice further back comes, found
// greedily (each one that sorts before the last slice kept). A writer that emits a slice as it
// ends leaves a few behind: the Python agent sorts each flush, so the callers still open at a
// flush come after their callees. Empty when all are in order; nullopt when too many to merge
// (the caller sorts them all).
std::optional<std::vector<uint32_t>> outOfOrder(const SliceColumns& c) {
    const size_t n = c.size();
    const size_t limit = n / 16 + 1024;
    std::vector<uint32_t> out;
    size_t last = 0;
    for (size_t k = 1; k < n; ++k) {
        const bool after =
            c.start[last] < c.start[k] || (c.start[last] == c.start[k] && c.dur[last] >= c.dur[k]);
        if (after) {
            last = k;
        } else {
            out.push_back(uint32_t(k));
            if (out.size() > limit) return std::nullopt;
        }
    }
    return out;
}

// The column slices at `rows` (ascending) moved out to `to` (with their seqs), the rest closed
// up in order.
void takeOut(SliceColumns& c, const std::vector<uint32_t>& rows, const PrefilledSeqs& seqOf,
             PodVector<RawSlice>& to) {
    size_t w = rows.empty() ? c.size() : rows.front();
    for (size_t j = 0; j < rows.size(); ++j) {
        to.push_back(readSlice(c, rows[j], seqOf(rows[j])));
        const size_t from = rows[j] + 1, end = j + 1 < rows.size() ? rows[j + 1] : c.size();
        moveSlices(c, from, end, w);
        w += end - from;
    }
    resizeInput(c, w);
}

} // namespace

SliceNester::Lanes SliceNester::nestPrefilled(Track& base, PodVector<RawSlice> fromEdges) {
    SliceColumns& c = base.slices;
    std::vector<uint32_t> taken(fromEdges.size());
    for (size_t j = 0; j < fromEdges.size(); ++j) taken[j] = fromEdges[j].seq;
    std::sort(taken.begin(), taken.end());
    const PrefilledSeqs seqOf(std::move(taken));

    // Columns far out of order (a writer that does not emit a thread's slices in order): the
    // general path, with every slice's seq. A few out of order join the slices from B/E.
    const std::optional<std::vector<uint32_t>> moved = outOfOrder(c);
    if (!moved) {
        const size_t n = c.size();
        PodVector<RawSlice> all;
        all.resize_for_overwrite(n + fromEdges.size());
        for (size_t k = 0; k < n; ++k) all[k] = readSlice(c, k, seqOf(k));
        std::copy(fromEdges.begin(), fromEdges.end(), all.begin() + n);
        fromEdges.clear();
        resizeInput(c, 0);
        return nestIntoLanes(std::move(all), base);
    }
    takeOut(c, *moved, seqOf, fromEdges);
    // Column slice k was slice columnRow(k) before those were taken out.
    const PrefilledSeqs columnRow(*moved);

    // Merge them in, from the back (the columns grow by their number).
    sortForNesting(fromEdges);
    const size_t n = c.size(), m = fromEdges.size();
    resizeInput(c, n + m);
    size_t i = n, j = m, k = n + m;
    while (j > 0) {
        const RawSlice& e = fromEdges[j - 1];
        // The column slices that go after e, [run, i), move up as one block.
        size_t run = i;
        for (; run > 0; --run) {
            const TimeNs s = c.start[run - 1], d = c.dur[run - 1];
            if (!(s != e.start ? s > e.start
                  : d != e.dur ? d < e.dur
                               : seqOf(columnRow(run - 1)) > e.seq))
                break;
        }
        k -= i - run;
        moveSlices(c, run, i, k);
        i = run;
        writeSlice(c, --k, fromEdges[--j]);
    }
    fromEdges.clear();

    Lanes out;
    nestSorted(base, out, nullptr, nullptr);
    return out;
}

} // namespace strata
