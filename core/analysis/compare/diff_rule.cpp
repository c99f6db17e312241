#include "analysis/compare/diff_rule.h"

#include <cmath>
#include <iterator>

namespace strata::diff_rule {

namespace {

// Student's t, two-sided 95 %, for `df` degrees of freedom (2 past 30: the "twice" of the rule).
double tCritical(size_t df) {
    static constexpr double t[] = {0,    12.71, 4.30, 3.18, 2.78, 2.57, 2.45, 2.36,
                                   2.31, 2.26,  2.23, 2.20, 2.18, 2.16, 2.14, 2.13,
                                   2.12, 2.11,  2.10, 2.09, 2.09, 2.08, 2.07, 2.07,
                                   2.06, 2.06,  2.06, 2.05, 2.05, 2.05, 2.04};
    return df >= 1 && df < std::size(t) ? t[df] : 2.0;
}

} // namespace

StepFigures stepFigures(const StepTotals& totals, const std::string& name, size_t steps) {
    StepFigures f;
    if (steps == 0) return f;
    auto it = totals.find(name);
    std::vector<TimeNs> v = it != totals.end() ? it->second : std::vector<TimeNs>(steps, 0);
    double sum = 0;
    for (TimeNs x : v) sum += double(x);
    f.mean = sum / double(steps);
    double sq = 0;
    for (TimeNs x : v) sq += (double(x) - f.mean) * (double(x) - f.mean);
    f.spread = steps > 1 ? std::sqrt(sq / double(steps - 1)) : 0;
    return f;
}

bool moved(const Measure& b, const Measure& c, double referenceSpread, const TraceDiff& d) {
    const size_t nb = d.baselineSteps, nc = d.candidateSteps;
    if (d.referenceSteps > 0) {
        const double diff = std::abs(c.total - b.total);
        const double sd = referenceSpread * std::sqrt(double(nb + nc));
        return diff > tCritical(d.referenceSteps - 1) * sd && diff >= 0.01 * b.total;
    }
    if (d.bySteps) {
        const double diff = std::abs(c.stepMean - b.stepMean);
        const double se = std::sqrt(b.stepSpread * b.stepSpread / double(nb) +
                                    c.stepSpread * c.stepSpread / double(nc));
        return diff > 2 * se && diff >= 0.01 * b.stepMean;
    }
    const double delta = std::abs(c.total - b.total);
    return delta >= 0.05 * b.total && delta >= 1000.0;
}

DiffStatus statusOf(const DiffRow& r, const TraceDiff& d) {
    if (r.baseline.count == 0 && r.candidate.count > 0) return DiffStatus::Added;
    if (r.candidate.count == 0 && r.baseline.count > 0) return DiffStatus::Removed;
    if (d.referenceSteps == 0 && !d.bySteps && r.baseline.count != r.candidate.count)
        return DiffStatus::Changed;
    return moved(ownTime(r.baseline), ownTime(r.candidate), r.referenceSpread, d)
               ? DiffStatus::Changed
               : DiffStatus::Same;
}

DiffStatus gpuStatusOf(const DiffRow& r, const TraceDiff& d) {
    if (!r.launchesGpu) return DiffStatus::Same;
    if (r.baseline.gpuTotal == 0) return DiffStatus::Added; // launches GPU work only now
    if (r.candidate.gpuTotal == 0) return DiffStatus::Removed;
    return moved(gpuTime(r.baseline), gpuTime(r.candidate), r.referenceGpuSpread, d)
               ? DiffStatus::Changed
               : DiffStatus::Same;
}

} // namespace strata::diff_rule
