// TraceBuilder::build(): the phases that turn what the readers handed over into the immutable
// Trace (bounds, B/E matching, nesting into lanes, counters and instants in time order, flows,
// id indices, the process and thread lists).
#include "model/build/trace_builder_impl.h"
#include "model/id_index.h"
#include "model/names/time_text.h"
#include "util/parallel_for.h"
#include "util/phase_timer.h"
#include "util/radix_sort.h"

#include <algorithm>

namespace strata {

namespace {

// Slices waiting for build() on track i (raw, or already in its columns).
size_t pendingOn(const std::vector<RawTrack>& raw, const std::vector<Track>& tracks, size_t i) {
    return raw[i].slices.size() + (raw[i].prefilled ? tracks[i].slices.size() : 0);
}

// Stable time order of a column, and a column rearranged into it.
std::vector<uint32_t> timeOrder(const Column<TimeNs>& ts) {
    std::vector<uint32_t> order(ts.size());
    for (uint32_t k = 0; k < order.size(); ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return ts[a] < ts[b]; });
    return order;
}

template <typename T> void permute(Column<T>& v, const std::vector<uint32_t>& order) {
    Column<T> out;
    out.reserve(order.size());
    for (uint32_t k : order) out.push_back(v[k]);
    v = std::move(out);
}

// The indices of `flows` in (end, index) order. A slice's place among all tracks' slices is its
// SliceRef's rank, so a radix sort of (rank, index) pairs by rank gives the stable order by end.
void flowsByEnd(const std::vector<Track>& tracks, const std::vector<Flow>& flows,
                SliceRef Flow::*end, std::vector<uint32_t>& index) {
    index.resize(flows.size());
    std::vector<uint64_t> first(tracks.size() + 1, 0); // the rank of each track's slice 0
    for (size_t t = 0; t < tracks.size(); ++t) first[t + 1] = first[t] + tracks[t].slices.size();
    std::vector<uint64_t> keyed(flows.size());
    bool ranked = first.back() < (uint64_t(1) << 32);
    for (uint32_t i = 0; i < flows.size() && ranked; ++i) {
        const SliceRef r = flows[i].*end;
        ranked = r.track < tracks.size() && r.index < tracks[r.track].slices.size();
        if (ranked) keyed[i] = (first[r.track] + r.index) << 32 | i;
    }
    if (ranked && radixSortStable(keyed.data(), keyed.size(), [](uint64_t v) { return v >> 32; })) {
        for (size_t k = 0; k < keyed.size(); ++k) index[k] = uint32_t(keyed[k]);
        return;
    }
    for (uint32_t i = 0; i < flows.size(); ++i) index[i] = i;
    std::stable_sort(index.begin(), index.end(),
                     [&](uint32_t a, uint32_t b) { return flows[a].*end < flows[b].*end; });
}

} // namespace

// Tracks that hold nothing (e.g. made only to look up a flow's thread) are removed.
void TraceBuilder::Impl::dropEmptyTracks(std::vector<SeqMap>& seqMaps) {
    auto& tracks = trace->tracks_;
    trackKeys.reserve(tracks.size());
    for (const Track& t : tracks) trackKeys.emplace_back(t.pid, t.tid);
    std::vector<TrackId> remap(tracks.size(), UINT32_MAX);
    TrackId next = 0;
    for (TrackId i = 0; i < tracks.size(); ++i) {
        const Track& t = tracks[i];
        if (t.slices.size() || t.counter.size() || t.instants.size()) remap[i] = next++;
    }
    if (next == tracks.size()) return;
    std::vector<Track> kept;
    kept.reserve(next);
    for (TrackId i = 0; i < tracks.size(); ++i)
        if (remap[i] != UINT32_MAX) kept.push_back(std::move(tracks[i]));
    tracks = std::move(kept);
    for (auto& m : seqMaps)
        for (auto& r : m)
            if (r.valid()) r.track = remap[r.track];
    for (auto& [key, ids] : aliases) {
        std::vector<TrackId> out;
        for (TrackId id : ids)
            if (remap[id] != UINT32_MAX) out.push_back(remap[id]);
        ids = std::move(out);
    }
}

TimeRange TraceBuilder::Impl::bounds() {
    // Over everything that has a time: each track in two halves (the second half: the second
    // half of the prefilled slices), on both cores for large traces. Times out of range are
    // counted, not seen.
    const std::vector<Track>& tracks = trace->tracks_;
    struct Part {
        TimeNs lo = INT64_MAX, hi = INT64_MIN;
        size_t outOfRange = 0;
        void see(TimeNs start, TimeNs dur) {
            if (!spanInRange(start, dur)) {
                ++outOfRange;
                return;
            }
            lo = std::min(lo, start);
            hi = std::max(hi, start + dur);
        }
    };
    std::vector<Part> parts(2 * raw.size());
    size_t slices = 0;
    for (size_t i = 0; i < raw.size(); ++i) slices += pendingOn(raw, tracks, i);
    parallelFor(parts.size(), slices > kParallelBuildMinSlices, [&](size_t n) {
        const size_t i = n / 2;
        Part& part = parts[n];
        const SliceColumns& c = tracks[i].slices;
        const size_t prefilled = raw[i].prefilled ? c.size() : 0;
        if (n % 2 == 1) {
            for (size_t k = prefilled / 2; k < prefilled; ++k) part.see(c.start[k], c.dur[k]);
            return;
        }
        for (size_t k = 0; k < prefilled / 2; ++k) part.see(c.start[k], c.dur[k]);
        for (const auto& sl : raw[i].slices) part.see(sl.start, sl.dur);
        for (const auto& e : raw[i].edges) part.see(e.slice.start, 0);
        for (TimeNs t : tracks[i].counter.ts) part.see(t, 0);
        for (TimeNs t : tracks[i].instants.ts) part.see(t, 0);
    });
    Part all;
    all.lo = boundsLo;
    all.hi = boundsHi;
    for (const Part& p : parts) {
        all.lo = std::min(all.lo, p.lo);
        all.hi = std::max(all.hi, p.hi);
        all.outOfRange += p.outOfRange;
    }
    if (all.outOfRange) dropOutOfRange(all.outOfRange);
    if (all.lo > all.hi) all.lo = all.hi = 0;
    return TimeRange{all.lo, all.hi};
}

namespace {

// Keeps the rows r of `columns` (all of one length) for which keep(r) holds, in order. keep(r)
// may read the columns' row r: rows are only written below the one being looked at.
template <typename Keep, typename First, typename... Rest>
void keepRows(Keep keep, First& first, Rest&... rest) {
    const size_t n = first.size();
    size_t w = 0;
    for (size_t r = 0; r < n; ++r) {
        if (!keep(r)) continue;
        if (w != r) {
            first[w] = first[r];
            ((rest[w] = rest[r]), ...);
        }
        ++w;
    }
    first.resize(w);
    (rest.resize(w), ...);
}

} // namespace

void TraceBuilder::Impl::dropOutOfRange(size_t count) {
    for (size_t i = 0; i < raw.size(); ++i) {
        RawTrack& rt = raw[i];
        Track& t = trace->tracks_[i];
        keepRows([&](size_t r) { return spanInRange(rt.slices[r].start, rt.slices[r].dur); },
                 rt.slices);
        keepRows([&](size_t r) { return timeInRange(rt.edges[r].slice.start); }, rt.edges);
        if (rt.prefilled) {
            SliceColumns& c = t.slices;
            keepRows([&](size_t r) { return spanInRange(c.start[r], c.dur[r]); }, c.start, c.dur,
                     c.name, c.category, c.args, c.extra, c.kind, c.flags);
        }
        keepRows([&](size_t r) { return timeInRange(t.counter.ts[r]); }, t.counter.ts,
                 t.counter.value);
        keepRows([&](size_t r) { return timeInRange(t.instants.ts[r]); }, t.instants.ts,
                 t.instants.name, t.instants.category, t.instants.args);
    }
    trace->warnings_.push_back("skipped " + std::to_string(count) +
                               " events whose time is out of range (a start or end beyond "
                               "+-2^62 ns, about 146 years from the clock's zero)");
}

void TraceBuilder::Impl::matchAllEdges(TimeRange bounds) {
    EdgeMatchCounts edges;
    for (RawTrack& rt : raw) matchEdges(rt.edges, bounds.end, trace->args_, rt.slices, edges);
    if (edges.unmatchedEnds)
        trace->warnings_.push_back(std::to_string(edges.unmatchedEnds) +
                                   " E (end) events had no matching B event and were skipped");
    if (edges.openBegins)
        trace->warnings_.push_back(std::to_string(edges.openBegins) +
                                   " B (begin) events were never ended and were closed at the "
                                   "trace end (" +
                                   formatPreciseDuration(bounds.duration()) + ")");
}

std::vector<SeqMap> TraceBuilder::Impl::nestIntoLanes() {
    // Tracks are independent: both cores nest, the largest tracks first. Slices that overlap
    // without nesting spill to extra lanes.
    std::vector<Track>& tracks = trace->tracks_;
    const size_t baseTracks = raw.size();
    const bool needSeq = !flowsV2.empty(); // only v2 flows refer to slices by insertion order
    std::vector<SeqMap> seqMaps(baseTracks);
    std::vector<SliceNester::Lanes> nested(baseTracks);
    std::vector<TrackId> order(baseTracks);
    for (TrackId i = 0; i < baseTracks; ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](TrackId a, TrackId b) {
        return pendingOn(raw, tracks, a) > pendingOn(raw, tracks, b);
    });
    size_t total = 0;
    for (size_t i = 0; i < baseTracks; ++i) total += pendingOn(raw, tracks, i);
    parallelFor(order.size(), total > kParallelBuildMinSlices, [&](size_t n) {
        const TrackId i = order[n];
        if (raw[i].prefilled)
            nested[i] = SliceNester().nestPrefilled(tracks[i], std::move(raw[i].slices));
        else
            nested[i] =
                SliceNester().nestIntoLanes(std::move(raw[i].slices), tracks[i],
                                            needSeq ? &seqMaps[i] : nullptr, raw[i].nextSeq);
    });

    // Extra lanes go after the base tracks, each base track's lanes in order.
    size_t spilled = 0;
    for (TrackId i = 0; i < baseTracks; ++i) {
        std::vector<TrackId> laneIds{i};
        for (Track& lane : nested[i].extra) {
            tracks.push_back(std::move(lane));
            laneIds.push_back(static_cast<TrackId>(tracks.size() - 1));
            for (auto& [key, ids] : aliases)
                if (std::find(ids.begin(), ids.end(), i) != ids.end())
                    ids.push_back(laneIds.back());
        }
        spilled += nested[i].spilled;
        if (needSeq)
            for (SliceRef& r : seqMaps[i])
                if (r.valid()) r.track = laneIds[r.track];
    }
    if (spilled)
        trace->warnings_.push_back(std::to_string(spilled) +
                                   " slices overlapped another slice on their track without "
                                   "nesting and were moved to an extra lane");
    return seqMaps;
}

void TraceBuilder::Impl::sortCountersAndInstants() {
    Trace& tr = *trace;
    for (Track& t : tr.tracks_) {
        auto& c = t.counter;
        if (!std::is_sorted(c.ts.begin(), c.ts.end())) {
            const auto order = timeOrder(c.ts);
            permute(c.ts, order);
            permute(c.value, order);
        }
        auto& in = t.instants;
        if (!std::is_sorted(in.ts.begin(), in.ts.end())) {
            const auto order = timeOrder(in.ts);
            permute(in.ts, order);
            permute(in.name, order);
            permute(in.category, order);
            permute(in.args, order);
        }
        tr.sliceCount_ += t.slices.size();
        tr.counterSampleCount_ += c.size();
        tr.instantCount_ += in.size();
    }
}

void TraceBuilder::Impl::bindFlows(const std::vector<SeqMap>& seqMaps) {
    FlowBinder binder(*trace, aliases, std::move(trackKeys));
    binder.bindV1(flowsV1);
    flowsV1 = {}; // freed: the id indices are built next (build())
    binder.bindV2(std::move(flowsV2), seqMaps);
    for (auto& w : binder.takeWarnings()) trace->warnings_.push_back(std::move(w));
    // Each flow found by either end.
    flowsByEnd(trace->tracks_, trace->flows_, &Flow::from, trace->flowsByFrom_);
    flowsByEnd(trace->tracks_, trace->flows_, &Flow::to, trace->flowsByTo_);
}

void TraceBuilder::Impl::listProcessesAndThreads() {
    // Every pid/tid that has a track gets an entry.
    Trace& tr = *trace;
    for (const Track& t : tr.tracks_) {
        if (t.kind == TrackKind::GlobalInstants) continue;
        auto& p = processes[t.pid];
        p.pid = t.pid;
        if (t.kind == TrackKind::Thread) {
            auto& th = threads[{t.pid, t.tid}];
            th.pid = t.pid;
            th.tid = t.tid;
        }
    }
    for (auto& [pid, p] : processes) tr.processes_.push_back(std::move(p));
    for (auto& [key, t] : threads) tr.threads_.push_back(std::move(t));
}

TimeRange TraceBuilder::Impl::finishStackSamples(TimeRange b) {
    // Threads whose only data are samples are listed too (their names, their process).
    for (const auto& [pid, tid] : stackSamples.threadKeys()) {
        processes[pid].pid = pid;
        Thread& th = threads[{pid, tid}];
        th.pid = pid;
        th.tid = tid;
    }
    const TimeRange span = stackSamples.finish(trace->stackSamples_, trace->warnings_);
    if (span.start > span.end) return b;
    if (trace->tracks_.empty()) return {span.start, span.end};
    return {std::min(b.start, span.start), std::max(b.end, span.end)};
}

std::shared_ptr<const Trace> TraceBuilder::build() {
    Impl& x = *d;
    Trace& tr = *x.trace;
    PhaseTimer phases;
    const TimeRange bounds = x.bounds();
    phases.mark("build: bounds");
    x.matchAllEdges(bounds);
    std::vector<SeqMap> seqMaps = x.nestIntoLanes();
    phases.mark("build: edges, nest");
    x.raw.clear();
    x.raw.shrink_to_fit();
    x.dropEmptyTracks(seqMaps);
    phases.mark("build: lanes");
    x.sortCountersAndInstants();
    phases.mark("build: counters");
    // The flows, then the id indices: one after the other, the flow events freed in between,
    // so the peak holds the model and one of them, not both (on 2.57 GB of Kineto JSON 0.37x the
    // file instead of 0.42x, for 0.2 s more: docs/performance.md). Each uses both cores inside.
    const bool parallel = tr.sliceCount_ > kParallelBuildMinSlices;
    x.bindFlows(seqMaps);
    phases.mark("build: flows");
    buildIdIndices(tr.tracks_, tr.extras_, tr.externalIds_, parallel, tr.correlationIndex_,
                   tr.externalIndex_);
    phases.mark("build: ids");
    const TimeRange withSamples = x.finishStackSamples(bounds);
    x.listProcessesAndThreads();
    for (SectionSet& s : tr.sections_) finishSectionSet(s);
    // Usually in order already (a recording's launches come in correlation order): sorting
    // moves every set (strings, vectors), so only when needed.
    const auto byCorrelation = [](const SectionSet& a, const SectionSet& b) {
        return a.correlation < b.correlation;
    };
    if (!std::is_sorted(tr.sections_.begin(), tr.sections_.end(), byCorrelation))
        std::stable_sort(tr.sections_.begin(), tr.sections_.end(), byCorrelation);
    tr.bounds_ = withSamples;
    tr.args_.shrink();

    std::shared_ptr<const Trace> out(std::move(x.trace));
    d = std::make_unique<Impl>();
    return out;
}

} // namespace strata
