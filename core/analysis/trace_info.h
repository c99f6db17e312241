#pragma once
// What a trace file says about itself: what was run to make it (the Run record a launcher
// appended), its top-level metadata (Kineto's schemaVersion, deviceProperties, distributedInfo;
// the collector's host, pid, cuda_initialized), and why it holds no GPU activity when it holds
// none. One implementation for `strata-cli info` and the GUI's Trace Info panel (its JSON:
// analysis/json/trace_info_json.h).
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
    std::string format; // the reader's name (LoadResult::format): "strata", "chrome-json", ...
    std::optional<RunInfo> run;
    std::map<std::string, std::string> metadata;
    std::string noGpuReason; // empty when the trace has GPU activity
    // In-kernel sections: the launches recorded with the trace, of how many kernels, and the
    // timer arrays imported into it (their files).
    size_t sectionLaunches = 0;
    size_t sectionKernels = 0;
    std::vector<std::string> importedSections;
    // Sampled stacks (model/stack_samples.h): how many, on how many threads.
    size_t stackSamples = 0;
    size_t stackSampleThreads = 0;
};

// `format`: the reader that loaded it (LoadResult::format; "" is shown as "unknown").
TraceInfo traceInfo(const Trace& trace, const std::string& file, const std::string& format);

// Why a trace holds no GPU activity, for the user: the run record's reason (the program wrote no
// trace, or ran without capture), the collector's metadata (CUDA never initialised, CUPTI taken
// by another tool), or a generic line; "" when it holds GPU ops.
std::string explainMissingGpuActivity(const Trace& trace);

// Label/value rows, in the order a person reads them: what was run (command line quoted as a
// shell would take it back, working directory, environment, exit, start, duration, host...),
// then the GPU note, then each metadata key. Values may span lines (metadata JSON).
std::vector<std::pair<std::string, std::string>> traceInfoRows(const TraceInfo& info);

} // namespace strata
