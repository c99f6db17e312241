#pragma once
// The time one stack sample stands for: 1 s / the sampler's rate, where the recording says it
// (metadata python_sample_hz, written by the collector; else the "python" metadata's
// "sample=HZ"), otherwise the median interval between a thread's consecutive samples.
#include "model/trace.h"

namespace strata {

inline constexpr const char* kMetaPythonSampleHz = "python_sample_hz";

// 0 when nothing tells (no rate, fewer than two samples on every thread).
TimeNs samplePeriod(const Trace& trace);

} // namespace strata
