#pragma once
// What a recording produced, for the launcher's closing summary (CLI and GUI): each trace
// file loaded back with loadTrace, counted, and checked for the collector's problem reports.
#include "model/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace strata {

struct TraceFileSummary {
    std::string path;
    uint64_t bytes = 0;
    bool loaded = false;
    std::string error; // load error (when !loaded)
    uint64_t slices = 0;
    uint64_t kernels = 0;
    uint64_t gpuOps = 0; // kernels, copies, sets, syncs on GPU stream tracks
    std::vector<std::string> warnings;
    int cudaInitialized = -1; // metadata cuda_initialized: 1, 0, or -1 if absent
    std::string cuptiError;   // metadata cupti_error, if any
    std::string noGpuReason;  // explainMissingGpuActivity (analysis/trace_info.h), when no GPU op
};

TraceFileSummary summarizeTraceFile(const std::string& path);

// Human-readable lines for one file ("  run-123.strata  1.2 MB  5678 slices, 1234 kernels"),
// plus "the target never initialized CUDA" / the CUPTI error / warnings where they apply.
std::string formatTraceFileSummary(const TraceFileSummary& s);

} // namespace strata
