#include "io/formats/xplane/xplane_file.h"

#include "xplane.pb.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include <charconv>
#include <cstdio>

namespace strata {

namespace {

using strata::xplane::XEvent;
using strata::xplane::XLine;
using strata::xplane::XPlane;
using strata::xplane::XStat;

constexpr int64_t kHostPid = 1;

bool isApiCall(std::string_view n) {
    return n.starts_with("hip") || n.starts_with("cuda") || n.starts_with("cu");
}

// "... grid:11,16,2 block:256,1,1 ..." -> the three numbers after `key`.
bool triple(std::string_view text, std::string_view key, std::array<int32_t, 3>* out) {
    const size_t at = text.find(key);
    if (at == std::string_view::npos) return false;
    const char* p = text.data() + at + key.size();
    const char* end = text.data() + text.size();
    for (int d = 0; d < 3; ++d) {
        auto [next, ec] = std::from_chars(p, end, (*out)[d]);
        if (ec != std::errc()) return false;
        p = next + (next < end && *next == ',' ? 1 : 0);
    }
    return true;
}

class PlaneReader {
public:
    PlaneReader(const XPlane& plane, TraceBuilder& b) : plane_(plane), b_(b) {}

    void read() {
        const std::string& name = plane_.name();
        if (name == "/host:CPU") return readLines(-1);
        if (name.starts_with("/device:GPU:")) {
            const int device = std::atoi(name.c_str() + 12);
            addDevice(device);
            return readLines(device);
        }
        size_t events = 0;
        for (const XLine& l : plane_.lines()) events += size_t(l.events_size());
        if (events)
            b_.addWarning("xplane: plane \"" + name + "\" (" + std::to_string(events) +
                          " events) not shown by Strata");
    }

private:
    std::string_view statName(int64_t id) const {
        const auto it = plane_.stat_metadata().find(id);
        return it != plane_.stat_metadata().end() ? std::string_view(it->second.name())
                                                  : std::string_view();
    }
    std::string statText(const XStat& s) const {
        switch (s.value_case()) {
        case XStat::kStrValue:
            return s.str_value();
        case XStat::kRefValue:
            return std::string(statName(int64_t(s.ref_value())));
        case XStat::kInt64Value:
            return std::to_string(s.int64_value());
        case XStat::kUint64Value:
            return std::to_string(s.uint64_value());
        case XStat::kDoubleValue:
            return std::to_string(s.double_value());
        default:
            return {};
        }
    }

    void addDevice(int device) {
        DeviceInfo d;
        d.id = device;
        std::string vendor;
        for (const XStat& s : plane_.stats()) {
            const std::string_view n = statName(s.metadata_id());
            const int64_t v =
                s.value_case() == XStat::kUint64Value ? int64_t(s.uint64_value()) : s.int64_value();
            if (n == "device_vendor") vendor = statText(s);
            if (n == "core_count") d.smCount = int32_t(v);
            if (n == "memory_size") d.totalMemoryBytes = v;
            if (n == "compute_cap_major") d.computeMajor = int32_t(v);
            if (n == "compute_cap_minor") d.computeMinor = int32_t(v);
        }
        d.name = vendor.empty() ? "GPU " + std::to_string(device)
                                : vendor + " GPU " + std::to_string(device);
        b_.addDevice(d);
    }

    // `device` -1: the host's threads.
    void readLines(int device) {
        for (const XLine& line : plane_.lines()) {
            const std::string& label =
                line.display_name().empty() ? line.name() : line.display_name();
            TrackId track;
            if (device < 0) {
                track = b_.threadTrack(kHostPid, line.id());
                if (!label.empty()) b_.setThreadName(kHostPid, line.id(), b_.intern(label));
            } else {
                track = b_.gpuStreamTrack(device, line.id(), device, line.id());
            }
            for (const XEvent& e : line.events()) addEvent(track, device, line, e);
        }
    }

    void addEvent(TrackId track, int device, const XLine& line, const XEvent& e) {
        if (e.data_case() != XEvent::kOffsetPs) {
            ++aggregated_;
            return;
        }
        const auto meta = plane_.event_metadata().find(e.metadata_id());
        const std::string name = meta == plane_.event_metadata().end() ? std::string()
                                 : meta->second.display_name().empty()
                                     ? meta->second.name()
                                     : meta->second.display_name();
        GpuActivity a;
        a.device = device;
        a.stream = line.id();
        SliceInput in;
        in.start = line.timestamp_ns() + e.offset_ps() / 1000;
        in.dur = e.duration_ps() / 1000;
        in.name = b_.intern(name);
        SliceKind kind = device < 0
                             ? (isApiCall(name) ? SliceKind::CudaRuntime : SliceKind::Generic)
                             : SliceKind::Kernel;
        b_.args().begin();
        for (const XStat& s : e.stats()) {
            const std::string_view n = statName(s.metadata_id());
            const StringId key = b_.intern(n);
            if (n == "correlation_id")
                in.correlation = int64_t(s.uint64_value() | uint64_t(s.int64_value()));
            if (n == "memcpy_details" && device >= 0) kind = SliceKind::Memcpy;
            if (n == "memset_details" && device >= 0) kind = SliceKind::Memset;
            if (n == "kernel_details") {
                const std::string t = statText(s);
                triple(t, "grid:", &a.grid);
                triple(t, "block:", &a.block);
            }
            switch (s.value_case()) {
            case XStat::kInt64Value:
                b_.args().addInt(key, s.int64_value());
                break;
            case XStat::kUint64Value:
                b_.args().addUInt(key, s.uint64_value());
                break;
            case XStat::kDoubleValue:
                b_.args().addDouble(key, s.double_value());
                break;
            case XStat::kStrValue:
            case XStat::kRefValue:
                b_.args().addString(key, statText(s));
                break;
            default:
                break; // bytes: serialized metadata, not shown
            }
        }
        in.args = b_.args().finish();
        in.kind = kind;
        in.category = b_.intern(kind == SliceKind::CudaRuntime ? "cuda_runtime"
                                : kind == SliceKind::Kernel    ? "kernel"
                                : kind == SliceKind::Memcpy    ? "gpu_memcpy"
                                : kind == SliceKind::Memset    ? "gpu_memset"
                                                               : "host");
        if (device >= 0) in.gpu = &a;
        b_.addSlice(track, in);
    }

public:
    uint64_t aggregated_ = 0;

private:
    const XPlane& plane_;
    TraceBuilder& b_;
};

} // namespace

bool looksLikeXSpace(std::string_view head) {
    google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(head.data()),
                                              int(head.size()));
    uint32_t length = 0;
    if (in.ReadTag() != 0x0a || !in.ReadVarint32(&length)) return false; // planes, LEN
    for (int field = 0; field < 2; ++field) {
        const uint32_t tag = in.ReadTag();
        uint64_t v = 0;
        if (tag == 0x08 && in.ReadVarint64(&v)) continue; // the plane's id
        std::string name;
        if (tag != 0x12 || !in.ReadVarint32(&length) || length > 256 ||
            !in.ReadString(&name, int(length)))
            return false;
        return name.starts_with("/host:") || name.starts_with("/device:");
    }
    return false;
}

bool readXSpace(std::string_view bytes, TraceBuilder& builder, std::string* error) {
    google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()),
                                              int(bytes.size()));
    in.SetTotalBytesLimit(int(std::min<size_t>(bytes.size(), size_t(INT32_MAX))));
    size_t planes = 0;
    uint64_t aggregated = 0;
    while (true) {
        const int at = in.CurrentPosition();
        const uint32_t tag = in.ReadTag();
        if (tag == 0) break;
        if (tag != 0x0a) { // errors, warnings, hostnames and fields Strata does not know
            if (!google::protobuf::internal::WireFormatLite::SkipField(&in, tag)) {
                builder.addWarning("xplane: reading stopped at byte " + std::to_string(at) +
                                   " (a torn field); the planes before it are kept");
                break;
            }
            continue;
        }
        uint32_t length = 0;
        XPlane plane;
        if (!in.ReadVarint32(&length) ||
            length > uint32_t(bytes.size() - size_t(in.CurrentPosition()))) {
            if (planes == 0) {
                *error = "not an XSpace: its first plane at byte " + std::to_string(at) +
                         " is torn or not a protobuf message";
                return false;
            }
            builder.addWarning("xplane: the plane at byte " + std::to_string(at) +
                               " is torn; the " + std::to_string(planes) +
                               " planes before it are kept");
            break;
        }
        const auto limit = in.PushLimit(int(length));
        const bool ok = plane.ParseFromCodedStream(&in) && in.ConsumedEntireMessage();
        in.PopLimit(limit);
        if (!ok) {
            if (planes == 0) {
                *error = "not an XSpace: the plane at byte " + std::to_string(at) +
                         " is not an XPlane message";
                return false;
            }
            builder.addWarning("xplane: the plane at byte " + std::to_string(at) +
                               " could not be read; the planes before it are kept");
            break;
        }
        PlaneReader reader(plane, builder);
        reader.read();
        aggregated += reader.aggregated_;
        ++planes;
    }
    if (planes == 0) {
        *error = "not an XSpace: no plane";
        return false;
    }
    if (aggregated)
        builder.addWarning("xplane: " + std::to_string(aggregated) +
                           " aggregated events (a count, no time) not shown");
    return true;
}

} // namespace strata
