#include "io/export/perfetto_proto_export.h"

#include "io/export/proto_out.h"
#include "model/names/cupti_names.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace strata {

namespace {

// Perfetto's field numbers (protos/perfetto/trace/...;
// core/io/formats/perfetto/perfetto_trace.proto).
namespace pf {
constexpr uint32_t kPacket = 1; // Trace.packet
constexpr uint32_t kTimestamp = 8, kSequenceId = 10, kTrackEvent = 11, kInterned = 12;
constexpr uint32_t kSequenceFlags = 13, kTrackDescriptor = 60;
constexpr uint32_t kClockSnapshot = 6, kPacketDefaults = 59, kTimestampClockId = 58;
constexpr uint32_t kClocks = 1, kClockId = 1, kClockTimestamp = 2;
constexpr uint64_t kOwnClock = 64, kBootTime = 6; // a sequence-scoped clock; BOOTTIME
constexpr uint32_t kUuid = 1, kTrackName = 2, kProcess = 3, kThread = 4, kParent = 5, kCounter = 8;
constexpr uint32_t kPid = 1, kTid = 2, kProcessName = 6, kThreadName = 5;
constexpr uint32_t kCategoryIids = 3, kAnnotations = 4, kType = 9, kNameIid = 10, kTrackUuid = 11;
constexpr uint32_t kDoubleCounter = 44, kFlowIds = 47, kTerminatingFlowIds = 48;
constexpr uint32_t kAnnName = 1, kBool = 2, kUint = 3, kInt = 4, kDouble = 5, kString = 6;
constexpr uint32_t kInternCategories = 1, kInternNames = 2, kInternAnnotationNames = 3;
constexpr uint32_t kIid = 1, kInternName = 2;
enum Type : uint64_t { kBegin = 1, kEnd = 2, kInstant = 3, kCounterValue = 4 };
constexpr uint64_t kSeqCleared = 1, kSeqNeedsState = 2;
constexpr uint64_t kSequence = 1;
} // namespace pf

uint64_t key(SliceRef r) {
    return uint64_t(r.track) << 32 | r.index;
}

// A flow that leaves or ends at a slice of a track (by the slice's index).
struct FlowMark {
    SliceIndex index;
    bool terminating;
    uint64_t id;
};

class ProtoExporter {
public:
    ProtoExporter(const Trace& t, ExportSink& sink) : t_(t), sink_(sink) {
        // From the trace's start: Perfetto shows times so, and small varints keep the file small.
        shift_ = -t.bounds().start;
        const size_t n = t.strings().size();
        nameIid_.assign(n, 0);
        categoryIid_.assign(n, 0);
        argIid_.assign(n, 0);
    }

    PerfettoProtoResult run() {
        // Times on a clock of the sequence's own that starts at the trace's start, mapped onto
        // BOOTTIME at the trace's absolute start: small varints in the file, absolute times in
        // Perfetto. (A trace that starts before 0 keeps its times from the start.)
        ProtoOut first, defaults, snapshot, own, boot;
        first.uint(pf::kSequenceId, pf::kSequence);
        first.uint(pf::kSequenceFlags, pf::kSeqCleared);
        defaults.uint(pf::kTimestampClockId, pf::kOwnClock);
        first.message(pf::kPacketDefaults, defaults);
        packet(first);
        if (t_.bounds().start >= 0) {
            own.uint(pf::kClockId, pf::kOwnClock);
            own.uint(pf::kClockTimestamp, 0);
            boot.uint(pf::kClockId, pf::kBootTime);
            boot.uint(pf::kClockTimestamp, uint64_t(t_.bounds().start));
            snapshot.message(pf::kClocks, own);
            snapshot.message(pf::kClocks, boot);
            ProtoOut p;
            p.uint(pf::kSequenceId, pf::kSequence);
            p.message(pf::kClockSnapshot, snapshot);
            packet(p);
        }
        collectFlows();
        describeTracks();
        for (TrackId ti = 0; ti < t_.tracks().size(); ++ti) writeTrack(ti);
        flush();
        r_.ok = ok_;
        if (!ok_) r_.error = sink_.error();
        return r_;
    }

private:
    void packet(const ProtoOut& p) {
        out_.message(pf::kPacket, p);
        ++r_.packets;
        if (out_.size() >= (4u << 20)) flush();
    }
    void flush() {
        if (ok_ && out_.size()) ok_ = sink_.write(out_.bytes());
        r_.bytes += out_.size();
        out_.clear();
    }

    // The iid of a name in one of the interned tables; new names are added to `interned`.
    // The iid of one of the trace's strings in one interned table (`iids` by StringId, `next`
    // the table's count); a new one is added to `interned`.
    uint64_t intern(std::vector<uint64_t>& iids, uint64_t& next, uint32_t field, StringId id,
                    ProtoOut& interned) {
        if (!iids[id]) {
            iids[id] = ++next;
            entry_.clear();
            entry_.uint(pf::kIid, iids[id]);
            entry_.text(pf::kInternName, t_.str(id));
            interned.message(field, entry_);
        }
        return iids[id];
    }
    // An annotation name that is a literal ("device", ...), in the same table as the args'.
    uint64_t internLiteral(std::string_view name, ProtoOut& interned) {
        const auto [it, added] = literalIid_.try_emplace(name, 0);
        if (added) {
            it->second = ++argCount_;
            entry_.clear();
            entry_.uint(pf::kIid, it->second);
            entry_.text(pf::kInternName, name);
            interned.message(pf::kInternAnnotationNames, entry_);
        }
        return it->second;
    }

    void collectFlows() {
        uint64_t id = 0;
        flows_.assign(t_.tracks().size(), {});
        const auto mark = [&](SliceRef from, SliceRef to) {
            ++id;
            flows_[from.track].push_back(FlowMark{from.index, false, id});
            flows_[to.track].push_back(FlowMark{to.index, true, id});
        };
        std::unordered_set<uint64_t> linked; // ops a trace flow already links to their launch
        for (const Flow& f : t_.flows()) {
            mark(f.from, f.to);
            if (t_.launchOf(f.to) == f.from) linked.insert(key(f.to));
        }
        for (TrackId ti = 0; ti < t_.tracks().size(); ++ti) {
            const Track& track = t_.track(ti);
            if (track.kind != TrackKind::GpuStream) continue;
            for (SliceIndex i = 0; i < track.slices.size(); ++i) {
                const SliceRef launch = t_.launchOf(SliceRef{ti, i});
                if (!launch.valid() || t_.track(launch.track).kind != TrackKind::Thread ||
                    linked.count(key(SliceRef{ti, i})))
                    continue;
                mark(launch, SliceRef{ti, i});
            }
        }
        for (std::vector<FlowMark>& marks : flows_)
            std::stable_sort(marks.begin(), marks.end(), [](const FlowMark& a, const FlowMark& b) {
                return a.index < b.index;
            });
        r_.flows = id;
    }

    int64_t shownPid(int64_t pid) const {
        const Process* p = t_.process(pid);
        const int64_t shown = p ? p->shownPid() : pid;
        return shown > 0 && shown <= INT32_MAX ? shown : (int64_t(1) << 30) + (shown & 0xFFFFFF);
    }

    uint64_t processTrack(int64_t pid) {
        const auto it = processUuid_.find(pid);
        if (it != processUuid_.end()) return it->second;
        const uint64_t uuid = ++uuids_;
        processUuid_[pid] = uuid;
        ProtoOut pd, td, p;
        pd.sint(pf::kPid, shownPid(pid));
        if (const Process* proc = t_.process(pid); proc && proc->name)
            pd.text(pf::kProcessName, t_.str(proc->name));
        td.uint(pf::kUuid, uuid);
        td.message(pf::kProcess, pd);
        p.message(pf::kTrackDescriptor, td);
        packet(p);
        ++r_.tracks;
        return uuid;
    }

    uint64_t deviceTrack(int32_t device) {
        const auto it = deviceUuid_.find(device);
        if (it != deviceUuid_.end()) return it->second;
        std::string name = "GPU " + std::to_string(device);
        for (const DeviceInfo& d : t_.devices())
            if (d.id == device && !d.name.empty()) name += " (" + d.name + ")";
        const uint64_t uuid = named(name, 0);
        deviceUuid_[device] = uuid;
        return uuid;
    }

    uint64_t named(const std::string& name, uint64_t parent, bool counter = false) {
        const uint64_t uuid = ++uuids_;
        ProtoOut td, p;
        td.uint(pf::kUuid, uuid);
        if (parent) td.uint(pf::kParent, parent);
        td.text(pf::kTrackName, name);
        if (counter) td.message(pf::kCounter, ProtoOut());
        p.message(pf::kTrackDescriptor, td);
        packet(p);
        ++r_.tracks;
        return uuid;
    }

    void describeTracks() {
        trackUuid_.assign(t_.tracks().size(), 0);
        for (TrackId ti = 0; ti < t_.tracks().size(); ++ti) {
            const Track& tr = t_.track(ti);
            switch (tr.kind) {
            case TrackKind::Thread:
                trackUuid_[ti] = threadTrack(tr);
                break;
            case TrackKind::GpuStream:
                trackUuid_[ti] =
                    named("Stream " + std::to_string(tr.tid) +
                              (tr.lane ? " (lane " + std::to_string(tr.lane) + ")" : ""),
                          deviceTrack(tr.device));
                break;
            case TrackKind::Counter:
                trackUuid_[ti] = named(std::string(t_.str(tr.name)), processTrack(tr.pid), true);
                break;
            case TrackKind::Async:
                trackUuid_[ti] = named(std::string(t_.str(tr.name)), processTrack(tr.pid));
                break;
            case TrackKind::ProcessInstants:
                trackUuid_[ti] = named("instants", processTrack(tr.pid));
                break;
            case TrackKind::GlobalInstants:
                trackUuid_[ti] = named("Global instants", 0);
                break;
            }
        }
    }

    uint64_t threadTrack(const Track& tr) {
        const uint64_t parent = processTrack(tr.pid);
        const Thread* th = t_.thread(tr.pid, tr.tid);
        const std::string name = th && th->name ? std::string(t_.str(th->name)) : std::string();
        if (tr.lane) // overlapping slices that do not nest: a track of their own
            return named((name.empty() ? "thread " + std::to_string(tr.tid) : name) + " (lane " +
                             std::to_string(tr.lane) + ")",
                         parent);
        const uint64_t uuid = ++uuids_;
        ProtoOut thd, td, p;
        thd.sint(pf::kPid, shownPid(tr.pid));
        thd.sint(pf::kTid, th ? th->shownTid() : tr.tid);
        if (!name.empty()) thd.text(pf::kThreadName, name);
        td.uint(pf::kUuid, uuid);
        td.uint(pf::kParent, parent);
        td.message(pf::kThread, thd);
        p.message(pf::kTrackDescriptor, td);
        packet(p);
        ++r_.tracks;
        return uuid;
    }

    // `key`: the arg's name in the trace's strings, else `literal`.
    void annotate(ProtoOut& ev, ProtoOut& interned, StringId key, std::string_view literal,
                  const ArgValue& v) {
        ProtoOut& a = ev;
        const size_t at = a.begin(pf::kAnnotations);
        a.uint(pf::kAnnName, literal.empty() ? intern(argIid_, argCount_,
                                                      pf::kInternAnnotationNames, key, interned)
                                             : internLiteral(literal, interned));
        switch (v.type) {
        case ArgValue::Type::Bool:
            a.uint(pf::kBool, v.b);
            break;
        case ArgValue::Type::Int:
            a.sint(pf::kInt, v.i);
            break;
        case ArgValue::Type::UInt:
            a.uint(pf::kUint, v.u);
            break;
        case ArgValue::Type::Double:
            a.real(pf::kDouble, v.d);
            break;
        case ArgValue::Type::Null:
            a.text(pf::kString, "null");
            break;
        default:
            a.text(pf::kString, v.s);
            break;
        }
        a.end(at);
    }
    void annotateInt(ProtoOut& ev, ProtoOut& interned, std::string_view name, int64_t v) {
        ArgValue a;
        a.type = ArgValue::Type::Int;
        a.i = v;
        annotate(ev, interned, 0, name, a);
    }
    void annotateText(ProtoOut& ev, ProtoOut& interned, std::string_view name, std::string s) {
        ArgValue a;
        a.type = ArgValue::Type::String;
        a.s = std::move(s);
        annotate(ev, interned, 0, name, a);
    }

    // GPU activity, correlation and External id with Kineto's names, then the slice's own args.
    void sliceArgs(ProtoOut& ev, ProtoOut& interned, SliceRef r) {
        if (const GpuActivity* g = t_.gpu(r)) {
            annotateInt(ev, interned, "device", g->device);
            annotateInt(ev, interned, "stream", g->stream);
            const auto triple = [](const std::array<int32_t, 3>& v) {
                return "[" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " +
                       std::to_string(v[2]) + "]";
            };
            if (g->grid[0]) annotateText(ev, interned, "grid", triple(g->grid));
            if (g->block[0]) annotateText(ev, interned, "block", triple(g->block));
            if (g->registersPerThread >= 0)
                annotateInt(ev, interned, "registers per thread", g->registersPerThread);
            if (g->bytes >= 0) annotateInt(ev, interned, "bytes", g->bytes);
        }
        if (const SliceExtra* e = t_.extra(r); e && e->correlation >= 0)
            annotateInt(ev, interned, "correlation", e->correlation);
        if (const int64_t x = t_.externalId(r); x >= 0) annotateInt(ev, interned, "External id", x);
        const ArgSetId set = t_.track(r.track).slices.args[r.index];
        if (set == kNoArgs) return;
        for (const Arg& a : t_.args(set)) annotate(ev, interned, a.key, {}, a.value);
    }

    // One TrackEvent packet, written in place; `flows` the slice's flow marks (begin only).
    void event(uint64_t track, TimeNs ts, pf::Type type, SliceRef slice, StringId name,
               StringId category, const FlowMark* flows = nullptr, size_t flowCount = 0,
               ArgSetId instantArgs = kNoArgs) {
        ProtoOut& ev = out_;
        interned_.clear();
        const size_t packetAt = out_.begin(pf::kPacket);
        out_.uint(pf::kTimestamp, uint64_t(ts + shift_));
        out_.uint(pf::kSequenceId, pf::kSequence);
        out_.uint(pf::kSequenceFlags, pf::kSeqNeedsState);
        const size_t eventAt = out_.begin(pf::kTrackEvent);
        ev.uint(pf::kType, type);
        ev.uint(pf::kTrackUuid, track);
        if (type != pf::kEnd) {
            ev.uint(pf::kNameIid, intern(nameIid_, nameCount_, pf::kInternNames, name, interned_));
            if (category)
                ev.uint(pf::kCategoryIids, intern(categoryIid_, categoryCount_,
                                                  pf::kInternCategories, category, interned_));
        }
        if (type == pf::kBegin) {
            for (size_t k = 0; k < flowCount; ++k)
                ev.fixed64(flows[k].terminating ? pf::kTerminatingFlowIds : pf::kFlowIds,
                           flows[k].id);
            sliceArgs(ev, interned_, slice);
        }
        if (type == pf::kInstant && instantArgs != kNoArgs)
            for (const Arg& a : t_.args(instantArgs)) annotate(ev, interned_, a.key, {}, a.value);
        out_.end(eventAt);
        // Field order is free in protobuf: the names first seen here follow the event.
        if (interned_.size()) out_.message(pf::kInterned, interned_);
        out_.end(packetAt);
        ++r_.packets;
        if (out_.size() >= (4u << 20)) flush();
    }

    void writeTrack(TrackId ti) {
        const Track& tr = t_.track(ti);
        const uint64_t uuid = trackUuid_[ti];
        const SliceColumns& s = tr.slices;
        std::vector<TimeNs> open; // ends of the slices open, innermost last
        const std::vector<FlowMark>& marks = flows_[ti];
        size_t m = 0;
        for (SliceIndex i = 0; i < s.size(); ++i) {
            while (!open.empty() && open.back() <= s.start[i]) {
                event(uuid, open.back(), pf::kEnd, {}, 0, 0);
                open.pop_back();
            }
            const size_t first = m;
            while (m < marks.size() && marks[m].index == i) ++m;
            event(uuid, s.start[i], pf::kBegin, SliceRef{ti, i}, s.name[i], s.category[i],
                  marks.data() + first, m - first);
            open.push_back(std::max(s.end(i), s.start[i]));
            ++r_.slices;
        }
        while (!open.empty()) {
            event(uuid, open.back(), pf::kEnd, {}, 0, 0);
            open.pop_back();
        }
        const InstantColumns& in = tr.instants;
        for (uint32_t i = 0; i < in.size(); ++i) {
            event(uuid, in.ts[i], pf::kInstant, {}, in.name[i], in.category[i], nullptr, 0,
                  in.args[i]);
            ++r_.instants;
        }
        for (uint32_t i = 0; i < tr.counter.size(); ++i) {
            ProtoOut ev, p;
            ev.uint(pf::kType, pf::kCounterValue);
            ev.uint(pf::kTrackUuid, uuid);
            ev.real(pf::kDoubleCounter, tr.counter.value[i]);
            p.uint(pf::kTimestamp, uint64_t(tr.counter.ts[i] + shift_));
            p.uint(pf::kSequenceId, pf::kSequence);
            p.uint(pf::kSequenceFlags, pf::kSeqNeedsState);
            p.message(pf::kTrackEvent, ev);
            packet(p);
            ++r_.counterSamples;
        }
    }

    const Trace& t_;
    ExportSink& sink_;
    ProtoOut out_;
    PerfettoProtoResult r_;
    bool ok_ = true;
    TimeNs shift_ = 0;
    uint64_t uuids_ = 0;
    std::vector<uint64_t> trackUuid_;
    std::map<int64_t, uint64_t> processUuid_;
    std::map<int32_t, uint64_t> deviceUuid_;
    std::vector<uint64_t> nameIid_, categoryIid_, argIid_; // by StringId, 0: not yet
    uint64_t nameCount_ = 0, categoryCount_ = 0, argCount_ = 0;
    std::unordered_map<std::string_view, uint64_t> literalIid_;
    ProtoOut interned_, entry_;                // scratch, reused for every event
    std::vector<std::vector<FlowMark>> flows_; // per track, by slice index
};

} // namespace

PerfettoProtoResult writePerfettoProto(const Trace& trace, ExportSink& sink) {
    return ProtoExporter(trace, sink).run();
}

PerfettoProtoResult exportPerfettoProto(const Trace& trace, const std::string& path) {
    std::string error;
    std::unique_ptr<ExportSink> sink = openExportSink(path, false, &error);
    if (!sink) {
        PerfettoProtoResult r;
        r.error = error;
        return r;
    }
    PerfettoProtoResult r = writePerfettoProto(trace, *sink);
    if (r.ok && !sink->commit()) {
        r.ok = false;
        r.error = sink->error();
    }
    if (!r.ok) sink->abort();
    return r;
}

} // namespace strata
