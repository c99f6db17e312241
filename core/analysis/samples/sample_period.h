#pragma once
// The time one stack sample stands for: 1 s / the sampler's rate, where the recording says it
// (Python stacks: metadata python_sample_hz, written by the collector, else the "python"
// metadata's "sample=HZ"; native stacks: the cpu_sample metadata's "HZ Hz ..."), otherwise the
// median interval between a thread's consecutive samples.
#include "model/trace.h"

namespace strata {

inline constexpr const char* kMetaPythonSampleHz = "python_sample_hz";
inline constexpr const char* kMetaCpuSample = "cpu_sample";

// Of the samples of `kind` (StackKind); 0 when nothing tells (no rate, fewer than two samples
// on every thread).
TimeNs samplePeriod(const Trace& trace, uint8_t kind);
// Of the samples a selection of unset kind shows most: Python's where the trace has any.
TimeNs samplePeriod(const Trace& trace);

} // namespace strata
