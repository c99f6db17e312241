// TraceBuilder: the calls readers make while they stream events in (tracks, metadata, events,
// bulk prefill). build() and its phases are in trace_build.cpp.
#include "model/build/trace_builder.h"

#include "model/build/trace_builder_impl.h"

#include <algorithm>
#include <cstring>

namespace strata {

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
void TraceBuilder::setProcessOriginalPid(int64_t pid, int64_t original) {
    auto& p = d->processes[pid];
    p.pid = pid;
    p.originalPid = original;
}
void TraceBuilder::setThreadOriginalTid(int64_t pid, int64_t tid, int64_t original) {
    auto& t = d->threads[{pid, tid}];
    t.pid = pid;
    t.tid = tid;
    t.originalTid = original;
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
void TraceBuilder::includeInBounds(TimeNs t) {
    d->boundsLo = std::min(d->boundsLo, t);
    d->boundsHi = std::max(d->boundsHi, t);
}
void TraceBuilder::setRunInfo(RunInfo run) {
    if (d->trace->run_)
        d->trace->warnings_.push_back("more than one run record: the last one (" +
                                      formatUtcTime(run.startUnixNs) + ") is shown");
    d->trace->run_ = std::move(run);
}

CallsiteId TraceBuilder::addCallsite(CallsiteId parent, StringId frame) {
    StackSamples& s = d->trace->stackSamples_;
    const auto id = CallsiteId(s.callsiteParent.size());
    s.callsiteParent.push_back(parent < id ? parent : kNoCallsite);
    s.callsiteFrame.push_back(frame);
    return id;
}

void TraceBuilder::addStackSample(int64_t pid, int64_t tid, TimeNs ts, CallsiteId callsite,
                                  uint8_t kind) {
    d->stackSamples.add(pid, tid, ts, callsite, kind);
}

size_t TraceBuilder::callsiteCount() const {
    return d->trace->stackSamples_.callsiteCount();
}

SectionSet& TraceBuilder::sectionSet(int64_t correlation, std::string_view kernel, int32_t device) {
    std::vector<SectionSet>& sets = d->trace->sections_;
    auto same = [&](const SectionSet& s) {
        return s.correlation == correlation && s.kernel == kernel && s.device == device;
    };
    if (correlation >= 0 && !sets.empty() && same(sets.back())) return sets.back(); // next piece
    if (correlation >= 0) {
        const auto [it, added] = d->sectionSetOf.try_emplace(correlation, uint32_t(sets.size()));
        if (!added) {
            if (same(sets[it->second])) return sets[it->second];
            std::string key(sizeof correlation + sizeof device, '\0');
            std::memcpy(key.data(), &correlation, sizeof correlation);
            std::memcpy(key.data() + sizeof correlation, &device, sizeof device);
            key += kernel;
            const auto [more, fresh] =
                d->moreSectionSetsOf.try_emplace(std::move(key), uint32_t(sets.size()));
            if (!fresh) return sets[more->second];
        }
    }
    SectionSet& s = sets.emplace_back();
    s.correlation = correlation;
    s.kernel = std::string(kernel);
    s.device = device;
    return s;
}

void TraceBuilder::addSectionSet(SectionSet set) {
    d->trace->sections_.push_back(std::move(set));
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

void TraceBuilder::updateGpuOpArgs(const std::function<void(SliceKind, int64_t, ArgSetId&)>& f) {
    const auto& extras = d->trace->extras_;
    auto correlation = [&](uint32_t extra) {
        return extra == kNoExtra ? int64_t(-1) : extras[extra].correlation;
    };
    for (TrackId t = 0; t < d->trace->tracks_.size(); ++t) {
        Track& track = d->trace->tracks_[t];
        if (track.kind != TrackKind::GpuStream) continue;
        for (RawSlice& s : d->raw[t].slices) f(s.kind, correlation(s.extra), s.args);
        if (!d->raw[t].prefilled) continue;
        SliceColumns& c = track.slices;
        for (size_t i = 0; i < c.size(); ++i) f(c.kind[i], correlation(c.extra[i]), c.args[i]);
    }
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

} // namespace strata
