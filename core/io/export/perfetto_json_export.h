#pragma once
// Export as Perfetto / Chrome Trace Event JSON (docs/export.md): the object form, without
// displayTimeUnit; ts/dur in microseconds exact to the nanosecond, in the trace's own time base
// (absolute, as the source had them: exports of several ranks line up); positive 32-bit pids and
// tids, never 0, the ids they replace kept for Strata's reader (io/set/part_ids.h); slices
// as X events strictly nested per tid; launch -> GPU op links and the trace's flows as v2 flows
// (bind_id + flow_out/flow_in, ids unique in the file; a slice in several flows gets v1 s/f events
// for the others); counters as C events; instants; async slices as b/e; Kineto's categories and
// args so that Strata, HTA and Perfetto read the GPU devices and streams back. Written in one pass,
// streaming (no document in memory).
#include "io/export/export_sink.h"
#include "io/set/trace_part.h"
#include "model/timeline_notes.h"
#include "model/trace.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace strata {

struct PerfettoExportOptions {
    // Trace time (absolute ns). Every event that overlaps it is written, slices whole (not
    // clipped), those crossing an edge marked with the arg "strata_range_edge".
    std::optional<TimeRange> range;
    bool gzip = false; // gzip the output (on a second thread)
    // Called now and then with the fraction done; returning false cancels (no file is left).
    std::function<bool(double)> progress;
    // Where the trace came from, kept in otherData.source (empty: not written).
    std::string sourceFile;
    // The user's notes and flags (the notes sidecar, io/notes/notes_file.h), written as
    // "strata.note" instants and "strata.flag" async slices (io/export/perfetto_notes.h); one
    // trace only (a set's export leaves them out).
    std::vector<TimelineNote> notes;
};

struct PerfettoExportResult {
    bool ok = false;
    bool cancelled = false;
    std::string error;
    uint64_t events = 0; // JSON events written (metadata events included)
    uint64_t slices = 0;
    uint64_t flows = 0;   // flows written (trace flows + launch links)
    uint64_t flowsV1 = 0; // of them, written as s/f pairs (a slice in several)
    uint64_t counterSamples = 0;
    uint64_t instants = 0;
    uint64_t notes = 0;          // notes and flags written (PerfettoExportOptions::notes)
    uint64_t overlapThreads = 0; // extra threads for overlapping lanes
    // In-kernel sections (io/export/perfetto_sections.h): closed sections written as slices,
    // the per-SM threads that hold them, and what could not be placed on the timeline (no
    // %globaltimer times, or no kernel slice of the launch in the trace), not written.
    uint64_t sectionSlices = 0;
    uint64_t sectionThreads = 0;
    uint64_t sectionSetsDropped = 0;
    uint64_t sectionSamplesDropped = 0;
    uint64_t edgeSlices = 0;       // range export: slices crossing an edge (kept whole)
    uint64_t replacedBytes = 0;    // string bytes that were not UTF-8 (written as U+FFFD)
    uint64_t nonFiniteNumbers = 0; // NaN/inf values written as null
    uint64_t bytes = 0;            // JSON text bytes
    uint64_t bytesOut = 0;         // bytes in the file (after gzip)
};

// Writes `trace` to `path` ("-" = stdout) as Perfetto JSON.
PerfettoExportResult exportPerfettoJson(const Trace& trace, const std::string& path,
                                        const PerfettoExportOptions& options = {});
// The same into a sink (benchmarks, tests); commit() is left to the caller.
PerfettoExportResult writePerfettoJson(const Trace& trace, ExportSink& sink,
                                       const PerfettoExportOptions& options = {});

// Several traces on one timeline: each in absolute time shifted by its offset (the reference
// rank's clock), otherData.strata_parts lists each part's label, source and offset. options.range
// is refused (ranges are per trace); options.sourceFile is not used.
PerfettoExportResult exportPerfettoJsonSet(const std::vector<TracePart>& parts,
                                           const std::string& path,
                                           const PerfettoExportOptions& options = {});
PerfettoExportResult writePerfettoJsonSet(const std::vector<TracePart>& parts, ExportSink& sink,
                                          const PerfettoExportOptions& options = {});

} // namespace strata
