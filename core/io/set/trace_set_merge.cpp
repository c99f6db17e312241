#include "io/set/trace_set_merge.h"

#include "io/set/merged_stack_samples.h"
#include "io/set/part_ids.h"
#include "model/id_index.h"
#include "model/names/track_names.h"
#include "util/parallel_for.h"
#include "util/phase_timer.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <memory>
#include <numeric>
#include <set>

namespace strata {

// Builds the merged Trace (a friend of Trace, as TraceBuilder is).
class TraceSetMerger {
public:
    explicit TraceSetMerger(const std::vector<TracePart>& parts);
    std::shared_ptr<const Trace> run(MergeLayout* layout);
    static std::shared_ptr<const Trace> shifted(const Trace& merged, MergeLayout& layout,
                                                const std::vector<TimeNs>& shift);

private:
    struct Part {
        const Trace* trace = nullptr;
        TimeNs offset = 0;
        std::string label;  // "rank 3: "
        uint32_t index = 0; // in the parts given
        std::unique_ptr<PartIds> ids;
        std::vector<StringId> stringOf; // the part's string id -> the merged one
        std::vector<ArgSetId> argsOf;   // the part's arg set -> the merged one
        std::vector<TrackId> trackOf;   // the part's track -> the merged one
        uint32_t extraBase = 0, gpuBase = 0, externalBase = 0;
    };
    // Where a merged track comes from.
    struct Source {
        size_t part = 0;
        TrackId track = 0;
    };

    void mapStringsAndArgs(Part& p);
    void copyExtras(Part& p);
    void planTracks();
    Track header(const Part& p, TrackId i) const;
    void gpuMetricOnItsDevice(const Part& p, Track& t);
    void copyColumns(const Source& s, Track& out) const;
    void mergeGlobalInstants(MergeLayout& layout);
    void copyFlows();
    void listProcessesAndThreads();
    void copyTheRest();
    void mergeStackSamples();

    std::vector<Part> parts_;
    std::unique_ptr<Trace> out_ = std::make_unique<Trace>();
    std::vector<Source> sources_; // by merged track
    TrackId globalTrack_ = UINT32_MAX;
};

TraceSetMerger::TraceSetMerger(const std::vector<TracePart>& parts) {
    PartIdSpace space;
    for (size_t i = 0; i < parts.size(); ++i) {
        if (!parts[i].trace) continue;
        Part p;
        p.trace = parts[i].trace;
        p.offset = parts[i].offset;
        p.label = parts[i].label + ": ";
        p.index = uint32_t(i);
        p.ids = std::make_unique<PartIds>(*p.trace, space, p.label, setPartSortBase(i));
        parts_.push_back(std::move(p));
    }
}

void TraceSetMerger::mapStringsAndArgs(Part& p) {
    const Trace& t = *p.trace;
    p.stringOf.resize(t.strings().size());
    for (StringId id = 0; id < t.strings().size(); ++id)
        p.stringOf[id] = out_->strings_.intern(t.str(id));
    const ArgStore& args = t.argStore();
    p.argsOf.resize(args.setCount());
    for (ArgSetId id = 0; id < args.setCount(); ++id)
        p.argsOf[id] = out_->args_.copyFrom(args, id, p.stringOf);
}

void TraceSetMerger::copyExtras(Part& p) {
    const Trace& t = *p.trace;
    const PartIds& ids = *p.ids;
    p.extraBase = uint32_t(out_->extras_.size());
    p.gpuBase = uint32_t(out_->gpu_.size());
    p.externalBase = uint32_t(out_->externalIds_.size());
    for (size_t i = 0; i < t.extras().size(); ++i) {
        SliceExtra e = t.extras()[i];
        e.correlation = ids.correlation(e.correlation);
        if (e.gpu != SliceExtra::kNone) e.gpu += p.gpuBase;
        if (e.external != SliceExtra::kNone) e.external += p.externalBase;
        out_->extras_.push_back(e);
    }
    for (size_t i = 0; i < t.gpuActivities().size(); ++i) {
        GpuActivity g = t.gpuActivities()[i];
        g.device = ids.device(g.device);
        out_->gpu_.push_back(g);
    }
    for (size_t i = 0; i < t.externalIds().size(); ++i)
        out_->externalIds_.push_back(ids.external(t.externalIds()[i]));
}

// Every part's main tracks first, then their overlapping lanes (as TraceBuilder orders them);
// the parts' global instants become one track.
void TraceSetMerger::planTracks() {
    for (int lanes = 0; lanes < 2; ++lanes)
        for (size_t k = 0; k < parts_.size(); ++k) {
            Part& p = parts_[k];
            const auto& tracks = p.trace->tracks();
            p.trackOf.resize(tracks.size(), UINT32_MAX);
            for (TrackId i = 0; i < tracks.size(); ++i) {
                if ((tracks[i].lane > 0) != (lanes == 1)) continue;
                if (tracks[i].kind == TrackKind::GlobalInstants) {
                    if (globalTrack_ == UINT32_MAX) {
                        globalTrack_ = TrackId(out_->tracks_.size());
                        Track g;
                        g.kind = TrackKind::GlobalInstants;
                        out_->tracks_.push_back(std::move(g));
                        sources_.push_back({k, i});
                    }
                    p.trackOf[i] = globalTrack_;
                    continue;
                }
                p.trackOf[i] = TrackId(out_->tracks_.size());
                out_->tracks_.push_back(header(p, i));
                gpuMetricOnItsDevice(p, out_->tracks_.back());
                sources_.push_back({k, i});
            }
        }
}

// A merged track without its columns: the export's pid (and tid for a thread's main lane; a
// thread's other lanes keep its tid, a GPU stream its stream id) and device id.
Track TraceSetMerger::header(const Part& p, TrackId i) const {
    const Track& in = p.trace->track(i);
    Track t;
    t.kind = in.kind;
    t.pid = p.ids->pid(i);
    t.tid = in.tid;
    t.device = in.kind == TrackKind::GpuStream ? p.ids->device(in.device) : in.device;
    t.lane = in.lane;
    t.name = p.stringOf[in.name];
    t.cookie = in.cookie;
    t.maxDepth = in.maxDepth;
    t.maxDuration = in.maxDuration;
    if (in.kind != TrackKind::Thread) return t;
    t.tid = p.ids->tid(i);
    if (in.lane == 0) return t;
    const auto& tracks = p.trace->tracks();
    for (TrackId j = 0; j < tracks.size(); ++j)
        if (tracks[j].kind == TrackKind::Thread && tracks[j].lane == 0 && tracks[j].pid == in.pid &&
            tracks[j].tid == in.tid)
            t.tid = p.ids->tid(j);
    return t;
}

// A GPU metric row (`GPU <device> <metric>`, gpu_metric_means.h) names the device it measured:
// the part's device takes the merged id, and so does the row's name.
void TraceSetMerger::gpuMetricOnItsDevice(const Part& p, Track& t) {
    if (t.kind != TrackKind::Counter) return;
    const auto metric = parseGpuCounterName(out_->strings_.view(t.name));
    if (!metric) return;
    const int32_t device = p.ids->device(metric->first);
    if (device != metric->first)
        t.name = out_->strings_.intern(gpuCounterName(device, metric->second));
}

void TraceSetMerger::copyColumns(const Source& s, Track& out) const {
    const Part& p = parts_[s.part];
    const Track& in = p.trace->track(s.track);
    const TimeNs shift = p.offset;
    const auto str = [&](StringId id) { return p.stringOf[id]; };
    const auto args = [&](ArgSetId id) { return id == kNoArgs ? kNoArgs : p.argsOf[id]; };
    const SliceColumns& a = in.slices;
    SliceColumns& b = out.slices;
    const size_t n = a.size();
    b.start.resize(n);
    b.name.resize(n);
    b.category.resize(n);
    b.args.resize(n);
    b.extra.resize(n);
    for (size_t i = 0; i < n; ++i) {
        b.start[i] = a.start[i] + shift;
        b.name[i] = str(a.name[i]);
        b.category[i] = str(a.category[i]);
        b.args[i] = args(a.args[i]);
        b.extra[i] = a.extra[i] == kNoExtra ? kNoExtra : a.extra[i] + p.extraBase;
    }
    b.dur.assign(a.dur.begin(), a.dur.end());
    b.parent.assign(a.parent.begin(), a.parent.end());
    b.depth.assign(a.depth.begin(), a.depth.end());
    b.kind.assign(a.kind.begin(), a.kind.end());
    b.flags.assign(a.flags.begin(), a.flags.end());
    out.counter.ts.resize(in.counter.size());
    for (size_t i = 0; i < in.counter.size(); ++i) out.counter.ts[i] = in.counter.ts[i] + shift;
    out.counter.value.assign(in.counter.value.begin(), in.counter.value.end());
    const InstantColumns& ia = in.instants;
    for (size_t i = 0; i < ia.size(); ++i) {
        out.instants.ts.push_back(ia.ts[i] + shift);
        out.instants.name.push_back(str(ia.name[i]));
        out.instants.category.push_back(str(ia.category[i]));
        out.instants.args.push_back(args(ia.args[i]));
    }
}

void TraceSetMerger::mergeGlobalInstants(MergeLayout& layout) {
    if (globalTrack_ == UINT32_MAX) return;
    InstantColumns all;
    std::vector<uint32_t> partOf;
    for (const Part& p : parts_)
        for (TrackId i = 0; i < p.trace->tracks().size(); ++i) {
            if (p.trackOf[i] != globalTrack_) continue;
            Track one;
            copyColumns({size_t(&p - parts_.data()), i}, one);
            const InstantColumns& c = one.instants;
            all.ts.insert(all.ts.end(), c.ts.begin(), c.ts.end());
            all.name.insert(all.name.end(), c.name.begin(), c.name.end());
            all.category.insert(all.category.end(), c.category.begin(), c.category.end());
            all.args.insert(all.args.end(), c.args.begin(), c.args.end());
            partOf.insert(partOf.end(), c.size(), p.index);
        }
    std::vector<uint32_t> order(all.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return all.ts[a] < all.ts[b]; });
    InstantColumns& g = out_->tracks_[globalTrack_].instants;
    for (uint32_t k : order) {
        g.ts.push_back(all.ts[k]);
        g.name.push_back(all.name[k]);
        g.category.push_back(all.category[k]);
        g.args.push_back(all.args[k]);
        layout.partOfGlobalInstant.push_back(partOf[k]);
    }
}

void TraceSetMerger::copyFlows() {
    for (const Part& p : parts_)
        for (const Flow& f : p.trace->flows())
            out_->flows_.push_back({{p.trackOf[f.from.track], f.from.index},
                                    {p.trackOf[f.to.track], f.to.index},
                                    p.stringOf[f.category],
                                    p.stringOf[f.name],
                                    f.id});
    const std::vector<Flow>& flows = out_->flows_;
    for (auto [index, end] :
         {std::pair{&out_->flowsByFrom_, &Flow::from}, std::pair{&out_->flowsByTo_, &Flow::to}}) {
        index->resize(flows.size());
        std::iota(index->begin(), index->end(), 0u);
        std::stable_sort(index->begin(), index->end(), [&, end = end](uint32_t a, uint32_t b) {
            return flows[a].*end < flows[b].*end;
        });
    }
}

// The export's processes (names under the part's label, sort indices keeping the parts in
// order) and the threads of the main lanes.
void TraceSetMerger::listProcessesAndThreads() {
    std::set<std::pair<int64_t, int64_t>> threadKeys;
    for (const Track& t : out_->tracks_)
        if (t.kind == TrackKind::Thread && t.lane == 0) threadKeys.insert({t.pid, t.tid});
    for (const Part& p : parts_) {
        for (const ExportProcess& e : p.ids->processes()) {
            Process proc;
            proc.pid = e.pid;
            proc.name = e.unnamed ? 0 : out_->strings_.intern(e.name);
            proc.sortIndex = e.sortIndex;
            proc.hasSortIndex = true;
            if (!e.label.empty()) proc.labels.push_back(out_->strings_.intern(e.label));
            proc.originalPid = e.original;
            out_->processes_.push_back(std::move(proc));
        }
        for (const ExportThread& e : p.ids->threads()) {
            if (!threadKeys.count({e.pid, e.tid})) continue; // a lane or a GPU stream
            Thread th;
            th.pid = e.pid;
            th.tid = e.tid;
            th.name = e.unnamed ? 0 : out_->strings_.intern(e.name);
            th.sortIndex = e.sortIndex;
            th.hasSortIndex = true;
            th.originalTid = e.original;
            out_->threads_.push_back(std::move(th));
        }
    }
    std::sort(out_->processes_.begin(), out_->processes_.end(),
              [](const Process& a, const Process& b) { return a.pid < b.pid; });
    std::sort(out_->threads_.begin(), out_->threads_.end(), [](const Thread& a, const Thread& b) {
        return std::pair{a.pid, a.tid} < std::pair{b.pid, b.tid};
    });
}

// Devices, colours, sections, warnings, bounds, counts and what the set is made of.
void TraceSetMerger::copyTheRest() {
    Trace& t = *out_;
    nlohmann::json partsJson = nlohmann::json::array();
    bool anyBounds = false;
    for (const Part& p : parts_) {
        const Trace& in = *p.trace;
        // The devices the part has GPU work on (a Kineto trace lists every GPU of its node:
        // the others would take ids another part's devices have).
        std::set<int32_t> used;
        for (const Track& tr : in.tracks())
            if (tr.kind == TrackKind::GpuStream) used.insert(tr.device);
        for (DeviceInfo d : in.devices()) {
            if (!used.count(d.id)) continue;
            d.id = p.ids->device(d.id);
            t.devices_.push_back(std::move(d));
        }
        for (const auto& [name, argb] : in.nameColors()) t.nameColors_[p.stringOf[name]] = argb;
        for (SectionSet s : in.sections()) {
            s.correlation = p.ids->correlation(s.correlation);
            s.device = p.ids->device(s.device);
            t.sections_.push_back(std::move(s));
        }
        for (const std::string& w : in.warnings()) t.warnings_.push_back(p.label + w);
        t.sliceCount_ += in.sliceCount();
        t.counterSampleCount_ += in.counterSampleCount();
        t.instantCount_ += in.instantCount();
        if (in.sliceCount() + in.counterSampleCount() + in.instantCount() > 0) {
            const TimeRange b{in.bounds().start + p.offset, in.bounds().end + p.offset};
            t.bounds_ = anyBounds ? TimeRange{std::min(t.bounds_.start, b.start),
                                              std::max(t.bounds_.end, b.end)}
                                  : b;
            anyBounds = true;
        }
        partsJson.push_back({{"label", p.label.substr(0, p.label.size() - 2)},
                             {"offset_ns", std::to_string(p.offset)}});
    }
    t.metadata_["strata_parts"] = partsJson.dump();
    std::stable_sort(
        t.sections_.begin(), t.sections_.end(),
        [](const SectionSet& a, const SectionSet& b) { return a.correlation < b.correlation; });
}

// The parts' stack samples (io/set/merged_stack_samples.h), the bounds widened to them.
void TraceSetMerger::mergeStackSamples() {
    std::vector<StackSamplesPart> parts;
    for (const Part& p : parts_)
        parts.push_back({p.trace, &p.stringOf,
                         [&p](TrackId i) {
                             return std::pair{p.ids->pid(i), p.ids->tid(i)};
                         },
                         p.offset});
    MergedStackSamples m = strata::mergeStackSamples(parts);
    if (m.left)
        out_->warnings_.push_back(std::to_string(m.left) +
                                  " stack sample(s) of threads with nothing else recorded are "
                                  "not in the merged trace (their threads have no merged ids)");
    out_->stackSamples_ = std::move(m.samples);
    if (out_->stackSamples_.empty()) return;
    const bool other = out_->sliceCount_ + out_->counterSampleCount_ + out_->instantCount_ > 0;
    out_->bounds_ = other ? TimeRange{std::min(out_->bounds_.start, m.span.start),
                                      std::max(out_->bounds_.end, m.span.end)}
                          : m.span;
}

std::shared_ptr<const Trace> TraceSetMerger::run(MergeLayout* layoutOut) {
    MergeLayout layout;
    PhaseTimer phases;
    for (Part& p : parts_) mapStringsAndArgs(p);
    phases.mark("merge: strings, args");
    for (Part& p : parts_) copyExtras(p);
    planTracks();
    // The columns, the largest tracks first, on both cores.
    std::vector<TrackId> order(sources_.size());
    std::iota(order.begin(), order.end(), 0u);
    const auto size = [&](TrackId i) {
        const Track& in = parts_[sources_[i].part].trace->track(sources_[i].track);
        return in.slices.size() + in.counter.size() + in.instants.size();
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](TrackId a, TrackId b) { return size(a) > size(b); });
    size_t total = 0;
    for (const Part& p : parts_) total += p.trace->sliceCount();
    parallelFor(order.size(), total > kParallelBuildMinSlices, [&](size_t n) {
        const TrackId i = order[n];
        if (i != globalTrack_) copyColumns(sources_[i], out_->tracks_[i]);
    });
    phases.mark("merge: columns");
    mergeGlobalInstants(layout);
    for (const Source& src : sources_)
        layout.partOfTrack.push_back(out_->tracks_[layout.partOfTrack.size()].kind ==
                                             TrackKind::GlobalInstants
                                         ? MergeLayout::kNoPart
                                         : parts_[src.part].index);
    copyFlows();
    listProcessesAndThreads();
    copyTheRest();
    mergeStackSamples();
    buildIdIndices(out_->tracks_, out_->extras_, out_->externalIds_,
                   out_->sliceCount_ > kParallelBuildMinSlices, out_->correlationIndex_,
                   out_->externalIndex_);
    out_->args_.shrink();
    phases.mark("merge: flows, ids");
    if (layoutOut) *layoutOut = std::move(layout);
    return std::shared_ptr<const Trace>(std::move(out_));
}

std::shared_ptr<const Trace> TraceSetMerger::shifted(const Trace& merged, MergeLayout& layout,
                                                     const std::vector<TimeNs>& shift) {
    auto out = std::make_unique<Trace>(merged);
    const auto by = [&](uint32_t part) { return part < shift.size() ? shift[part] : TimeNs(0); };
    bool any = false;
    TimeRange bounds{INT64_MAX, INT64_MIN};
    const auto see = [&](TimeNs start, TimeNs end) {
        bounds = {std::min(bounds.start, start), std::max(bounds.end, end)};
        any = true;
    };
    for (TrackId i = 0; i < out->tracks_.size(); ++i) {
        Track& t = out->tracks_[i];
        if (t.kind == TrackKind::GlobalInstants) {
            InstantColumns& in = t.instants;
            std::vector<uint32_t> order(in.size());
            std::iota(order.begin(), order.end(), 0u);
            for (size_t k = 0; k < in.size(); ++k) in.ts[k] += by(layout.partOfGlobalInstant[k]);
            std::stable_sort(order.begin(), order.end(),
                             [&](uint32_t a, uint32_t b) { return in.ts[a] < in.ts[b]; });
            InstantColumns sorted;
            std::vector<uint32_t> partOf;
            for (uint32_t k : order) {
                sorted.ts.push_back(in.ts[k]);
                sorted.name.push_back(in.name[k]);
                sorted.category.push_back(in.category[k]);
                sorted.args.push_back(in.args[k]);
                partOf.push_back(layout.partOfGlobalInstant[k]);
            }
            in = std::move(sorted);
            layout.partOfGlobalInstant = std::move(partOf);
        } else {
            const TimeNs d = by(layout.partOfTrack[i]);
            for (TimeNs& ts : t.slices.start) ts += d;
            for (TimeNs& ts : t.counter.ts) ts += d;
            for (TimeNs& ts : t.instants.ts) ts += d;
        }
        for (size_t k = 0; k < t.slices.size(); ++k) see(t.slices.start[k], t.slices.end(k));
        if (t.counter.size()) see(t.counter.ts.front(), t.counter.ts.back());
        if (t.instants.size()) see(t.instants.ts.front(), t.instants.ts.back());
    }
    shiftStackSamples(
        out->stackSamples_, out->tracks_,
        [&](TrackId lane) { return by(layout.partOfTrack[lane]); }, see);
    out->bounds_ = any ? bounds : TimeRange{};
    return std::shared_ptr<const Trace>(std::move(out));
}

std::shared_ptr<const Trace> shiftMergedParts(const Trace& merged, MergeLayout& layout,
                                              const std::vector<TimeNs>& shift) {
    return TraceSetMerger::shifted(merged, layout, shift);
}

LoadResult mergeTraceSet(const std::vector<TracePart>& parts, const std::string& name,
                         MergeLayout* layout) {
    LoadResult r;
    try {
        r.trace = TraceSetMerger(parts).run(layout);
    } catch (const std::bad_alloc&) {
        r.error =
            LoadError{name, LoadError::kInMessage, 0, "the set could not be merged: out of memory"};
    }
    return r;
}

} // namespace strata
