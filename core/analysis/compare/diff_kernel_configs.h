#pragma once
// Kernels launched with different configurations on the two sides of a diff (trace_diff.h): their
// rows are one per configuration ("name [grid 128x1x1, block 256x1x1]"), so that a change of
// configuration shows as one removed and one added row; a kernel launched the same ways on both
// sides (an elementwise kernel's grid follows its tensor's size) keeps one row. Internal to
// trace_diff.cpp.
#include "analysis/trace_analysis.h"

#include <set>
#include <string>

namespace strata::diff_configs {

using SplitNames = std::set<std::string>; // the kernel names split per configuration

// "grid 128x1x1, block 256x1x1" ("" when the op carries none).
std::string launchConfig(const GpuActivity* g);
// The kernels both sides launch, not with the same set of configurations.
SplitNames multiConfigKernels(const TraceAnalysis& a, const TraceAnalysis& b);
// A kernel's row name: its name, with its configuration when its name is split.
std::string kernelRowName(const Trace& t, SliceRef r, const SplitNames& split);

} // namespace strata::diff_configs
