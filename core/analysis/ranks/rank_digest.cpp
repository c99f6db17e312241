#include "analysis/ranks/rank_digest.h"

#include <algorithm>
#include <map>

namespace strata {

namespace {

// A digest stays small: a trace's own warnings beyond this many are counted in one line.
constexpr size_t kMaxTraceWarnings = 20;

// Kernels that start in each step, per (step index, device).
std::map<std::pair<size_t, int32_t>, uint64_t>
kernelsPerStep(const GpuOpList& ops, const std::vector<DigestStep>& steps) {
    std::map<std::pair<size_t, int32_t>, uint64_t> n;
    if (steps.empty()) return n;
    for (const GpuOp& op : ops.ops) {
        if (op.kind != SliceKind::Kernel) continue;
        const auto after =
            std::upper_bound(steps.begin(), steps.end(), op.start,
                             [](TimeNs t, const DigestStep& s) { return t < s.start; });
        if (after == steps.begin()) continue;
        const size_t k = size_t(after - steps.begin()) - 1;
        if (op.start < steps[k].end) ++n[{k, op.device}];
    }
    return n;
}

std::vector<DigestStep> digestSteps(const GapCauses& causes) {
    std::vector<DigestStep> steps;
    for (const StepGaps& sg : causes.steps) { // by (step, device)
        if (steps.empty() || steps.back().start != sg.step.start ||
            steps.back().name != sg.step.name)
            steps.push_back({sg.step.name, sg.step.start, sg.step.end, {}});
        DigestDeviceStep d;
        d.device = sg.device;
        d.idle = sg.idle;
        d.busy = (sg.step.end - sg.step.start) - sg.idle;
        for (int c = 0; c < kGapCauseCount; ++c) {
            d.gapsByCause[size_t(c)] = sg.byCause[size_t(c)].count;
            d.idleByCause[size_t(c)] = sg.byCause[size_t(c)].idle;
        }
        steps.back().devices.push_back(d);
    }
    return steps;
}

} // namespace

RankDigest digestTrace(const TraceAnalysis& analysis, const std::string& file, int64_t index) {
    const Trace& t = analysis.trace();
    const GpuOpList& ops = analysis.gpuOps();
    const GapCauses& causes = analysis.gapCauses();
    RankDigest d;
    d.file = file;
    d.identity = rankIdentity(t, file, index);
    d.clock = clockHints(t);
    d.bounds = t.bounds();
    d.gapThreshold = analysis.settings().gapThreshold;
    d.stepPrefix = analysis.settings().stepPrefix;
    for (const GpuOp& op : ops.ops) {
        if (op.kind != SliceKind::Kernel) continue;
        ++d.kernels;
        d.kernelTime = addSaturating(d.kernelTime, op.duration()); // kernels may overlap
    }
    for (const DeviceGapStats& dev : causes.devices) {
        d.busy = addSaturating(d.busy, dev.busy);
        d.idle = addSaturating(d.idle, dev.idle);
    }
    d.collectives = findCollectives(t, ops);
    d.steps = digestSteps(causes);
    for (const auto& [key, n] : kernelsPerStep(ops, d.steps))
        for (DigestDeviceStep& dev : d.steps[key.first].devices)
            if (dev.device == key.second) dev.kernels = n;
    d.stepRoles = analysis.stepRoles();
    const std::vector<std::string>& own = t.warnings();
    for (size_t i = 0; i < own.size() && i < kMaxTraceWarnings; ++i) d.warnings.push_back(own[i]);
    if (own.size() > kMaxTraceWarnings)
        d.warnings.push_back("... and " + std::to_string(own.size() - kMaxTraceWarnings) +
                             " more warnings from loading the trace");
    d.warnings.insert(d.warnings.end(), causes.warnings.begin(), causes.warnings.end());
    return d;
}

} // namespace strata
