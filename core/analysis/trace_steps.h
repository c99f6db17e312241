#pragma once
// The steps of a training or inference loop, so analyses report per step and not only over the
// whole trace: the PyTorch profiler's ProfilerStep#N slices, else CPU or NVTX slices whose name
// starts with a given prefix (strata-cli --step-name, the collector's schedule), case-insensitive.
// Outermost slices only (a step inside a step is not another step), sorted by start.
#include "model/trace.h"

#include <string>
#include <vector>

namespace strata {

struct TraceStep {
    std::string name; // "ProfilerStep#12", "step 3"
    TimeNs start = 0, end = 0;
    SliceRef slice;
};

// `prefix` empty: "ProfilerStep#".
std::vector<TraceStep> findSteps(const Trace& trace, const std::string& prefix = {});
// Whether a slice of this name is a step under `prefix` (empty: "ProfilerStep#").
bool isStepName(std::string_view name, const std::string& prefix = {});

} // namespace strata
