#pragma once
// Build-time step: user annotations (ProfilerStep#N, record_function, NVTX ranges) that cross
// Python frames only at their edges nest as the user means them. The PyTorch profiler opens a
// step inside the Python frames of `profiler.step()` / `record_function.__enter__` and closes it
// inside `__exit__`, so on every `with_stack` trace the step starts before those frames end and
// ends after the next ones begin: nested by time alone, the step would be moved to an extra lane
// with none of its ops under it. Here the frames give way instead: they (and what they called)
// go to the extra lanes, and the annotation keeps its place over the work it encloses.
//
// A frame crosses an annotation "at an edge" when it is a Python frame and less than half of the
// annotation lies inside it. An annotation crossed by anything else keeps today's rule (it goes to
// an extra lane itself).
#include "model/track.h"

#include <cstdint>
#include <vector>

namespace strata {

// For a track's columns in nesting order: 1 for each slice that gives way to an annotation it
// crosses at an edge, 0 for the others; empty when none does (the track has no user annotation
// and Python frame, or none crosses). Time O(n), one pass with a stack.
std::vector<uint8_t> framesYieldingToAnnotations(const SliceColumns& c);

} // namespace strata
