#pragma once
// Pieces of the Perfetto JSON export (io/export/perfetto_json_export.h), for its writer.
#include "io/export/json_out.h"
#include "io/export/perfetto_json_export.h"
#include "io/set/part_ids.h"
#include "model/trace.h"

#include <optional>
#include <vector>

namespace strata {

// {"otherData" (source, range, the source's metadata), deviceProperties, distributedInfo,
// schemaVersion, strata_run, then "traceEvents": [. No displayTimeUnit: readers that honour it
// took "ns" as the unit of ts (which is µs) and showed times 1000x off.
void writePerfettoHeader(JsonOut& out, const Trace& t, const PerfettoExportOptions& o);
// The same for several traces in one file (writePerfettoJsonSet): "otherData" with
// "strata_parts": [{"label", "source", "offset_ns", "run"?}], then "traceEvents": [.
void writePerfettoSetHeader(JsonOut& out, const std::vector<TracePart>& parts);
// ', "args": {...}' of slice i of track ti when it has any: GPU activity with Kineto's names,
// correlation, External id, colour, the range-edge mark (counted in edgeSlices), then the
// slice's own args (those not already written). The device is written as `ids` exports it.
void writeSliceArgs(JsonOut& out, const Trace& t, const PartIds& ids, TrackId ti, SliceIndex i,
                    const std::optional<TimeRange>& range, uint64_t& edgeSlices);
// One arg value as JSON (Json-typed values as their text).
void writeArgValue(JsonOut& out, const ArgValue& v);

} // namespace strata
