#pragma once
// Chrome's own sampled stacks (the Trace Event Format's top-level "stackFrames" and "samples", as
// Chrome's profiler writes them) into the model's stack samples (model/stack_samples.h):
//   "stackFrames": {"ID": {"name": "...", "parent": "ID", "category": "libfoo.so"}, ...}
//   "samples": [{"ts": µs, "pid": P, "tid": T, "sf": "ID", "weight": N}, ...]
// A frame with a category is named "name (category)" (a native frame's library), else its name. A
// sample of weight N counts N times (at most 1000). Bad entries are skipped and counted in one
// warning each kind: a frame whose parent is missing or that is its own ancestor (a cycle), a
// sample whose frame is missing, or without a tid or time.
#include "model/build/trace_builder.h"

#include <nlohmann/json.hpp>

namespace strata {

// `frames` (the "stackFrames" object, or null) and `samples` (the "samples" array, or null).
void applyStackSamples(TraceBuilder& b, const nlohmann::json& frames,
                       const nlohmann::json& samples);

} // namespace strata
