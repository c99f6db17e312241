#include "io/formats/perfetto/pftrace_file.h"

#include "perfetto_trace.pb.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include <charconv>
#include <map>
#include <unordered_map>
#include <vector>

namespace strata {

namespace {

namespace pb = strata::perfetto;
using google::protobuf::io::CodedInputStream;

struct TrackInfo {
    TrackId track = UINT32_MAX;
    bool counter = false;
};

struct OpenSlice {
    TimeNs start = 0;
    pb::TrackEvent begin;
};

// Each packet of the file in turn (Trace.packet, field 1), its bytes handed to `f`, which says
// whether it could read them; a packet that is torn or cannot be read ends the reading.
template <class F>
bool eachPacket(std::string_view bytes, TraceBuilder& b, std::string* error, F&& f) {
    CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()), int(bytes.size()));
    in.SetTotalBytesLimit(int(std::min<size_t>(bytes.size(), size_t(INT32_MAX))));
    size_t packets = 0;
    while (true) {
        const int at = in.CurrentPosition();
        const uint32_t tag = in.ReadTag();
        if (tag == 0) break;
        uint32_t length = 0;
        bool ok = tag == 0x0a && in.ReadVarint32(&length) &&
                  length <= uint32_t(bytes.size() - size_t(in.CurrentPosition()));
        if (ok) {
            ok = f(bytes.substr(size_t(in.CurrentPosition()), length));
            in.Skip(int(length));
        }
        if (!ok) {
            if (packets == 0) {
                *error = "not a Perfetto trace: the packet at byte " + std::to_string(at) +
                         " is torn or not a TracePacket";
                return false;
            }
            b.addWarning("pftrace: reading stopped at byte " + std::to_string(at) +
                         " (a torn packet); the " + std::to_string(packets) +
                         " packets before it are kept");
            break;
        }
        ++packets;
    }
    return true;
}

class PftraceReader {
public:
    explicit PftraceReader(TraceBuilder& b) : b_(b) {}

    // The packet's track descriptor, if any, read alone (the other fields skipped unparsed: the
    // events are parsed once, by the second pass).
    bool describe(std::string_view packet) {
        CodedInputStream in(reinterpret_cast<const uint8_t*>(packet.data()), int(packet.size()));
        while (const uint32_t tag = in.ReadTag()) {
            if (tag != (60u << 3 | 2)) {
                if (!google::protobuf::internal::WireFormatLite::SkipField(&in, tag)) return false;
                continue;
            }
            uint32_t length = 0;
            pb::TrackDescriptor d;
            if (!in.ReadVarint32(&length)) return false;
            const auto limit = in.PushLimit(int(length));
            const bool ok = d.ParseFromCodedStream(&in) && in.ConsumedEntireMessage();
            in.PopLimit(limit);
            if (!ok) return false;
            descriptors_[d.uuid()] = std::move(d);
        }
        return true;
    }

    // A timestamp in BOOTTIME: from the packet's clock (its own, the sequence's default, or
    // BOOTTIME) through the clock snapshots seen.
    TimeNs time(const pb::TracePacket& p, uint32_t seq) {
        const uint32_t clock = p.has_timestamp_clock_id() ? p.timestamp_clock_id()
                               : clockOf_.count(seq)      ? clockOf_[seq]
                                                          : 6;
        const auto off = toBoot_.find({clock >= 64 ? seq : 0, clock});
        return TimeNs(p.timestamp()) + (off != toBoot_.end() ? off->second : 0);
    }

    void clocks(const pb::TracePacket& p, uint32_t seq) {
        if (p.has_trace_packet_defaults() && p.trace_packet_defaults().has_timestamp_clock_id())
            clockOf_[seq] = p.trace_packet_defaults().timestamp_clock_id();
        if (!p.has_clock_snapshot()) return;
        int64_t boot = 0;
        bool haveBoot = false;
        for (const auto& c : p.clock_snapshot().clocks())
            if (c.clock_id() == 6) boot = int64_t(c.timestamp()), haveBoot = true;
        if (!haveBoot) return;
        for (const auto& c : p.clock_snapshot().clocks())
            if (c.clock_id() != 6 && !c.is_incremental())
                toBoot_[{c.clock_id() >= 64 ? seq : 0, c.clock_id()}] =
                    boot - int64_t(c.timestamp());
    }

    void event(const pb::TracePacket& p) {
        const uint32_t seq = p.trusted_packet_sequence_id();
        clocks(p, seq);
        if (p.sequence_flags() & 1) interned_[seq] = {};
        if (p.has_interned_data()) intern(interned_[seq], p.interned_data());
        if (!p.has_track_event()) {
            if (!p.has_track_descriptor() && !p.has_interned_data() && !p.has_clock_snapshot() &&
                !p.has_trace_packet_defaults() && p.ByteSizeLong() > 8)
                ++other_;
            return;
        }
        const pb::TrackEvent& e = p.track_event();
        const TimeNs ts = time(p, seq);
        const TrackInfo t = track(e.track_uuid());
        switch (e.type()) {
        case pb::TrackEvent::TYPE_SLICE_BEGIN:
            open_[e.track_uuid()].push_back({ts, e});
            break;
        case pb::TrackEvent::TYPE_SLICE_END:
            close(e.track_uuid(), t, ts, seq);
            break;
        case pb::TrackEvent::TYPE_INSTANT:
            b_.addInstant(t.track, ts, name(e, seq), category(e, seq), args(e, seq, nullptr));
            break;
        case pb::TrackEvent::TYPE_COUNTER:
            b_.addCounter(t.track, ts,
                          e.has_double_counter_value() ? e.double_counter_value()
                                                       : double(e.counter_value()));
            break;
        default:
            ++other_;
            break;
        }
    }

    void finish() {
        size_t open = 0;
        for (const auto& [uuid, stack] : open_) open += stack.size();
        if (open)
            b_.addWarning("pftrace: " + std::to_string(open) +
                          " slices begun and never ended (not shown)");
        if (other_)
            b_.addWarning("pftrace: " + std::to_string(other_) +
                          " packets of kinds Strata does not show (not TrackEvent)");
    }

private:
    struct Interned {
        std::unordered_map<uint64_t, StringId> names, categories, argNames;
    };

    void intern(Interned& in, const pb::InternedData& d) {
        for (const auto& x : d.event_names()) in.names[x.iid()] = b_.intern(x.name());
        for (const auto& x : d.event_categories()) in.categories[x.iid()] = b_.intern(x.name());
        for (const auto& x : d.debug_annotation_names()) in.argNames[x.iid()] = b_.intern(x.name());
    }

    StringId lookup(const std::unordered_map<uint64_t, StringId>& table, uint64_t iid) {
        const auto it = table.find(iid);
        if (it != table.end()) return it->second;
        ++unresolved_;
        return b_.intern("");
    }

    StringId name(const pb::TrackEvent& e, uint32_t seq) {
        if (e.has_name()) return b_.intern(e.name());
        return e.has_name_iid() ? lookup(interned_[seq].names, e.name_iid()) : b_.intern("");
    }
    StringId category(const pb::TrackEvent& e, uint32_t seq) {
        if (e.categories_size()) return b_.intern(e.categories(0));
        return e.category_iids_size() ? lookup(interned_[seq].categories, e.category_iids(0)) : 0;
    }

    // The event's debug annotations as args; Kineto's GPU names also into `gpu` (and its
    // correlation and External id).
    ArgSetId args(const pb::TrackEvent& e, uint32_t seq, SliceInput* in,
                  GpuActivity* gpu = nullptr) {
        if (!e.debug_annotations_size()) return kNoArgs;
        b_.args().begin();
        for (const pb::DebugAnnotation& a : e.debug_annotations()) {
            const StringId key =
                a.has_name() ? b_.intern(a.name()) : lookup(interned_[seq].argNames, a.name_iid());
            const std::string_view k = b_.strings().view(key);
            const int64_t v = a.has_int_value() ? a.int_value() : int64_t(a.uint_value());
            if (in && k == "correlation") in->correlation = v;
            if (in && k == "External id") in->externalId = v;
            if (gpu) readGpu(k, a, v, *gpu);
            if (a.has_bool_value())
                b_.args().addBool(key, a.bool_value());
            else if (a.has_int_value())
                b_.args().addInt(key, a.int_value());
            else if (a.has_uint_value())
                b_.args().addUInt(key, a.uint_value());
            else if (a.has_double_value())
                b_.args().addDouble(key, a.double_value());
            else
                b_.args().addString(key, a.string_value());
        }
        return b_.args().finish();
    }

    static void triple(const std::string& text, std::array<int32_t, 3>& out) {
        const char* p = text.data();
        const char* end = p + text.size();
        for (int d = 0; d < 3 && p < end; ++d) {
            while (p < end && (*p < '0' || *p > '9')) ++p;
            p = std::from_chars(p, end, out[d]).ptr;
        }
    }
    static void readGpu(std::string_view k, const pb::DebugAnnotation& a, int64_t v,
                        GpuActivity& g) {
        if (k == "device")
            g.device = int32_t(v);
        else if (k == "stream")
            g.stream = v;
        else if (k == "registers per thread")
            g.registersPerThread = int32_t(v);
        else if (k == "bytes")
            g.bytes = v;
        else if (k == "grid")
            triple(a.string_value(), g.grid);
        else if (k == "block")
            triple(a.string_value(), g.block);
    }

    void close(uint64_t uuid, const TrackInfo& t, TimeNs end, uint32_t seq) {
        auto& stack = open_[uuid];
        if (stack.empty()) {
            ++unmatchedEnds_;
            return;
        }
        const OpenSlice s = std::move(stack.back());
        stack.pop_back();
        SliceInput in;
        in.start = s.start;
        in.dur = end - s.start;
        in.name = name(s.begin, seq);
        in.category = category(s.begin, seq);
        in.kind = in.category ? sliceKindFromCategory(b_.strings().view(in.category))
                              : SliceKind::Generic;
        const bool onGpu = isGpuKind(in.kind);
        GpuActivity g;
        in.args = args(s.begin, seq, &in, onGpu ? &g : nullptr);
        if (onGpu) in.gpu = &g;
        const PendingSlice ps = b_.addSlice(t.track, in);
        for (uint64_t id : s.begin.flow_ids()) b_.addFlowV2(ps, id, false, true);
        for (uint64_t id : s.begin.terminating_flow_ids()) b_.addFlowV2(ps, id, true, false);
    }

    // The Strata track of a descriptor's uuid (made on first use).
    TrackInfo track(uint64_t uuid) {
        const auto have = tracks_.find(uuid);
        if (have != tracks_.end()) return have->second;
        TrackInfo t;
        const auto d = descriptors_.find(uuid);
        if (d == descriptors_.end()) {
            t.track = b_.asyncTrack(0, b_.intern("track " + std::to_string(uuid)), uuid);
            return tracks_[uuid] = t;
        }
        const pb::TrackDescriptor& td = d->second;
        const int64_t pid = processOf(td);
        const auto parent = descriptors_.find(td.parent_uuid());
        int device = -1;
        if (parent != descriptors_.end() && parent->second.name().starts_with("GPU ") &&
            td.name().starts_with("Stream "))
            device = std::atoi(parent->second.name().c_str() + 4);
        if (td.has_thread()) {
            t.track = b_.threadTrack(td.thread().pid(), td.thread().tid());
            if (td.thread().has_thread_name())
                b_.setThreadName(td.thread().pid(), td.thread().tid(),
                                 b_.intern(td.thread().thread_name()));
        } else if (device >= 0) {
            const int64_t stream = std::atoll(td.name().c_str() + 7);
            t.track = b_.gpuStreamTrack(device, stream, device, stream);
        } else if (td.has_counter()) {
            t.track = b_.counterTrack(pid, b_.intern(td.name()));
            t.counter = true;
        } else {
            t.track = b_.asyncTrack(pid, b_.intern(td.name()), uuid);
        }
        return tracks_[uuid] = t;
    }

    // The pid of the process a track lies under (named on the way), 0 for none.
    int64_t processOf(const pb::TrackDescriptor& td) {
        for (const pb::TrackDescriptor* d = &td; d;) {
            if (d->has_process()) {
                if (d->process().has_process_name())
                    b_.setProcessName(d->process().pid(), b_.intern(d->process().process_name()));
                return d->process().pid();
            }
            if (d->has_thread()) return d->thread().pid();
            const auto p = descriptors_.find(d->parent_uuid());
            d = d->parent_uuid() && p != descriptors_.end() ? &p->second : nullptr;
        }
        return 0;
    }

    TraceBuilder& b_;
    std::unordered_map<uint64_t, pb::TrackDescriptor> descriptors_;
    std::unordered_map<uint64_t, TrackInfo> tracks_;
    std::unordered_map<uint32_t, Interned> interned_;
    std::unordered_map<uint64_t, std::vector<OpenSlice>> open_;
    std::unordered_map<uint32_t, uint32_t> clockOf_;          // sequence -> default clock
    std::map<std::pair<uint32_t, uint32_t>, int64_t> toBoot_; // (sequence or 0, clock) -> offset
    uint64_t other_ = 0, unresolved_ = 0, unmatchedEnds_ = 0;

public:
    void say() {
        if (unresolved_)
            b_.addWarning("pftrace: " + std::to_string(unresolved_) +
                          " interned names used before they were defined (shown empty)");
        if (unmatchedEnds_)
            b_.addWarning("pftrace: " + std::to_string(unmatchedEnds_) +
                          " slice ends with no slice begun on their track (skipped)");
    }
};

} // namespace

bool looksLikePftrace(std::string_view head) {
    CodedInputStream in(reinterpret_cast<const uint8_t*>(head.data()), int(head.size()));
    uint32_t length = 0;
    if (in.ReadTag() != 0x0a || !in.ReadVarint32(&length)) return false;
    const uint32_t field = in.ReadTag() >> 3;
    return field == 8 || field == 10 || field == 11 || field == 12 || field == 13 || field == 60;
}

bool readPftrace(std::string_view bytes, TraceBuilder& builder, std::string* error) {
    PftraceReader reader(builder);
    // Descriptors first (a track may be described after its first events), then the events;
    // a torn packet is said once, by the second pass.
    TraceBuilder quiet;
    if (!eachPacket(bytes, quiet, error, [&](std::string_view p) { return reader.describe(p); }))
        return false;
    eachPacket(bytes, builder, error, [&](std::string_view packet) {
        pb::TracePacket p;
        if (!p.ParseFromArray(packet.data(), int(packet.size()))) return false;
        reader.event(p);
        return true;
    });
    reader.finish();
    reader.say();
    return true;
}

} // namespace strata
