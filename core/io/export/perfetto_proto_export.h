#pragma once
// Export as Perfetto's native protobuf trace (`.pftrace`, TrackEvent; docs/export.md), which
// Perfetto UI and trace_processor open: one track per process, thread (and overlap lane), GPU
// device and stream, counter and async track (TrackDescriptor, the GPU streams under their
// device); slices as begin/end pairs on their track, instants, counter values; launch -> GPU op
// links and the trace's flows as flow ids; every arg as a debug annotation, GPU activity with
// Kineto's names (device, stream, correlation, grid, block, bytes...). Names, categories and arg
// names are interned (InternedData) on one packet sequence. The field numbers are Perfetto's
// published ones (core/io/formats/perfetto/perfetto_trace.proto declares what is written).
#include "io/export/export_sink.h"
#include "model/trace.h"

#include <cstdint>
#include <string>

namespace strata {

struct PerfettoProtoResult {
    bool ok = false;
    std::string error;
    uint64_t packets = 0;
    uint64_t tracks = 0;
    uint64_t slices = 0;
    uint64_t instants = 0;
    uint64_t counterSamples = 0;
    uint64_t flows = 0;
    uint64_t bytes = 0;
};

// Writes `trace` to `path` ("-" = stdout).
PerfettoProtoResult exportPerfettoProto(const Trace& trace, const std::string& path);
// The same into a sink (benchmarks, tests); commit() is left to the caller.
PerfettoProtoResult writePerfettoProto(const Trace& trace, ExportSink& sink);

} // namespace strata
