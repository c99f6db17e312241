#pragma once
// The advisor: rules that turn measurements into findings, each with its evidence (numbers), where
// in the timeline to look, and the time it would save (issue 27), ranked by that saving (strata-cli
// advise, the Statistics dock's Advisor tab). A rule whose data the trace lacks says so (severity
// NotApplicable) instead of guessing. The idle time of the gaps over the threshold, by the cause
// gap_causes.h decided for each:
//   input_pipeline   CPU-bound gaps under a DataLoader span: the input pipeline starved the GPU;
//   cpu_bound        the other CPU-bound gaps, with the frames the time went to;
//   launch_overhead  gaps filled by launch calls;
//   synchronization  gaps the launching thread spent blocked, with the calls;
//   dependency       gaps where launched work waited on the device, with what it waited on;
// each saving the idle time of its gaps. Then:
//   idle          per device, the idle time in gaps at or under the threshold (between kernels:
//                 launch overhead), which the cause rules do not see; its saving that time;
//   warm_up, graph_capture, not_visible (issue 44): gaps filled by kernels' first launches
//                 (module loading), by a graph capture, or with no cause the trace shows (a wait
//                 on nothing recorded): said as what they are, information, saving 0;
//   graphs        runs of short kernels separated by late launches: candidates for fusion or
//                 CUDA graphs; saving the CPU's lateness inside the runs, not over gaps the
//                 launching did not cause (a sync, a pageable copy, a warm-up, a capture); a run
//                 from zero_grad is told set_to_none=True, a torch.compile trace
//                 mode="reduce-overhead";
//   pageable      copies from or to pageable host memory; saving the larger of their time and
//                 the time the launching threads were blocked in them while the GPU idled;
//   sync_in_loop  blocking calls repeated every step (or 10 times or more without steps); saving
//                 the time they blocked the launching thread while the GPU was idle;
//   occupancy     per kernel, the theoretical occupancy (occupancy.h) under 25 %; GEMM, attention
//                 and collective kernels trade occupancy on purpose (saving 0, information);
//                 others save at most their time times (1 - occupancy / 25 %) (if the kernel is
//                 latency-bound, its time scales with the warps it lacks).
// Each saving is the rule's own estimate (the rules overlap: do not add them), and its share of
// the steps' device time (each step's length per device), or of the devices' spans without steps.
// Severity follows the share: a warning from 5 %, information below.
#include "analysis/analysis_range.h"
#include "analysis/ops/occupancy.h"
#include "model/trace.h"

#include <string>
#include <utility>
#include <vector>

namespace strata {

enum class FindingSeverity : uint8_t { Info, Warning, NotApplicable };
const char* findingSeverityName(FindingSeverity s); // "info", "warning", "not_applicable"

struct Finding {
    std::string rule; // "input_pipeline", "cpu_bound", ..., "occupancy"
    FindingSeverity severity = FindingSeverity::Info;
    std::string title; // one line
    std::string detail;
    TimeNs saving = 0;      // the time it would save, estimated
    double savingShare = 0; // of the steps' device time, or of the devices' spans
    std::vector<std::pair<std::string, double>> evidence; // named numbers
    std::vector<TimeRange> where;                         // places in the timeline (trace time)
};

struct Advice {
    std::vector<Finding> findings;     // by saving, largest first; not applicable last
    std::vector<std::string> warnings; // what makes the figures unreliable (gap_checks)
    TimeNs basis = 0;                  // what savingShare divides by
    bool basisIsSteps = false;         // the steps' device time (else the devices' spans)
};

Advice adviseTrace(const Trace& trace, TimeRange range = wholeTrace());
// The same from ops and gap causes already computed (collectGpuOps, explainGpuGaps over the same
// range), so a view that shows them too computes them once.
struct GapCauses;
struct GpuOpList;
Advice adviseTrace(const Trace& trace, const GpuOpList& ops, const GapCauses& gaps);

} // namespace strata
