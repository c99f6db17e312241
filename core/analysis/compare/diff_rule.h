#pragma once
// The noise rule of a diff (trace_diff.h: what "changed" means), applied to one measure of a row:
// its own time, or, for a CPU op, the GPU time it launched. Internal to trace_diff.cpp.
#include "analysis/compare/trace_diff.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace strata::diff_rule {

// Per-step totals of each row, on one side: totals[name][step].
using StepTotals = std::unordered_map<std::string, std::vector<TimeNs>>;

// Mean and sample standard deviation of a row's per-step totals (0 in every step when absent).
struct StepFigures {
    double mean = 0, spread = 0;
};
StepFigures stepFigures(const StepTotals& totals, const std::string& name, size_t steps);

// One measure of a row on both sides: totals, and with steps the means per step and spreads;
// `referenceSpread`: the per-step spread of the reference's steps (the second rule).
struct Measure {
    double total = 0, stepMean = 0, stepSpread = 0;
};
inline Measure ownTime(const DiffSide& s) {
    return {double(s.total), s.stepMean, s.stepSpread};
}
inline Measure gpuTime(const DiffSide& s) {
    return {double(s.gpuTotal), s.gpuStepMean, s.gpuStepSpread};
}
// Whether the measure moved past the rule `d` follows (steps, a reference's steps, or neither:
// 5 % of the baseline's total and 1 µs).
bool moved(const Measure& baseline, const Measure& candidate, double referenceSpread,
           const TraceDiff& d);

// A row's status: added or removed by its counts, else by its own time (and, without steps, its
// count); its GPU status (CPU op rows that launch GPU work): the rule on the GPU time.
DiffStatus statusOf(const DiffRow& r, const TraceDiff& d);
DiffStatus gpuStatusOf(const DiffRow& r, const TraceDiff& d);

} // namespace strata::diff_rule
