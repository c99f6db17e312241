#pragma once
// What would make an idle percentage false, checked before one is reported (strata-cli gaps,
// summary, advise, the Gaps view): each check returns its warnings (empty when it finds nothing).
// The clocks are checked apart (clock_checks.h).
//   graph replays    cudaGraphLaunch calls with no GPU work in the trace, or fewer kernels than
//                    earlier replays of the same graph: the kernels missing ran, and their time
//                    would count as idle (graph kernel tracing off, or records lost);
//   capture window   kernel launches after the last GPU op with no kernel in the trace (the
//                    capture ended inside a step), GPU ops before the first launch call with no
//                    launch (it began inside one); kernel launches missing their kernel elsewhere
//                    (records lost): the idle time around them is then not the GPU's.
#include "analysis/trace_steps.h"
#include "model/trace.h"

#include <string>
#include <vector>

namespace strata {

class CaptureWindows; // analysis/gaps/graph_capture.h

std::vector<std::string> graphReplayWarnings(const Trace& trace);
// `captures`: the trace's graph captures (launches inside them run no kernel by design).
std::vector<std::string> captureWindowWarnings(const Trace& trace,
                                               const std::vector<TraceStep>& steps,
                                               const CaptureWindows& captures);

// A launch call that should put work on the GPU (kernel launches, graph launches, async copies
// and sets), by its name.
bool isGpuWorkCallName(std::string_view name);

} // namespace strata
