#pragma once
// The events of one trace written as Perfetto JSON (the Writer behind perfetto_json_export.h):
// metadata, slices with their flows, counters, instants and in-kernel sections, in the trace's
// own clock from an origin. Internal to io/export: the entry points are perfetto_json_export.h.
#include "io/export/json_out.h"
#include "io/export/perfetto_json_export.h"
#include "model/trace.h"

#include <cstdint>
#include <string>

namespace strata {

struct PartIdSpace;

// What the traces written into one file share: the separator state, the progress and the flow
// ids (unique in the file).
struct PerfettoFileState {
    bool first = true;
    double total = 0, done = 0, lastReport = 0;
    uint64_t flowId = 0; // the last flow id handed out
};

// Work units of a trace, for the progress.
double perfettoProgressUnits(const Trace& t);

// A whole file of one trace: its header, its events in absolute time, the closing bracket. False
// when the write was stopped (cancelled, or the sink failed).
bool writePerfettoTrace(const Trace& trace, JsonOut& out, const PerfettoExportOptions& options,
                        PerfettoExportResult& result, PerfettoFileState& file);
// One trace of a set: its events, its groups labelled `label` and sorted from `sortBase` in the
// set's id space, `origin` (its own clock) written as time 0.
bool writePerfettoSetPart(const Trace& trace, JsonOut& out, const PerfettoExportOptions& options,
                          PerfettoExportResult& result, PerfettoFileState& file, PartIdSpace& space,
                          const std::string& label, int32_t sortBase, TimeNs origin);

} // namespace strata
