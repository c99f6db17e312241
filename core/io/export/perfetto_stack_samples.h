#pragma once
// A trace's stack samples (model/stack_samples.h) in the Perfetto JSON export, as Chrome's
// profiler writes them and io/json/json_stack_samples.h reads them back: after "traceEvents",
//   "stackFrames": {"ID": {"name": frame, "parent": "ID"}, ...}   (ID: the callsite id)
//   "samples": [{"ts": µs, "pid": P, "tid": T, "sf": "ID"}, ...]
// each thread under the ids its main lane is exported with (io/set/part_ids.h). A sample with no
// frame has none to name and is left out, as are those outside the export's range.
#include "io/export/json_out.h"
#include "io/set/part_ids.h"
#include "model/trace.h"

#include <cstdint>
#include <optional>

namespace strata {

// Writes `,\n"stackFrames": ..., "samples": [...]` when the trace has samples (nothing
// otherwise); returns the samples written.
uint64_t writePerfettoStackSamples(JsonOut& out, const Trace& t, const PartIds& ids,
                                   const std::optional<TimeRange>& range);

} // namespace strata
