#include "io/export/perfetto_json_export.h"

#include "io/export/json_out.h"
#include "io/export/perfetto_json_parts.h"
#include "io/export/perfetto_json_writer.h"
#include "io/set/part_ids.h"

#include <vector>

namespace strata {
namespace {

// The result of a write that ended (`done`: not stopped): sizes, and the sink's error if any.
PerfettoExportResult finished(JsonOut& out, ExportSink& sink, bool done, PerfettoExportResult r) {
    out.flush();
    r.bytes = out.bytes();
    r.replacedBytes = out.replacedBytes();
    r.nonFiniteNumbers = out.nonFinite();
    if (out.failed()) {
        r.error = sink.error();
        return r;
    }
    r.ok = done && !r.cancelled;
    return r;
}

} // namespace

PerfettoExportResult writePerfettoJson(const Trace& trace, ExportSink& sink,
                                       const PerfettoExportOptions& options) {
    PerfettoExportResult r;
    JsonOut out(sink);
    PerfettoFileState file;
    const bool done = writePerfettoTrace(trace, out, options, r, file);
    return finished(out, sink, done, r);
}

PerfettoExportResult writePerfettoJsonSet(const std::vector<TracePart>& parts, ExportSink& sink,
                                          const PerfettoExportOptions& options) {
    PerfettoExportResult r;
    if (options.range) {
        r.error = "a range cannot be exported for a set of traces (ranges are per trace)";
        return r;
    }
    JsonOut out(sink);
    PerfettoFileState file;
    for (const TracePart& p : parts)
        if (p.trace) file.total += perfettoProgressUnits(*p.trace);
    writePerfettoSetHeader(out, parts);
    PartIdSpace space;
    bool done = true;
    for (size_t i = 0; i < parts.size() && done; ++i) {
        if (!parts[i].trace) continue;
        const int32_t sortBase = setPartSortBase(i);
        // Absolute, in the reference rank's clock.
        done = writePerfettoSetPart(*parts[i].trace, out, options, r, file, space,
                                    parts[i].label + ": ", sortBase, -parts[i].offset);
    }
    if (done) out.raw("\n]}\n");
    return finished(out, sink, done, r);
}

namespace {

// Writes through `write` into a sink opened on `path`, committed when everything was written.
template <typename Write>
PerfettoExportResult exportTo(const std::string& path, const PerfettoExportOptions& options,
                              Write write) {
    PerfettoExportResult r;
    std::unique_ptr<ExportSink> sink = openExportSink(path, options.gzip, &r.error);
    if (!sink) return r;
    r = write(*sink);
    if (!r.ok) {
        sink->abort();
        if (r.error.empty() && !r.cancelled) r.error = sink->error();
        if (r.cancelled) r.error = "cancelled: no file was written";
        return r;
    }
    if (!sink->commit()) {
        r.ok = false;
        r.error = sink->error();
        return r;
    }
    r.bytesOut = sink->bytesOut();
    return r;
}

} // namespace

PerfettoExportResult exportPerfettoJson(const Trace& trace, const std::string& path,
                                        const PerfettoExportOptions& options) {
    return exportTo(path, options,
                    [&](ExportSink& sink) { return writePerfettoJson(trace, sink, options); });
}

PerfettoExportResult exportPerfettoJsonSet(const std::vector<TracePart>& parts,
                                           const std::string& path,
                                           const PerfettoExportOptions& options) {
    return exportTo(path, options,
                    [&](ExportSink& sink) { return writePerfettoJsonSet(parts, sink, options); });
}

} // namespace strata
