#pragma once
// The durations of one name's slices in a range: a kernel's on the GPU streams, or a CPU op's on
// the threads. What the Statistics dock's and the Compare dock's duration histograms draw.
#include "analysis/analysis_range.h"
#include "model/trace.h"

#include <string_view>
#include <vector>

namespace strata {

enum class NamedSlices : uint8_t { Kernels, CpuSlices };

// The durations of the slices named `name` of that kind that start in `range`, in track order.
std::vector<TimeNs> durationsNamed(const Trace& trace, StringId name, NamedSlices kind,
                                   TimeRange range = wholeTrace());
// The same for a name given as text (none when the trace has no such string).
std::vector<TimeNs> durationsNamed(const Trace& trace, std::string_view name, NamedSlices kind,
                                   TimeRange range = wholeTrace());

} // namespace strata
