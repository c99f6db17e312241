#include "model/trace_builder.h"

#include "model/edge_matcher.h"
#include "model/flow_binder.h"
#include "model/gpu_activity_cache.h"
#include "model/id_index.h"
#include "model/parallel_for.h"
#include "model/phase_timer.h"
#include "model/slice_nester.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

namespace strata {

namespace {

using PairHash = PairHashI64;

struct RawTrack {
    PodVector<RawSlice> slices;
    PodVector<RawEdge> edges;
    uint32_t nextSeq = 0;
    bool prefilled = false; // slices are in the track's columns already (TraceBuilder::prefill)
};

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

std::string formatUs(TimeNs ns) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.3f us", double(ns) / 1000.0);
    return buf;
}

} // namespace

struct TraceBuilder::Impl {
    std::unique_ptr<Trace> trace = std::make_unique<Trace>();
    std::vector<RawTrack> raw;
    std::unordered_map<std::pair<int64_t, int64_t>, TrackId, PairHash> threadTracks;
    std::unordered_map<std::pair<int64_t, int64_t>, TrackId, PairHash>
        gpuTracks; // (device, stream)
    std::map<std::pair<int64_t, StringId>, TrackId> counterTracks;
    std::map<std::tuple<int64_t, StringId, uint64_t>, TrackId> asyncTracks;
    std::unordered_map<int64_t, TrackId> processInstantTracks;
    TrackId globalTrack = UINT32_MAX;
    // (pid, tid) as events name them -> tracks they may land on (thread track, GPU stream tracks).
    TrackAliases aliases;
    std::map<int64_t, Process> processes;
    std::map<std::pair<int64_t, int64_t>, Thread> threads;
    PodVector<FlowEventV1> flowsV1;
    std::vector<FlowEventV2> flowsV2;

    TrackId newTrack(Track t) {
        trace->tracks_.push_back(std::move(t));
        raw.emplace_back();
        return static_cast<TrackId>(trace->tracks_.size() - 1);
    }
    void alias(int64_t pid, int64_t tid, TrackId id) {
        auto& v = aliases[{pid, tid}];
        if (std::find(v.begin(), v.end(), id) == v.end()) v.push_back(id);
    }
    RawSlice rawSlice(TrackId track, const SliceInput& s);
    uint32_t makeExtra(const SliceInput& s) {
        if (s.correlation < 0 && s.externalId < 0 && !s.gpu) return kNoExtra;
        SliceExtra e;
        e.correlation = s.correlation;
        if (s.externalId >= 0) {
            e.external = static_cast<uint32_t>(trace->externalIds_.size());
            trace->externalIds_.push_back(s.externalId);
        }
        if (s.gpu) e.gpu = gpuCache.intern(*s.gpu, trace->gpu_);
        trace->extras_.push_back(e);
        return static_cast<uint32_t>(trace->extras_.size() - 1);
    }

    GpuActivityCache gpuCache;

    // The track of `key` in `map`, made by `make()` the first time it is asked for.
    template <typename Map, typename Key, typename Make>
    TrackId findOrAdd(Map& map, const Key& key, Make&& make, bool* added = nullptr) {
        auto [it, inserted] = map.try_emplace(key, 0);
        if (inserted) it->second = newTrack(make());
        if (added) *added = inserted;
        return it->second;
    }
    int64_t lastAliasPid = 0, lastAliasTid = 0;
    TrackId lastAliasTrack = UINT32_MAX;

    void dropEmptyTracks(std::vector<SeqMap>& seqMaps);
    std::vector<std::pair<int64_t, int64_t>> trackKeys; // (pid, tid) of tracks as added
};

TraceBuilder::TraceBuilder() : d(std::make_unique<Impl>()) {}
TraceBuilder::~TraceBuilder() = default;

StringPool& TraceBuilder::strings() {
    return d->trace->strings_;
}
ArgStore& TraceBuilder::args() {
    return d->trace->args_;
}

TrackId TraceBuilder::threadTrack(int64_t pid, int64_t tid) {
    auto make = [&] {
        Track t;
        t.kind = TrackKind::Thread;
        t.pid = pid;
        t.tid = tid;
        return t;
    };
    bool added = false;
    const TrackId id = d->findOrAdd(d->threadTracks, std::pair{pid, tid}, make, &added);
    if (added) d->alias(pid, tid, id);
    return id;
}

TrackId TraceBuilder::gpuStreamTrack(int32_t device, int64_t stream, int64_t pid, int64_t tid) {
    auto make = [&] {
        Track t;
        t.kind = TrackKind::GpuStream;
        t.pid = pid;
        t.tid = stream;
        t.device = device;
        return t;
    };
    const TrackId id =
        d->findOrAdd(d->gpuTracks, std::pair<int64_t, int64_t>{device, stream}, make);
    // Every (pid, tid) that names this stream is an alias for flow binding; most events repeat
    // the previous one, so only a change is looked up.
    if (std::tie(pid, tid, id) != std::tie(d->lastAliasPid, d->lastAliasTid, d->lastAliasTrack)) {
        d->alias(pid, tid, id);
        d->lastAliasPid = pid;
        d->lastAliasTid = tid;
        d->lastAliasTrack = id;
    }
    return id;
}

TrackId TraceBuilder::counterTrack(int64_t pid, StringId name) {
    auto make = [&] {
        Track t;
        t.kind = TrackKind::Counter;
        t.pid = pid;
        t.name = name;
        return t;
    };
    return d->findOrAdd(d->counterTracks, std::pair{pid, name}, make);
}

TrackId TraceBuilder::asyncTrack(int64_t pid, StringId name, uint64_t cookie) {
    auto make = [&] {
        Track t;
        t.kind = TrackKind::Async;
        t.pid = pid;
        t.name = name;
        t.cookie = cookie;
        return t;
    };
    return d->findOrAdd(d->asyncTracks, std::tuple{pid, name, cookie}, make);
}

TrackId TraceBuilder::processInstantTrack(int64_t pid) {
    auto make = [&] {
        Track t;
        t.kind = TrackKind::ProcessInstants;
        t.pid = pid;
        return t;
    };
    return d->findOrAdd(d->processInstantTracks, pid, make);
}

TrackId TraceBuilder::globalInstantTrack() {
    if (d->globalTrack == UINT32_MAX) {
        Track t;
        t.kind = TrackKind::GlobalInstants;
        d->globalTrack = d->newTrack(std::move(t));
    }
    return d->globalTrack;
}

void TraceBuilder::setProcessName(int64_t pid, StringId name) {
    auto& p = d->processes[pid];
    p.pid = pid;
    p.name = name;
}
void TraceBuilder::setProcessSortIndex(int64_t pid, int32_t index) {
    auto& p = d->processes[pid];
    p.pid = pid;
    p.sortIndex = index;
    p.hasSortIndex = true;
}
void TraceBuilder::addProcessLabel(int64_t pid, StringId label) {
    auto& p = d->processes[pid];
    p.pid = pid;
    p.labels.push_back(label);
}
void TraceBuilder::setThreadName(int64_t pid, int64_t tid, StringId name) {
    auto& t = d->threads[{pid, tid}];
    t.pid = pid;
    t.tid = tid;
    t.name = name;
}
void TraceBuilder::setThreadSortIndex(int64_t pid, int64_t tid, int32_t index) {
    auto& t = d->threads[{pid, tid}];
    t.pid = pid;
    t.tid = tid;
    t.sortIndex = index;
    t.hasSortIndex = true;
}
void TraceBuilder::setMetadata(std::string key, std::string value) {
    d->trace->metadata_[std::move(key)] = std::move(value);
}
void TraceBuilder::setNameColor(StringId name, uint32_t argb) {
    d->trace->nameColors_[name] = argb;
}
void TraceBuilder::addDevice(const DeviceInfo& dev) {
    d->trace->devices_.push_back(dev);
}
void TraceBuilder::addWarning(std::string w) {
    d->trace->warnings_.push_back(std::move(w));
}

// The raw slice of an X or B event; its seq is its insertion order on the track.
RawSlice TraceBuilder::Impl::rawSlice(TrackId track, const SliceInput& s) {
    RawSlice r;
    r.start = s.start;
    r.dur = std::max<TimeNs>(s.dur, 0);
    r.name = s.name;
    r.category = s.category;
    r.args = s.args;
    r.extra = makeExtra(s);
    r.kind = s.kind;
    r.seq = raw[track].nextSeq++;
    return r;
}

PendingSlice TraceBuilder::addSlice(TrackId track, const SliceInput& s) {
    const RawSlice r = d->rawSlice(track, s);
    d->raw[track].slices.push_back(r);
    return {track, r.seq};
}

PendingSlice TraceBuilder::addBegin(TrackId track, const SliceInput& s) {
    RawEdge e;
    e.slice = d->rawSlice(track, s);
    e.slice.dur = 0;
    d->raw[track].edges.push_back(e);
    return {track, e.slice.seq};
}

void TraceBuilder::addEnd(TrackId track, TimeNs ts, StringId name, ArgSetId args) {
    RawEdge e;
    e.slice.start = ts;
    e.slice.name = name;
    e.slice.args = args;
    e.isEnd = true;
    d->raw[track].edges.push_back(e);
}

void TraceBuilder::addInstant(TrackId track, TimeNs ts, StringId name, StringId category,
                              ArgSetId args) {
    auto& in = d->trace->tracks_[track].instants;
    in.ts.push_back(ts);
    in.name.push_back(name);
    in.category.push_back(category);
    in.args.push_back(args);
}

void TraceBuilder::addCounter(TrackId track, TimeNs ts, double value) {
    auto& c = d->trace->tracks_[track].counter;
    c.ts.push_back(ts);
    c.value.push_back(value);
}

void TraceBuilder::addFlowV1(FlowPhase phase, TrackId track, TimeNs ts, uint64_t id,
                             StringId category, StringId name, bool bindEnclosing) {
    FlowEventV1 f;
    f.phase = static_cast<uint8_t>(phase);
    f.track = track;
    f.ts = ts;
    f.id = id;
    f.category = category;
    f.name = name;
    f.bindEnclosing = bindEnclosing;
    d->flowsV1.push_back(f);
}

void TraceBuilder::addFlowV2(PendingSlice slice, uint64_t bindId, bool flowIn, bool flowOut) {
    if (slice.track == UINT32_MAX) return;
    d->flowsV2.push_back(FlowEventV2{slice.track, slice.seq, bindId, flowIn, flowOut});
}

TraceBuilder::Prefilled TraceBuilder::prefill(TrackId track, const PrefillCounts& n) {
    RawTrack& raw = d->raw[track];
    Track& t = d->trace->tracks_[track];
    raw.prefilled = true;
    SliceColumns& c = t.slices;
    for (auto* col : {&c.start, &c.dur}) col->reserve(n.slices + n.begins);
    for (auto* col : {&c.name, &c.category, &c.args, &c.extra}) col->reserve(n.slices + n.begins);
    c.kind.reserve(n.slices + n.begins);
    c.flags.reserve(n.slices + n.begins);
    for (auto* col : {&c.start, &c.dur}) col->resize(n.slices);
    for (auto* col : {&c.name, &c.category, &c.args, &c.extra}) col->resize(n.slices);
    c.kind.resize(n.slices);
    c.flags.resize(n.slices);
    raw.edges.resize_for_overwrite(n.edges);
    raw.nextSeq = uint32_t(n.slices + n.begins);
    t.counter.ts.resize(n.counterSamples);
    t.counter.value.resize(n.counterSamples);
    auto& in = t.instants;
    in.ts.resize(n.instants);
    in.name.resize(n.instants);
    in.category.resize(n.instants);
    in.args.resize(n.instants);
    return {&c, raw.edges.data(), &t.counter, &t.instants};
}

SliceExtra* TraceBuilder::prefillExtras(size_t n, uint32_t* first) {
    auto& ex = d->trace->extras_;
    *first = static_cast<uint32_t>(ex.size());
    ex.resize_for_overwrite(ex.size() + n);
    return ex.data() + *first;
}

uint32_t TraceBuilder::appendGpuActivities(const GpuActivity* values, size_t n) {
    auto& gpu = d->trace->gpu_;
    const auto first = static_cast<uint32_t>(gpu.size());
    gpu.append(values, n);
    return first;
}

size_t TraceBuilder::pendingSliceCount() const {
    size_t n = 0;
    for (size_t i = 0; i < d->raw.size(); ++i)
        n += pendingOn(d->raw, d->trace->tracks_, i) + d->raw[i].edges.size();
    return n;
}

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

std::shared_ptr<const Trace> TraceBuilder::build() {
    Trace& tr = *d->trace;
    PhaseTimer phases;

    // Trace bounds over everything that has a time: each track in two halves (the second
    // half: the second half of the prefilled slices), on both cores for large traces.
    std::vector<std::pair<TimeNs, TimeNs>> parts(2 * d->raw.size(), {INT64_MAX, INT64_MIN});
    size_t slices = 0;
    for (size_t i = 0; i < d->raw.size(); ++i) slices += pendingOn(d->raw, tr.tracks_, i);
    parallelFor(parts.size(), slices > kParallelBuildMinSlices, [&](size_t n) {
        const size_t i = n / 2;
        auto& [lo, hi] = parts[n];
        auto see = [&](TimeNs s, TimeNs e) {
            lo = std::min(lo, s);
            hi = std::max(hi, e);
        };
        const SliceColumns& c = tr.tracks_[i].slices;
        const size_t prefilled = d->raw[i].prefilled ? c.size() : 0;
        if (n % 2 == 1) {
            for (size_t k = prefilled / 2; k < prefilled; ++k)
                see(c.start[k], c.start[k] + c.dur[k]);
            return;
        }
        for (size_t k = 0; k < prefilled / 2; ++k) see(c.start[k], c.start[k] + c.dur[k]);
        for (const auto& s : d->raw[i].slices) see(s.start, s.start + s.dur);
        for (const auto& e : d->raw[i].edges) see(e.slice.start, e.slice.start);
        for (TimeNs t : tr.tracks_[i].counter.ts) see(t, t);
        for (TimeNs t : tr.tracks_[i].instants.ts) see(t, t);
    });
    TimeNs lo = INT64_MAX, hi = INT64_MIN;
    for (const auto& [l, h] : parts) {
        lo = std::min(lo, l);
        hi = std::max(hi, h);
    }
    if (lo > hi) lo = hi = 0;

    phases.mark("build: bounds");
    EdgeMatchCounts edges;
    for (RawTrack& rt : d->raw) matchEdges(rt.edges, hi, tr.args_, rt.slices, edges);
    if (edges.unmatchedEnds)
        tr.warnings_.push_back(std::to_string(edges.unmatchedEnds) +
                               " E (end) events had no matching B event and were skipped");
    if (edges.openBegins)
        tr.warnings_.push_back(std::to_string(edges.openBegins) +
                               " B (begin) events were never ended and were closed at the trace "
                               "end (" +
                               formatUs(hi - lo) + ")");

    // Sort and nest every track; slices that overlap without nesting spill to extra lanes.
    // Tracks are independent: both cores nest, the largest tracks first.
    const size_t baseTracks = d->raw.size();
    const bool needSeq = !d->flowsV2.empty(); // only v2 flows refer to slices by insertion order
    std::vector<SeqMap> seqMaps(baseTracks);
    std::vector<SliceNester::Lanes> nested(baseTracks);
    {
        std::vector<TrackId> order(baseTracks);
        for (TrackId i = 0; i < baseTracks; ++i) order[i] = i;
        std::sort(order.begin(), order.end(), [&](TrackId a, TrackId b) {
            return pendingOn(d->raw, tr.tracks_, a) > pendingOn(d->raw, tr.tracks_, b);
        });
        size_t total = 0;
        for (size_t i = 0; i < baseTracks; ++i) total += pendingOn(d->raw, tr.tracks_, i);
        parallelFor(order.size(), total > kParallelBuildMinSlices, [&](size_t n) {
            const TrackId i = order[n];
            if (d->raw[i].prefilled)
                nested[i] = SliceNester().nestPrefilled(tr.tracks_[i], std::move(d->raw[i].slices));
            else
                nested[i] =
                    SliceNester().nestIntoLanes(std::move(d->raw[i].slices), tr.tracks_[i],
                                                needSeq ? &seqMaps[i] : nullptr, d->raw[i].nextSeq);
        });
    }
    phases.mark("build: edges, nest");
    // Extra lanes go after the base tracks, each base track's lanes in order.
    size_t spilled = 0;
    for (TrackId i = 0; i < baseTracks; ++i) {
        std::vector<TrackId> laneIds{i};
        for (Track& lane : nested[i].extra) {
            tr.tracks_.push_back(std::move(lane));
            laneIds.push_back(static_cast<TrackId>(tr.tracks_.size() - 1));
            for (auto& [key, tracks] : d->aliases)
                if (std::find(tracks.begin(), tracks.end(), i) != tracks.end())
                    tracks.push_back(laneIds.back());
        }
        spilled += nested[i].spilled;
        if (needSeq)
            for (SliceRef& r : seqMaps[i])
                if (r.valid()) r.track = laneIds[r.track];
    }
    nested.clear();
    d->raw.clear();
    d->raw.shrink_to_fit();
    d->dropEmptyTracks(seqMaps);
    if (spilled)
        tr.warnings_.push_back(std::to_string(spilled) +
                               " slices overlapped another slice on their track without nesting "
                               "and were moved to an extra lane");

    phases.mark("build: lanes");
    // Counters and instants in time order.
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

    phases.mark("build: counters");
    // Flows.
    FlowBinder binder(tr, d->aliases, std::move(d->trackKeys));
    binder.bindV1(d->flowsV1);
    d->flowsV1.clear();
    binder.bindV2(std::move(d->flowsV2), seqMaps);
    for (auto& w : binder.takeWarnings()) tr.warnings_.push_back(std::move(w));

    phases.mark("build: flows");
    // Correlation and External id indices.
    const bool big = tr.sliceCount_ > kParallelBuildMinSlices;
    buildIdIndices(tr.tracks_, tr.extras_, tr.externalIds_, big, tr.correlationIndex_,
                   tr.externalIndex_);
    phases.mark("build: ids");
    // Processes and threads: every pid/tid that has a track gets an entry.
    for (const Track& t : tr.tracks_) {
        if (t.kind == TrackKind::GlobalInstants) continue;
        auto& p = d->processes[t.pid];
        p.pid = t.pid;
        if (t.kind == TrackKind::Thread) {
            auto& th = d->threads[{t.pid, t.tid}];
            th.pid = t.pid;
            th.tid = t.tid;
        }
    }
    for (auto& [pid, p] : d->processes) tr.processes_.push_back(std::move(p));
    for (auto& [key, t] : d->threads) tr.threads_.push_back(std::move(t));

    tr.bounds_ = TimeRange{lo, hi};
    tr.args_.shrink();

    std::shared_ptr<const Trace> out(std::move(d->trace));
    d = std::make_unique<Impl>();
    return out;
}

} // namespace strata
