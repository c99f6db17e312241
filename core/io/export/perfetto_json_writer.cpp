#include "io/export/perfetto_json_writer.h"

#include "model/names/track_names.h"

#include "io/export/perfetto_json_parts.h"
#include "io/export/perfetto_notes.h"
#include "io/export/perfetto_sections.h"
#include "io/export/perfetto_stack_samples.h"
#include "io/set/part_ids.h"

#include <algorithm>
#include <vector>

namespace strata {

double perfettoProgressUnits(const Trace& t) {
    double n = double(sectionSampleCount(t));
    for (const Track& tr : t.tracks())
        n += double(tr.slices.size() + tr.counter.size() + tr.instants.size());
    return n;
}

namespace {

struct Link {
    SliceRef from, to;
    std::string_view category, name;
};

struct Bind {
    uint64_t id = 0;
    bool out = false;
};

class Writer {
public:
    Writer(const Trace& t, JsonOut& out, const PerfettoExportOptions& o, PerfettoExportResult& r,
           PerfettoFileState& file)
        : t_(t), out_(out), o_(o), r_(r), file_(file), ids_(t) {}
    // One trace of several in the file (io/set/part_ids.h).
    Writer(const Trace& t, JsonOut& out, const PerfettoExportOptions& o, PerfettoExportResult& r,
           PerfettoFileState& file, PartIdSpace& space, const std::string& label, int32_t sortBase)
        : t_(t), out_(out), o_(o), r_(r), file_(file), ids_(t, space, label, sortBase),
          asyncSalt_(uint64_t(uint32_t(sortBase)) << 24) {}

    bool run() {
        // Timestamps as recorded (absolute), so the file lines up with other traces of the run.
        file_.total += perfettoProgressUnits(t_);
        writePerfettoHeader(out_, t_, o_);
        if (!events(0)) return false;
        if (!o_.notes.empty()) {
            const int64_t pid = ids_.processes().empty() ? 1 : ids_.processes().front().pid;
            r_.notes +=
                writePerfettoNotes(out_, o_.notes, pid, 0, o_.range, [this] { beginEvent(); });
        }
        out_.raw("\n]");
        writePerfettoStackSamples(out_, t_, ids_, o_.range); // (a set's file: not yet)
        out_.raw("}\n");
        out_.flush();
        return true;
    }

    // The trace's events, with `origin` (in its own clock) written as time 0: 0 for one trace
    // (absolute time), minus its offset for a trace of a set.
    bool events(TimeNs origin) {
        origin_ = origin;
        metadataEvents();
        planFlows();
        for (TrackId i = 0; i < t_.tracks().size(); ++i) {
            if (!slices(i) || !counters(i) || !instants(i)) return false;
        }
        const SectionEventSink sink{[this] { beginEvent(); }, [this](size_t n) { return tick(n); }};
        if (!writeSectionSlices(out_, t_, ids_, origin_, o_.range, sink, r_)) return false;
        v1Flows();
        r_.overlapThreads += ids_.overlapThreads();
        return true;
    }

private:
    bool included(const Track& tr, SliceIndex i) const {
        if (!o_.range) return true;
        const TimeNs s = tr.slices.start[i], e = s + tr.slices.dur[i];
        if (tr.slices.dur[i] == 0) return s >= o_.range->start && s < o_.range->end;
        return s < o_.range->end && e > o_.range->start;
    }
    bool included(SliceRef r) const { return included(t_.track(r.track), r.index); }
    bool tick(size_t units) {
        file_.done += double(units);
        if (file_.done - file_.lastReport < 65536) return true;
        file_.lastReport = file_.done;
        if (o_.progress && !o_.progress(file_.total > 0 ? file_.done / file_.total : 1.0)) {
            r_.cancelled = true;
            return false;
        }
        return !out_.failed();
    }
    void beginEvent() {
        out_.raw(file_.first ? "\n" : ",\n");
        file_.first = false;
        ++r_.events;
    }

    // The start of a metadata event, up to its args' first key: {"ph": "M", "name": what, "pid":
    // pid[, "tid": tid], "args": {
    void metaHead(const char* what, int64_t pid, int64_t tid, bool withTid) {
        beginEvent();
        out_.raw("{\"ph\": \"M\", \"name\": \"");
        out_.raw(what);
        out_.raw("\", \"pid\": ");
        out_.i64(pid);
        if (withTid) {
            out_.raw(", \"tid\": ");
            out_.i64(tid);
        }
        out_.raw(", \"args\": {");
    }

    void metadataEvents() {
        for (const ExportProcess& p : ids_.processes()) {
            nameEvent("process_name", p.pid, 0, p.name, "strata_pid", p.original, p.unnamed);
            if (!p.label.empty()) meta("process_labels", p.pid, 0, "labels", p.label);
            metaHead("process_sort_index", p.pid, 0, false);
            out_.raw("\"sort_index\": ");
            out_.i64(p.sortIndex);
            out_.raw("}}");
        }
        for (const ExportThread& th : ids_.threads()) {
            nameEvent("thread_name", th.pid, th.tid, th.name, "strata_tid", th.original,
                      th.unnamed);
            metaHead("thread_sort_index", th.pid, th.tid, true);
            out_.raw("\"sort_index\": ");
            out_.i64(th.sortIndex);
            out_.raw("}}");
        }
    }
    // A process_name / thread_name event, with the id it replaces (`idKey`) and whether the name
    // is made up (io/set/part_ids.h).
    void nameEvent(const char* what, int64_t pid, int64_t tid, std::string_view name,
                   const char* idKey, std::optional<int64_t> original, bool unnamed) {
        metaHead(what, pid, tid, tid != 0);
        out_.raw("\"name\": ");
        out_.str(name);
        if (original) {
            out_.raw(", \"");
            out_.raw(idKey);
            out_.raw("\": ");
            out_.i64(*original);
        }
        if (unnamed) out_.raw(", \"strata_unnamed\": true");
        out_.raw("}}");
    }
    void meta(const char* what, int64_t pid, int64_t tid, const char* key, std::string_view v) {
        metaHead(what, pid, tid, tid != 0);
        out_.raw("\"");
        out_.raw(key);
        out_.raw("\": ");
        out_.str(v);
        out_.raw("}}");
    }

    // Which links become v2 bind ids on their slices, which v1 s/f pairs.
    void planFlows() {
        std::vector<Link> links;
        for (const Flow& f : t_.flows())
            if (f.from.valid() && f.to.valid() && included(f.from) && included(f.to))
                links.push_back({f.from, f.to, f.category ? t_.str(f.category) : "ac2g",
                                 f.name ? t_.str(f.name) : "ac2g"});
        const auto& tracks = t_.tracks();
        for (TrackId ti = 0; ti < tracks.size(); ++ti) {
            if (tracks[ti].kind != TrackKind::GpuStream) continue;
            const SliceColumns& s = tracks[ti].slices;
            for (SliceIndex i = 0; i < s.size(); ++i) {
                if (s.extra[i] == kNoExtra || !included(tracks[ti], i)) continue;
                const SliceRef op{ti, i};
                const SliceRef launch = t_.launchOf(op);
                if (!launch.valid() || !included(launch)) continue;
                bool linked = false;
                for (uint32_t fi : t_.flowsTo(op)) linked |= t_.flows()[fi].from == launch;
                if (!linked) links.push_back({launch, op, "ac2g", "ac2g"});
            }
        }
        // Per slice (flat, by track offset): how many links leave and arrive (saturating).
        base_.assign(tracks.size() + 1, 0);
        for (TrackId ti = 0; ti < tracks.size(); ++ti)
            base_[ti + 1] = base_[ti] + tracks[ti].slices.size();
        std::vector<uint8_t> outDeg(base_.back(), 0), inDeg(base_.back(), 0);
        for (const Link& l : links) {
            uint8_t& o = outDeg[flat(l.from)];
            uint8_t& n = inDeg[flat(l.to)];
            o = uint8_t(std::min(o + 1, 2));
            n = uint8_t(std::min(n + 1, 2));
        }
        bind_.assign(links.empty() ? 0 : base_.back(), Bind{});
        uint64_t& id = file_.flowId;
        for (const Link& l : links) {
            ++id;
            const size_t f = flat(l.from), t = flat(l.to);
            if (outDeg[f] == 1 && inDeg[f] == 0 && inDeg[t] == 1 && outDeg[t] == 0) {
                bind_[f] = {id, true};
                bind_[t] = {id, false};
            } else {
                v1_.push_back({l, id});
            }
        }
        r_.flows += links.size();
        r_.flowsV1 += v1_.size();
    }
    size_t flat(SliceRef r) const { return base_[r.track] + r.index; }

    void v1Flows() {
        for (const auto& [l, id] : v1_) {
            for (int end = 0; end < 2; ++end) {
                const SliceRef r = end ? l.to : l.from;
                beginEvent();
                out_.raw(end ? "{\"ph\": \"f\", \"bp\": \"e\", \"id\": "
                             : "{\"ph\": \"s\", \"id\": ");
                out_.u64(id);
                out_.raw(", \"cat\": ");
                out_.str(l.category);
                out_.raw(", \"name\": ");
                out_.str(l.name);
                out_.raw(", \"pid\": ");
                out_.i64(ids_.pid(r.track));
                out_.raw(", \"tid\": ");
                out_.i64(ids_.tid(r.track));
                out_.raw(", \"ts\": ");
                out_.micros(t_.start(r) - origin_);
                out_.raw("}");
            }
        }
    }

    std::string_view category(const SliceColumns& s, SliceIndex i) const {
        if (s.category[i]) return t_.str(s.category[i]);
        return s.kind[i] == SliceKind::Generic ? std::string_view() : sliceKindName(s.kind[i]);
    }

    bool slices(TrackId ti) {
        const Track& tr = t_.track(ti);
        const SliceColumns& s = tr.slices;
        if (s.size() == 0) return true;
        const bool async = tr.kind == TrackKind::Async;
        if (tr.kind != TrackKind::Thread && tr.kind != TrackKind::GpuStream && !async)
            return tick(s.size());
        const int64_t pid = ids_.pid(ti), tid = ids_.tid(ti);
        char asyncId[40] = {};
        if (async)
            std::snprintf(asyncId, sizeof asyncId, "\"0x%llx\"",
                          static_cast<unsigned long long>(tr.cookie ^ (uint64_t(tr.lane) << 56) ^
                                                          asyncSalt_));
        for (SliceIndex i = 0; i < s.size(); ++i) {
            if ((i & 4095) == 0 && !tick(i ? 4096 : 0)) return false;
            if (!included(tr, i)) continue;
            ++r_.slices;
            const std::string_view cat = category(s, i);
            if (async) {
                for (int end = 0; end < 2; ++end) {
                    beginEvent();
                    out_.raw(end ? "{\"ph\": \"e\"" : "{\"ph\": \"b\"");
                    if (!cat.empty()) {
                        out_.raw(", \"cat\": ");
                        out_.str(cat);
                    }
                    out_.raw(", \"name\": ");
                    out_.str(t_.str(s.name[i]));
                    out_.raw(", \"id\": ");
                    out_.raw(asyncId);
                    out_.raw(", \"pid\": ");
                    out_.i64(pid);
                    out_.raw(", \"ts\": ");
                    out_.micros(s.start[i] + (end ? s.dur[i] : 0) - origin_);
                    if (!end) writeSliceArgs(out_, t_, ids_, ti, i, o_.range, r_.edgeSlices);
                    out_.raw("}");
                }
                continue;
            }
            beginEvent();
            out_.raw("{\"ph\": \"X\"");
            if (!cat.empty()) {
                out_.raw(", \"cat\": ");
                out_.str(cat);
            }
            out_.raw(", \"name\": ");
            out_.str(t_.str(s.name[i]));
            out_.raw(", \"pid\": ");
            out_.i64(pid);
            out_.raw(", \"tid\": ");
            out_.i64(tid);
            out_.raw(", \"ts\": ");
            out_.micros(s.start[i] - origin_);
            out_.raw(", \"dur\": ");
            out_.micros(s.dur[i]);
            if (!bind_.empty()) {
                if (const Bind& bd = bind_[base_[ti] + i]; bd.id) {
                    out_.raw(", \"bind_id\": ");
                    out_.u64(bd.id);
                    out_.raw(bd.out ? ", \"flow_out\": true" : ", \"flow_in\": true");
                }
            }
            writeSliceArgs(out_, t_, ids_, ti, i, o_.range, r_.edgeSlices);
            out_.raw("}");
        }
        return tick(s.size() % 4096);
    }

    bool counters(TrackId ti) {
        const Track& tr = t_.track(ti);
        const CounterColumns& c = tr.counter;
        if (c.size() == 0) return true;
        // The loader names a counter "<name> <arg key>" (as Perfetto does): split at the last
        // space so that the name reads back the same; a name without one reads back as
        // "<name> value".
        std::string_view full = t_.str(tr.name);
        // A GPU metric row (`GPU <device> <metric>`) follows its device's id in the file, as the
        // window's merged set does (io/set/trace_set_merge.h).
        std::string renamed;
        if (const auto m = parseGpuCounterName(full); m && ids_.device(m->first) != m->first) {
            renamed = gpuCounterName(ids_.device(m->first), m->second);
            full = renamed;
        }
        const size_t sp = full.rfind(' ');
        const std::string_view base = sp == full.npos ? full : full.substr(0, sp);
        const std::string_view arg =
            sp == full.npos ? std::string_view("value") : full.substr(sp + 1);
        size_t first = 0, last = c.size();
        if (o_.range) {
            // Samples inside the range, and the one before it (the value at the range start).
            while (first < c.size() && c.ts[first] < o_.range->start) ++first;
            if (first > 0) --first;
            last = first;
            while (last < c.size() && c.ts[last] < o_.range->end) ++last;
        }
        const int64_t pid = ids_.pid(ti);
        for (size_t i = first; i < last; ++i) {
            if ((i & 4095) == 0 && !tick(4096)) return false;
            ++r_.counterSamples;
            beginEvent();
            out_.raw("{\"ph\": \"C\", \"name\": ");
            out_.str(base);
            out_.raw(", \"pid\": ");
            out_.i64(pid);
            out_.raw(", \"ts\": ");
            out_.micros(c.ts[i] - origin_);
            out_.raw(", \"args\": {");
            out_.str(arg);
            out_.raw(": ");
            out_.dbl(c.value[i]);
            out_.raw("}}");
        }
        return true;
    }

    bool instants(TrackId ti) {
        const Track& tr = t_.track(ti);
        const InstantColumns& in = tr.instants;
        if (in.size() == 0) return true;
        const char* scope = tr.kind == TrackKind::GlobalInstants    ? "g"
                            : tr.kind == TrackKind::ProcessInstants ? "p"
                                                                    : "t";
        const bool async = tr.kind == TrackKind::Async;
        for (size_t i = 0; i < in.size(); ++i) {
            if ((i & 4095) == 0 && !tick(4096)) return false;
            if (o_.range && (in.ts[i] < o_.range->start || in.ts[i] >= o_.range->end)) continue;
            ++r_.instants;
            beginEvent();
            out_.raw(async ? "{\"ph\": \"n\"" : "{\"ph\": \"i\", \"s\": \"");
            if (!async) {
                out_.raw(scope);
                out_.raw("\"");
            }
            if (in.category[i]) {
                out_.raw(", \"cat\": ");
                out_.str(t_.str(in.category[i]));
            }
            out_.raw(", \"name\": ");
            out_.str(t_.str(in.name[i]));
            out_.raw(", \"pid\": ");
            out_.i64(ids_.pid(ti));
            if (tr.kind == TrackKind::Thread || tr.kind == TrackKind::GpuStream) {
                out_.raw(", \"tid\": ");
                out_.i64(ids_.tid(ti));
            }
            if (async) {
                char id[40];
                std::snprintf(id, sizeof id, "\"0x%llx\"",
                              static_cast<unsigned long long>(
                                  tr.cookie ^ (uint64_t(tr.lane) << 56) ^ asyncSalt_));
                out_.raw(", \"id\": ");
                out_.raw(id);
            }
            out_.raw(", \"ts\": ");
            out_.micros(in.ts[i] - origin_);
            if (in.args[i] != kNoArgs) {
                bool open = false;
                for (const Arg& a : t_.args(in.args[i])) {
                    out_.raw(open ? ", " : ", \"args\": {");
                    open = true;
                    out_.str(t_.str(a.key));
                    out_.raw(": ");
                    writeArgValue(out_, a.value);
                }
                if (open) out_.raw("}");
            }
            out_.raw("}");
        }
        return true;
    }

    const Trace& t_;
    JsonOut& out_;
    const PerfettoExportOptions& o_;
    PerfettoExportResult& r_;
    PerfettoFileState& file_;
    PartIds ids_;
    uint64_t asyncSalt_ = 0; // a set's traces: async ids apart per trace
    TimeNs origin_ = 0;
    std::vector<size_t> base_; // first flat slice index of each track
    std::vector<Bind> bind_;   // by flat slice index; id 0 = none
    std::vector<std::pair<Link, uint64_t>> v1_;
};

} // namespace

bool writePerfettoTrace(const Trace& trace, JsonOut& out, const PerfettoExportOptions& options,
                        PerfettoExportResult& result, PerfettoFileState& file) {
    Writer w(trace, out, options, result, file);
    return w.run();
}

bool writePerfettoSetPart(const Trace& trace, JsonOut& out, const PerfettoExportOptions& options,
                          PerfettoExportResult& result, PerfettoFileState& file, PartIdSpace& space,
                          const std::string& label, int32_t sortBase, TimeNs origin) {
    Writer w(trace, out, options, result, file, space, label, sortBase);
    return w.events(origin);
}

} // namespace strata
