#pragma once
// The advisor: rules that turn measurements into findings, each with its evidence (numbers) and
// where in the timeline to look (strata-cli advise, the Advisor dock). A rule whose data the trace
// lacks says so (severity NotApplicable) instead of guessing.
//   idle          a device's idle share of its span, with the cause of most of it (gap_causes);
//   graphs        runs of short kernels separated by launch-bound gaps: candidates for fusion or
//                 CUDA graphs; the time a graph would save is estimated as the launch-bound gap
//                 time inside the run (the CPU's lateness a replay removes);
//   pageable      copies from or to pageable host memory (staged, synchronous, slower);
//   sync_in_loop  blocking calls (synchronize, synchronous copies) repeated every step, or many
//                 times when the trace has no steps;
//   occupancy     per kernel, the theoretical occupancy from its registers, shared memory and
//                 block size against the device's limits (the trace's device properties), flagged
//                 under 25 %.
#include "analysis/analysis_range.h"
#include "model/trace.h"

#include <string>
#include <utility>
#include <vector>

namespace strata {

enum class FindingSeverity : uint8_t { Info, Warning, NotApplicable };
const char* findingSeverityName(FindingSeverity s); // "info", "warning", "not_applicable"

struct Finding {
    std::string rule; // "idle", "graphs", "pageable", "sync_in_loop", "occupancy"
    FindingSeverity severity = FindingSeverity::Info;
    std::string title; // one line
    std::string detail;
    std::vector<std::pair<std::string, double>> evidence; // named numbers
    std::vector<TimeRange> where;                         // places in the timeline (trace time)
};

struct Advice {
    std::vector<Finding> findings;     // warnings first, then info, then not applicable
    std::vector<std::string> warnings; // what makes the figures unreliable (gap_checks)
};

// Device limits for occupancy: from the trace's deviceProperties metadata (Kineto) or its devices'
// compute capability (.strata recordings); `known` false when neither says.
struct SmLimits {
    bool known = false;
    std::string source;
    int maxThreadsPerSm = 0, maxBlocksPerSm = 0, regsPerSm = 0, sharedPerSm = 0;
    int reservedSharedPerBlock = 0;
};
SmLimits smLimits(const Trace& trace, int32_t device);
// Theoretical occupancy (active warps / the SM's maximum) of a kernel on these limits, and what
// limits it ("warps", "blocks", "registers", "shared memory"). 0 when it cannot run.
double theoreticalOccupancy(const SmLimits& l, int threadsPerBlock, int registersPerThread,
                            int sharedPerBlock, std::string* limiter);

Advice adviseTrace(const Trace& trace, TimeRange range = wholeTrace());
// The same from ops and gap causes already computed (collectGpuOps, explainGpuGaps over the same
// range), so a view that shows them too computes them once.
struct GapCauses;
struct GpuOpList;
Advice adviseTrace(const Trace& trace, const GpuOpList& ops, const GapCauses& gaps);

} // namespace strata
