#include "model/slice_nester.h"

#include <algorithm>
#include <cstring>

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
    RawSlice* const sortedEnd = std::is_sorted_until(slices.begin(), slices.end(), nestsBefore);
    if (sortedEnd == slices.end()) return;
    std::sort(sortedEnd, slices.end(), nestsBefore);
    std::inplace_merge(slices.begin(), sortedEnd, slices.end(), nestsBefore);
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

void SliceNester::nest(PodVector<RawSlice>& slices, Track& track, PodVector<RawSlice>& overflow,
                       std::vector<uint32_t>* seqs) {
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
    nestSorted(track, overflow, seqs);
}

void SliceNester::nestSorted(Track& track, PodVector<RawSlice>& overflow,
                             std::vector<uint32_t>* seqs) {
    SliceColumns& c = track.slices;
    const size_t n = c.size();
    c.parent.resize(n);
    c.depth.resize(n);
    struct Open {
        SliceIndex index; // in the compacted columns
        TimeNs end;
    };
    std::vector<Open> stack; // open slices, outermost first
    size_t w = 0;            // kept slices are compacted in place (w never passes r)
    TimeNs maxDur = 0;
    size_t maxDepth = 0;
    for (size_t r = 0; r < n; ++r) {
        const TimeNs start = c.start[r];
        const TimeNs end = start + c.dur[r];
        // A slice that ends at or before this start is closed (so zero-length slices never
        // enclose anything).
        while (!stack.empty() && stack.back().end <= start) stack.pop_back();
        if ((!stack.empty() && end > stack.back().end) || stack.size() >= kMaxDepth) {
            // Not nested in the open slice: goes to the next lane.
            overflow.push_back(readSlice(c, r, seqs ? (*seqs)[r] : uint32_t(r)));
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
    track.maxDuration = maxDur;
    track.maxDepth = static_cast<uint16_t>(maxDepth);
}

void SliceNester::spill(PodVector<RawSlice> overflow, const Track& base, Lanes& out,
                        std::vector<SliceRef>* seqMap) {
    std::vector<uint32_t> seqs;
    for (uint32_t laneNo = 1; !overflow.empty(); ++laneNo) {
        out.spilled += overflow.size();
        Track next;
        next.kind = base.kind;
        next.pid = base.pid;
        next.tid = base.tid;
        next.device = base.device;
        next.name = base.name;
        next.cookie = base.cookie;
        next.lane = laneNo;
        out.extra.push_back(std::move(next));
        PodVector<RawSlice> pending = std::move(overflow);
        nest(pending, out.extra.back(), overflow, seqMap ? &seqs : nullptr);
        if (seqMap)
            for (SliceIndex k = 0; k < seqs.size(); ++k) (*seqMap)[seqs[k]] = SliceRef{laneNo, k};
    }
}

SliceNester::Lanes SliceNester::nestIntoLanes(PodVector<RawSlice> pending, Track& base,
                                              std::vector<SliceRef>* seqMap, uint32_t seqCount) {
    Lanes out;
    if (seqMap) seqMap->assign(seqCount, SliceRef{});
    std::vector<uint32_t> seqs;
    PodVector<RawSlice> overflow;
    nest(pending, base, overflow, seqMap ? &seqs : nullptr);
    if (seqMap)
        for (SliceIndex k = 0; k < seqs.size(); ++k) (*seqMap)[seqs[k]] = SliceRef{0, k};
    spill(std::move(overflow), base, out, seqMap);
    return out;
}

SliceNester::Lanes SliceNester::nestPrefilled(Track& base, PodVector<RawSlice> fromEdges) {
    SliceColumns& c = base.slices;
    const size_t n = c.size();
    std::vector<uint32_t> taken(fromEdges.size());
    for (size_t j = 0; j < fromEdges.size(); ++j) taken[j] = fromEdges[j].seq;
    std::sort(taken.begin(), taken.end());
    const PrefilledSeqs seqOf(std::move(taken));

    // Columns out of order (a writer that does not emit a thread's slices in order): the
    // general path, with every slice's seq.
    bool sorted = true;
    for (size_t k = 1; k < n && sorted; ++k)
        sorted = c.start[k - 1] < c.start[k] ||
                 (c.start[k - 1] == c.start[k] && c.dur[k - 1] >= c.dur[k]);
    if (!sorted) {
        PodVector<RawSlice> all;
        all.resize_for_overwrite(n + fromEdges.size());
        for (size_t k = 0; k < n; ++k) all[k] = readSlice(c, k, seqOf(k));
        std::copy(fromEdges.begin(), fromEdges.end(), all.begin() + n);
        fromEdges.clear();
        resizeInput(c, 0);
        return nestIntoLanes(std::move(all), base);
    }

    // Merge the slices from B/E in, from the back (the columns grow by their number).
    sortForNesting(fromEdges);
    const size_t m = fromEdges.size();
    resizeInput(c, n + m);
    size_t i = n, j = m, k = n + m;
    while (j > 0) {
        const RawSlice& e = fromEdges[j - 1];
        // The column slices that go after e, [run, i), move up as one block.
        size_t run = i;
        for (; run > 0; --run) {
            const TimeNs s = c.start[run - 1], d = c.dur[run - 1];
            if (!(s != e.start ? s > e.start : d != e.dur ? d < e.dur : seqOf(run - 1) > e.seq))
                break;
        }
        k -= i - run;
        moveSlices(c, run, i, k);
        i = run;
        writeSlice(c, --k, fromEdges[--j]);
    }
    fromEdges.clear();

    Lanes out;
    PodVector<RawSlice> overflow;
    nestSorted(base, overflow); // the spilled slices' seqs are their (ordered) column indices
    spill(std::move(overflow), base, out, nullptr);
    return out;
}

} // namespace strata
