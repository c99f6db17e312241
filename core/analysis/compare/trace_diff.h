#pragma once
// Two runs compared: a baseline and a candidate, each one TraceAnalysis (a whole trace, a range
// of one, or one step), their kernels (by name; a kernel both sides launch but not with the same
// set of launch configurations gets a row per configuration, "name [grid 128x1x1, block
// 256x1x1]"), CPU ops and annotations (by name) and copies (by
// kind and host memory) matched; each side's count, total, mean, median and p95, the
// difference, and what was added, removed or changed; for a CPU op, also the GPU time of the
// kernels, copies and sets it launched (op_stats.h), judged by the same rule on its own (its
// "GPU status": an op whose own time held may have launched slower kernels); GPU busy and idle,
// and idle by cause, per device on both sides. The figures of each side are that side's OpStats
// and GapCauses (trace_analysis.h): the diff adds no second rule for what a kernel's time is.
//
// The noise rule, what "changed" means:
//  - With at least kMinSteps steps on each side (trace_steps.h: ProfilerStep#N, or the step name
//    of the settings), a row is compared per step: it changed when the difference of its mean
//    total per step exceeds twice the standard error of that difference
//    (sqrt(sb^2 / nb + sc^2 / nc), from the sample standard deviations of the per-step totals)
//    and 1 % of the baseline's mean per step. Smaller differences are within the step-to-step
//    spread: "same".
//  - Otherwise, when the sides are steps of one run (two single steps of one trace, say) and a
//    reference is given whose steps measure the spread (that whole trace, with at least
//    kMinSteps steps besides those compared): a row changed when the difference of its totals
//    exceeds t times the standard deviation of that difference, sigma * sqrt(nb + nc), t being
//    Student's two-sided 95 % value for the reference's steps - 1 degrees of freedom (4.30 for
//    3 steps: a spread measured on few steps is itself uncertain; 2 past 30) (sigma: the
//    sample standard deviation of the row's per-step totals over the reference's other steps,
//    so that a step that changed does not widen the spread it is judged against; nb, nc: the
//    steps that start in each side), and 1 % of the baseline's total. Each row keeps its sigma. The
//    sides' rows are then tallied as the spread is: a GPU op in the step of its launch call (the
//    GPU runs behind the CPU, so the ops that start in a step's time are largely the previous
//    step's), a CPU op in the step it starts in; kernels by name only.
//  - Otherwise (no steps to measure a spread with), a row changed when its count differs, or its
//    total differs by at least 5 % of the baseline's and by at least 1 µs. When both sides are
//    steps (ranges holding fewer than kMinSteps steps each, e.g. two single steps and no
//    reference), their rows are still tallied by launch, as above (issue 46: a kernel launched
//    in one step and run in the next one's time counted in neither before).
// Added and removed rows are those with no occurrence on one side. Section rows always follow the
// rule without steps (their samples are not tallied per step). A GPU op counts in the step of
// its launch call (or of its start, when the trace has no launch for it). Rows are sorted by the
// size of their effect on the total (|delta total|), largest first, then by name.
#include "analysis/gaps/gap_causes.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace strata {

class TraceAnalysis;

enum class DiffStatus : uint8_t { Same, Changed, Added, Removed };
const char* diffStatusName(DiffStatus s); // "same", "changed", "added", "removed"

struct DiffSide {
    uint64_t count = 0;
    TimeNs total = 0;
    double mean = 0;            // ns per occurrence
    TimeNs median = 0, p95 = 0; // nearest rank (duration_stats.h); 0 when count is 0
    // With steps: the mean total per step and its sample standard deviation.
    double stepMean = 0, stepSpread = 0;
    // CPU op rows: the GPU time of the kernels, copies and sets launched inside the op
    // (op_stats.h's CpuOpRow::gpuTime; a GPU op in the step of its launch call), and with steps
    // its mean per step and sample standard deviation.
    TimeNs gpuTotal = 0;
    double gpuStepMean = 0, gpuStepSpread = 0;
};

struct DiffRow {
    std::string name;
    // As tables show it: the name the rest of Strata shows (Trace::displayName; a kernel's row
    // per launch configuration with its configuration after it); "" for rows named otherwise
    // (copies, sections): shownName() shortens `name`.
    std::string shown;
    DiffStatus status = DiffStatus::Same;
    // CPU op rows that launch GPU work on either side (launchesGpu): the rule on the GPU time
    // they launched (added: none in the baseline, removed: none in the candidate); else Same.
    DiffStatus gpuStatus = DiffStatus::Same;
    bool launchesGpu = false;
    DiffSide baseline, candidate;
    // With a reference's steps (the second rule): the sample standard deviation of the row's
    // per-step totals there, ns (and of its GPU time's).
    double referenceSpread = 0, referenceGpuSpread = 0;
    TimeNs deltaTotal() const { return candidate.total - baseline.total; }
    TimeNs deltaGpu() const { return candidate.gpuTotal - baseline.gpuTotal; }
    // deltaTotal / baseline total (0 when the baseline has none).
    double deltaShare() const;
    std::string shownName() const; // `shown`, else model/names/display_name.h's shortName
};

struct DeviceDiffSide {
    bool present = false;
    TimeNs busy = 0, idle = 0;
    std::array<TimeNs, kGapCauseCount> idleByCause{}; // gaps over the threshold
};

struct DeviceDiff {
    int32_t device = -1;
    DeviceDiffSide baseline, candidate;
};

// One step of each side on one device, paired by their order in each side (the k-th step of the
// baseline with the k-th of the candidate): the step's length, the device's idle inside it and,
// over the gaps over the threshold that start in it, idle by cause (gap_causes.h's StepGaps).
struct StepDiffSide {
    bool present = false;
    std::string step; // its name
    TimeNs length = 0, idle = 0;
    std::array<TimeNs, kGapCauseCount> idleByCause{};
};
struct StepDiff {
    size_t index = 0; // the step's position in each side
    int32_t device = -1;
    StepDiffSide baseline, candidate;
};

struct TraceDiff {
    static constexpr size_t kMinSteps = 3;
    bool bySteps = false; // the step rule was used (both sides have kMinSteps steps)
    size_t baselineSteps = 0, candidateSteps = 0;
    size_t referenceSteps = 0; // the reference's steps, when the second rule was used
    std::vector<DiffRow> kernels, ops, copies;
    // In-kernel timer sections (model/kernel_sections.h), when a side has them: one row per
    // kernel and section ("matmul / compute"), its samples (each closed section of each block)
    // pooled over the kernel's launches on that side (section_stats.h): count, total, mean,
    // median, p95; changed by the rule without steps. Values in ns when every set pooled has a
    // clock rate, else in cycles (sectionsInNs false).
    std::vector<DiffRow> sections;
    bool sectionsInNs = true;
    std::vector<DeviceDiff> devices; // by device
    std::vector<StepDiff> steps;     // by (index, device)
};

// `reference`: the analysis whose steps measure the spread when the sides have too few (see the
// noise rule); usually the whole trace both sides are steps of. Null: none.
TraceDiff diffTraces(const TraceAnalysis& baseline, const TraceAnalysis& candidate,
                     const TraceAnalysis* reference = nullptr);

// How a copy row is named in a diff: "HtoD", "DtoH (pageable)", "unknown".
std::string copyDiffName(uint8_t copyKind, bool pageable);

} // namespace strata
