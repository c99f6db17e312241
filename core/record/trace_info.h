#pragma once
// What a trace file says about itself: what was run to make it (the Run record a launcher
// appended), its top-level metadata (Kineto's schemaVersion, deviceProperties, distributedInfo;
// the collector's host, pid, cuda_initialized), and why it holds no GPU activity when it holds
// none. One implementation for `strata-cli info` and the GUI's Trace Info panel.
#include "io/trace_loader.h"
#include "model/run_info.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace strata {

class Trace;

struct TraceInfo {
    std::string file;
    std::string format; // "strata", "chrome-json", "chrome-json-gzip", "unknown"
    std::optional<RunInfo> run;
    std::map<std::string, std::string> metadata;
    std::string noGpuReason; // empty when the trace has GPU activity
};

TraceInfo traceInfo(const Trace& trace, const std::string& file, TraceFormat format);

const char* traceFormatName(TraceFormat format);

// {"file": str, "format": str, "run": {...} | null, "metadata": {str: str},
//  "no_gpu_reason": str | null}; "run" as runInfoToJson writes it.
std::string traceInfoToJson(const TraceInfo& info);

// Label/value rows, in the order a person reads them: what was run (command line quoted as a
// shell would take it back, working directory, environment, exit, start, duration, host...),
// then the GPU note, then each metadata key. Values may span lines (metadata JSON).
std::vector<std::pair<std::string, std::string>> traceInfoRows(const TraceInfo& info);

} // namespace strata
