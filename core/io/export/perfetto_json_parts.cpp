// Pieces of the Perfetto JSON export (io/export/perfetto_json_export.h): the top-level keys before
// the events, and a slice's args.
#include "io/export/perfetto_json_parts.h"

#include "model/run_info.h"

#include <cstdio>

namespace strata {
namespace {

// Arg keys the writer fills in itself from the model; a stored arg of the same key is not
// written a second time.
constexpr std::string_view kOwnKeys[] = {"device",
                                         "stream",
                                         "context",
                                         "grid",
                                         "block",
                                         "registers per thread",
                                         "shared memory",
                                         "static shared memory",
                                         "dynamic shared memory",
                                         "bytes",
                                         "graph id",
                                         "graph node id",
                                         "correlation",
                                         "External id",
                                         "color",
                                         "strata_range_edge"};

void writeDim3(JsonOut& out, const std::array<int32_t, 3>& d) {
    out.ch('[');
    out.i64(d[0]);
    out.raw(", ");
    out.i64(d[1]);
    out.raw(", ");
    out.i64(d[2]);
    out.ch(']');
}

} // namespace

void writeArgValue(JsonOut& out, const ArgValue& v) {
    switch (v.type) {
    case ArgValue::Type::Null:
        out.raw("null");
        break;
    case ArgValue::Type::Bool:
        out.raw(v.b ? "true" : "false");
        break;
    case ArgValue::Type::Int:
        out.i64(v.i);
        break;
    case ArgValue::Type::UInt:
        out.u64(v.u);
        break;
    case ArgValue::Type::Double:
        out.dbl(v.d);
        break;
    case ArgValue::Type::String:
        out.str(v.s);
        break;
    case ArgValue::Type::Json:
        out.raw(v.s);
        break;
    }
}

// "args": {...} of slice i, when it has any.
void writeSliceArgs(JsonOut& out, const Trace& t, const PartIds& ids, TrackId ti, SliceIndex i,
                    const std::optional<TimeRange>& range, uint64_t& edgeSlices) {
    const Track& tr = t.track(ti);
    const SliceColumns& s = tr.slices;
    bool open = false;
    auto key = [&](const char* k) {
        out.raw(open ? ", \"" : ", \"args\": {\"");
        open = true;
        out.raw(k);
        out.raw("\": ");
    };
    if (s.extra[i] != kNoExtra) {
        const SliceExtra& x = t.extras()[s.extra[i]];
        if (x.gpu != SliceExtra::kNone) {
            const GpuActivity& g = t.gpuActivities()[x.gpu];
            key("device");
            out.i64(ids.device(g.device));
            key("stream");
            out.i64(g.stream);
            if (g.context >= 0) {
                key("context");
                out.i64(g.context);
            }
            if (g.grid[0] || g.grid[1] || g.grid[2]) {
                key("grid");
                writeDim3(out, g.grid);
                key("block");
                writeDim3(out, g.block);
            }
            if (g.registersPerThread >= 0) {
                key("registers per thread");
                out.i64(g.registersPerThread);
            }
            if (g.staticSharedBytes >= 0 || g.dynamicSharedBytes >= 0) {
                // Kineto's "shared memory" is static + dynamic; both parts kept too.
                key("shared memory");
                out.i64(std::max(0, g.staticSharedBytes) + std::max(0, g.dynamicSharedBytes));
                if (g.staticSharedBytes >= 0) {
                    key("static shared memory");
                    out.i64(g.staticSharedBytes);
                }
                if (g.dynamicSharedBytes >= 0) {
                    key("dynamic shared memory");
                    out.i64(g.dynamicSharedBytes);
                }
            }
            if (g.bytes >= 0) {
                key("bytes");
                out.i64(g.bytes);
            }
            if (g.graphId >= 0) {
                key("graph id");
                out.i64(g.graphId);
            }
        }
        if (x.correlation >= 0) {
            key("correlation");
            out.i64(ids.correlation(x.correlation));
        }
        if (x.external != SliceExtra::kNone) {
            key("External id");
            out.i64(ids.external(t.externalIds()[x.external]));
        }
    }
    if (!t.nameColors().empty()) {
        if (auto c = t.nameColors().find(s.name[i]); c != t.nameColors().end()) {
            char hex[16];
            std::snprintf(hex, sizeof hex, "#%06x", c->second & 0xFFFFFFu);
            key("color");
            out.str(hex);
        }
    }
    if (range) {
        const bool before = s.start[i] < range->start;
        const bool after = s.start[i] + s.dur[i] > range->end;
        if (before || after) {
            ++edgeSlices;
            key("strata_range_edge");
            out.raw(before && after ? "\"both\"" : before ? "\"start\"" : "\"end\"");
        }
    }
    if (s.args[i] != kNoArgs) {
        for (const Arg& a : t.args(s.args[i])) {
            const std::string_view k = t.str(a.key);
            bool own = false;
            for (std::string_view o : kOwnKeys) own |= o == k;
            if (own) continue;
            out.raw(open ? ", " : ", \"args\": {");
            open = true;
            out.str(k);
            out.raw(": ");
            writeArgValue(out, a.value);
        }
    }
    if (open) out.raw("}");
}

void writePerfettoHeader(JsonOut& out, const Trace& t, const PerfettoExportOptions& o) {
    out.raw("{\"otherData\": {\"exported_by\": \"strata\"");
    if (!o.sourceFile.empty()) {
        out.raw(", \"source\": ");
        out.str(o.sourceFile);
    }
    if (o.range) {
        out.raw(", \"range_start_ns\": ");
        out.str(std::to_string(o.range->start));
        out.raw(", \"range_end_ns\": ");
        out.str(std::to_string(o.range->end));
        out.raw(", \"range_slices\": \"every slice that overlaps the range, whole; those "
                "crossing an edge carry the arg strata_range_edge\"");
    }
    bool hasDeviceProps = false;
    for (const auto& [k, v] : t.metadata()) {
        if (k == "deviceProperties" || k == "distributedInfo" || k == "schemaVersion" ||
            k == "otherData" || k == "strata_run")
            continue;
        out.raw(", ");
        out.str(k);
        out.raw(": ");
        out.str(v);
    }
    out.raw("}");
    for (const auto& [k, v] : t.metadata()) {
        const bool structured = !v.empty() && (v.front() == '[' || v.front() == '{');
        if ((k == "deviceProperties" || k == "distributedInfo") && structured) {
            out.raw(",\n");
            out.str(k);
            out.raw(": ");
            out.raw(v);
            hasDeviceProps |= k == "deviceProperties";
        } else if (k == "schemaVersion") {
            out.raw(",\n\"schemaVersion\": ");
            const bool number =
                !v.empty() && v.find_first_not_of("0123456789") == v.npos && v.size() < 18;
            if (number)
                out.raw(v);
            else
                out.str(v);
        }
    }
    if (!hasDeviceProps && !t.devices().empty()) {
        // Kineto's keys (torch.cuda.get_device_properties).
        out.raw(",\n\"deviceProperties\": [");
        bool firstDev = true;
        for (const DeviceInfo& d : t.devices()) {
            out.raw(firstDev ? "\n  {" : ",\n  {");
            firstDev = false;
            out.raw("\"id\": ");
            out.i64(d.id);
            out.raw(", \"name\": ");
            out.str(d.name);
            out.raw(", \"totalGlobalMem\": ");
            out.i64(d.totalMemoryBytes);
            out.raw(", \"computeMajor\": ");
            out.i64(d.computeMajor);
            out.raw(", \"computeMinor\": ");
            out.i64(d.computeMinor);
            out.raw(", \"numSms\": ");
            out.i64(d.smCount);
            out.raw(", \"clockRate\": ");
            out.i64(d.clockRateKHz);
            out.raw(", \"memoryClockRate\": ");
            out.i64(d.memoryClockRateKHz);
            out.raw("}");
        }
        out.raw("]");
    }
    if (t.run()) {
        out.raw(",\n\"strata_run\": ");
        out.raw(runInfoToJson(*t.run()));
    }
    out.raw(",\n\"traceEvents\": [");
}

void writePerfettoSetHeader(JsonOut& out, const std::vector<TracePart>& parts) {
    out.raw("{\"otherData\": {\"exported_by\": \"strata\", \"strata_parts\": [");
    bool first = true;
    for (const TracePart& p : parts) {
        out.raw(first ? "\n  {\"label\": " : ",\n  {\"label\": ");
        first = false;
        out.str(p.label);
        out.raw(", \"source\": ");
        out.str(p.sourceFile);
        out.raw(", \"offset_ns\": ");
        out.str(std::to_string(p.offset));
        if (p.trace && p.trace->run()) {
            out.raw(", \"run\": ");
            out.raw(runInfoToJson(*p.trace->run()));
        }
        out.raw("}");
    }
    out.raw("]}");
    out.raw(",\n\"traceEvents\": [");
}

} // namespace strata
