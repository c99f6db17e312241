#include "analysis/compare/trace_diff.h"

#include "analysis/compare/diff_kernel_configs.h"
#include "analysis/compare/diff_rule.h"
#include "analysis/compare/diff_sides.h"

#include "analysis/duration_stats.h"
#include "analysis/ops/gpu_ops.h"
#include "analysis/ops/op_stats.h"
#include "analysis/sections/section_stats.h"
#include "analysis/trace_analysis.h"
#include "analysis/trace_steps.h"
#include "model/names/cupti_names.h"
#include "model/names/display_name.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <thread>
#include <unordered_map>

namespace strata {

namespace {

using namespace diff_sides;
using namespace diff_configs;
using diff_rule::StepTotals;

// Every duration of each row, over the steps (when kept).
using RowDurations = std::map<std::string, std::vector<TimeNs>>;

struct StepTally {
    std::vector<TraceStep> steps;
    StepTotals kernels, ops, copies;
    StepTotals opsGpu; // the GPU time launched inside each CPU op name, per step
    bool keep = false; // keep every duration (a side made of steps: its rows come from them)
    RowDurations kernelDurations, opDurations, copyDurations;
    std::map<std::string, TimeNs> opGpuTotals; // kept: each CPU op name's GPU time, all steps

    // The step holding t (steps are outermost, sorted, disjoint), or -1.
    int64_t stepOf(TimeNs t) const {
        auto it = std::upper_bound(steps.begin(), steps.end(), t,
                                   [](TimeNs v, const TraceStep& s) { return v < s.start; });
        if (it == steps.begin()) return -1;
        --it;
        return t < it->end ? int64_t(it - steps.begin()) : -1;
    }
    void add(StepTotals& to, RowDurations& all, const std::string& name, int64_t step, TimeNs d) {
        std::vector<TimeNs>& v = to[name];
        if (v.empty()) v.assign(steps.size(), 0);
        v[size_t(step)] += d;
        if (keep) all[name].push_back(d);
    }
};

// The GPU time launched inside each CPU op name per step (op_stats.h's rule: once per name
// along the launch call's ancestors), by string id while tallying.
struct GpuUnderOps {
    std::unordered_map<StringId, std::vector<TimeNs>> perStep;
    std::vector<StringId> seen;
    void add(const Trace& t, SliceRef launch, size_t step, size_t steps, TimeNs d) {
        const SliceColumns& c = t.track(launch.track).slices;
        seen.clear();
        for (SliceIndex p = c.parent[launch.index]; p != kNoSlice; p = c.parent[p]) {
            if (!isCpuOpKind(c.kind[p])) continue;
            if (std::find(seen.begin(), seen.end(), c.name[p]) != seen.end()) continue;
            seen.push_back(c.name[p]);
            std::vector<TimeNs>& v = perStep[c.name[p]];
            if (v.empty()) v.assign(steps, 0);
            v[step] += d;
        }
    }
    void into(const Trace& t, StepTally& s) const {
        for (const auto& [id, v] : perStep) {
            const std::string name(t.str(id));
            s.opsGpu[name] = v;
            if (s.keep)
                for (TimeNs x : v) s.opGpuTotals[name] += x;
        }
    }
};

// The steps of `a`'s trace that start in `stepsIn` (its range when empty), and what each row
// spent in each, from `a`'s GPU ops and CPU slices (when there are at least `minSteps`; the
// slices of the steps themselves left out); `keep`: every duration kept too.
StepTally tallySteps(const TraceAnalysis& a, const SplitNames& split,
                     size_t minSteps = TraceDiff::kMinSteps, bool keep = false,
                     std::optional<TimeRange> stepsIn = std::nullopt) {
    StepTally s;
    s.keep = keep;
    const Trace& t = a.trace();
    const TimeRange in = stepsIn.value_or(a.range());
    for (TraceStep& step : findSteps(t, a.settings().stepPrefix))
        if (step.start >= in.start && step.start < in.end) s.steps.push_back(std::move(step));
    if (s.steps.empty() || s.steps.size() < minSteps) return s;
    auto isStep = [&s](SliceRef r) {
        return std::any_of(s.steps.begin(), s.steps.end(),
                           [r](const TraceStep& x) { return x.slice == r; });
    };
    GpuUnderOps gpu;
    for (const GpuOp& op : a.gpuOps().ops) {
        // A GPU op belongs to the step of its launch call (steps are the CPU's), else of its start.
        const SliceRef launch = t.launchOf(op.ref);
        const int64_t step = s.stepOf(launch.valid() ? t.start(launch) : op.start);
        if (step < 0) continue;
        if (launch.valid()) gpu.add(t, launch, size_t(step), s.steps.size(), op.duration());
        if (op.kind == SliceKind::Kernel)
            s.add(s.kernels, s.kernelDurations, kernelRowName(t, op.ref, split), step,
                  op.duration());
        else if (op.kind == SliceKind::Memcpy) {
            const GpuActivity* g = t.gpu(op.ref);
            s.add(s.copies, s.copyDurations, copyDiffName(g ? g->copyKind : 0, isPageableCopy(g)),
                  step, op.duration());
        }
    }
    gpu.into(t, s);
    for (TrackId ti = 0; ti < t.tracks().size(); ++ti) {
        const Track& tr = t.track(ti);
        if (tr.kind == TrackKind::GpuStream) continue;
        const SliceColumns& c = tr.slices;
        for (SliceIndex i = 0; i < c.size(); ++i) {
            if (!isCpuOpKind(c.kind[i])) continue;
            if (s.keep && isStep(SliceRef{ti, i})) continue; // a step is not its own row
            const int64_t step = s.stepOf(c.start[i]);
            if (step >= 0)
                s.add(s.ops, s.opDurations, std::string(t.str(c.name[i])), step, c.dur[i]);
        }
    }
    return s;
}

// The tally without the steps that start in `a` or `b` (the steps compared: the spread they are
// judged against is that of the others).
void dropSteps(StepTally& s, TimeRange a, TimeRange b) {
    std::vector<bool> keep(s.steps.size());
    for (size_t i = 0; i < s.steps.size(); ++i) {
        const TimeNs t = s.steps[i].start;
        keep[i] = !(t >= a.start && t < a.end) && !(t >= b.start && t < b.end);
    }
    auto filter = [&keep](StepTotals& totals) {
        for (auto& [name, v] : totals) {
            std::vector<TimeNs> kept;
            for (size_t i = 0; i < v.size(); ++i)
                if (keep[i]) kept.push_back(v[i]);
            v = std::move(kept);
        }
    };
    filter(s.kernels);
    filter(s.ops);
    filter(s.copies);
    filter(s.opsGpu);
    std::vector<TraceStep> steps;
    for (size_t i = 0; i < s.steps.size(); ++i)
        if (keep[i]) steps.push_back(s.steps[i]);
    s.steps = std::move(steps);
}

// A row's mean total per step and its spread, on one side.
void stepStats(const StepTotals& totals, const std::string& name, size_t steps, DiffSide& side) {
    const diff_rule::StepFigures f = diff_rule::stepFigures(totals, name, steps);
    side.stepMean = f.mean;
    side.stepSpread = f.spread;
}

// The same of the GPU time a CPU op launched.
void gpuStepStats(const StepTotals& totals, const std::string& name, size_t steps, DiffSide& side) {
    const diff_rule::StepFigures f = diff_rule::stepFigures(totals, name, steps);
    side.gpuStepMean = f.mean;
    side.gpuStepSpread = f.spread;
}

// Where each side's per-step totals are: of the rows' own time, of the GPU time CPU ops
// launched (null for other tables), and of the reference's.
struct RowSteps {
    const StepTotals *baseline = nullptr, *candidate = nullptr, *reference = nullptr;
};

// Matches the rows of both sides by name (one pass over the two sorted lists), fills their step
// figures and status, sorts them.
std::vector<DiffRow> matchRows(SideRows base, SideRows cand, RowSteps own, RowSteps gpu,
                               const TraceDiff& d) {
    // The names on both sides: counted first, so that the list is made once at its size.
    size_t both = 0;
    for (size_t i = 0, j = 0; i < base.size() && j < cand.size();) {
        const int c = base[i].first.compare(cand[j].first);
        both += c == 0;
        i += c <= 0;
        j += c >= 0;
    }
    std::vector<DiffRow> out;
    out.reserve(base.size() + cand.size() - both);
    for (size_t i = 0, j = 0; i < base.size() || j < cand.size();) {
        DiffRow r;
        const bool fromBase =
            i < base.size() && (j == cand.size() || base[i].first <= cand[j].first);
        const bool fromCand =
            j < cand.size() && (i == base.size() || cand[j].first <= base[i].first);
        if (fromBase) r.baseline = base[i].second;
        if (fromCand) r.candidate = cand[j].second;
        r.name = std::move(fromBase ? base[i++].first : cand[j].first);
        if (fromCand) ++j;
        r.launchesGpu = r.baseline.gpuTotal > 0 || r.candidate.gpuTotal > 0;
        if (d.bySteps) {
            stepStats(*own.baseline, r.name, d.baselineSteps, r.baseline);
            stepStats(*own.candidate, r.name, d.candidateSteps, r.candidate);
            if (gpu.baseline) {
                gpuStepStats(*gpu.baseline, r.name, d.baselineSteps, r.baseline);
                gpuStepStats(*gpu.candidate, r.name, d.candidateSteps, r.candidate);
            }
        }
        if (d.referenceSteps > 0) {
            r.referenceSpread =
                diff_rule::stepFigures(*own.reference, r.name, d.referenceSteps).spread;
            if (gpu.reference)
                r.referenceGpuSpread =
                    diff_rule::stepFigures(*gpu.reference, r.name, d.referenceSteps).spread;
        }
        r.status = diff_rule::statusOf(r, d);
        r.gpuStatus = diff_rule::gpuStatusOf(r, d);
        out.push_back(std::move(r));
    }
    std::sort(out.begin(), out.end(), [](const DiffRow& a, const DiffRow& b) {
        const TimeNs x = std::abs(a.deltaTotal()), y = std::abs(b.deltaTotal());
        return x != y ? x > y : a.name < b.name;
    });
    return out;
}

// The rows of a side made of steps, from the durations its steps hold (a GPU op in the step of
// its launch call): count, total, mean, median, p95.
SideRows tallySides(RowDurations& all) {
    SideRows out;
    out.reserve(all.size());
    for (auto& [name, v] : all) { // a map: sorted by name already
        const DurationStats st = summarizeDurations(v);
        out.push_back({name, sideOf(st.count, st.total, st.mean, st.median, st.p95)});
    }
    return out;
}

// The rows of a side made of steps with their CPU ops' GPU time.
SideRows withGpuTotals(SideRows rows, const std::map<std::string, TimeNs>& gpu) {
    for (auto& [name, side] : rows)
        if (const auto it = gpu.find(name); it != gpu.end()) side.gpuTotal = it->second;
    return rows;
}

// Each row's name as the rest of Strata shows it (Trace::displayName in the side that has it; a
// kernel's row per configuration: its name's, then the configuration).
void nameRows(std::vector<DiffRow>& rows, const Trace& b, const Trace& c, const SplitNames& split) {
    for (DiffRow& r : rows) {
        std::string_view name = r.name, config;
        if (const size_t at = r.name.rfind(" ["); !split.empty() && at != std::string::npos &&
                                                  r.name.back() == ']' &&
                                                  split.count(r.name.substr(0, at))) {
            name = name.substr(0, at);
            config = std::string_view(r.name).substr(at);
        }
        const StringPool& pb = b.strings();
        const Trace& t = pb.find(name) != StringPool::kNotFound ? b : c;
        r.shown = std::string(t.displayName(name)) + std::string(config);
    }
}

// The rows of the split kernels, one per configuration, from the side's GPU ops, in place of
// their rows by name.
void splitKernelSides(const TraceAnalysis& a, const SplitNames& split, SideRows& sides) {
    if (split.empty()) return;
    std::erase_if(sides, [&split](const auto& r) { return split.count(r.first) > 0; });
    RowDurations byConfig;
    const Trace& t = a.trace();
    for (const GpuOp& op : a.gpuOps().ops) {
        if (op.kind != SliceKind::Kernel) continue;
        const std::string name(t.str(t.track(op.ref.track).slices.name[op.ref.index]));
        if (split.count(name)) byConfig[kernelRowName(t, op.ref, split)].push_back(op.duration());
    }
    for (auto& row : tallySides(byConfig)) sides.push_back(std::move(row));
    sides = sortedByName(std::move(sides));
}

void fillDevices(const GapCauses& g, bool candidate, std::map<int32_t, DeviceDiff>& out) {
    for (const DeviceGapStats& s : g.devices) {
        DeviceDiff& d = out[s.device];
        d.device = s.device;
        DeviceDiffSide& side = candidate ? d.candidate : d.baseline;
        side.present = true;
        side.busy = s.busy;
        side.idle = s.idle;
    }
    for (const ExplainedGap& e : g.deviceGaps) {
        DeviceDiff& d = out[e.gap.device];
        d.device = e.gap.device;
        (candidate ? d.candidate : d.baseline).idleByCause[size_t(e.cause)] += e.gap.duration();
    }
}

// The steps of each side per device, the k-th of one side beside the k-th of the other.
std::vector<StepDiff> stepDiffs(const GapCauses& b, const GapCauses& c) {
    std::map<std::pair<size_t, int32_t>, StepDiff> out;
    for (int side = 0; side < 2; ++side) {
        const GapCauses& g = side ? c : b;
        std::map<int32_t, size_t> next; // per device: the index of its next step
        for (const StepGaps& s : g.steps) {
            const size_t index = next[s.device]++;
            StepDiff& d = out[{index, s.device}];
            d.index = index;
            d.device = s.device;
            StepDiffSide& x = side ? d.candidate : d.baseline;
            x.present = true;
            x.step = s.step.name;
            x.length = s.step.end - s.step.start;
            x.idle = s.idle;
            for (int k = 0; k < kGapCauseCount; ++k)
                x.idleByCause[size_t(k)] = s.byCause[size_t(k)].idle;
        }
    }
    std::vector<StepDiff> v;
    for (auto& [key, d] : out) v.push_back(std::move(d));
    return v;
}

} // namespace

const char* diffStatusName(DiffStatus s) {
    switch (s) {
    case DiffStatus::Same:
        return "same";
    case DiffStatus::Changed:
        return "changed";
    case DiffStatus::Added:
        return "added";
    case DiffStatus::Removed:
        return "removed";
    }
    return "same";
}

double DiffRow::deltaShare() const {
    return baseline.total > 0 ? double(deltaTotal()) / double(baseline.total) : 0;
}

std::string DiffRow::shownName() const {
    return shown.empty() ? shortName(name) : shown;
}

std::string copyDiffName(uint8_t copyKind, bool pageable) {
    std::string k(copyKindName(copyKind));
    if (k.empty()) k = "unknown";
    return pageable ? k + " (pageable)" : k;
}

namespace {

// The kernel, op and copy rows of two sides tallied by launch (`sr`: the reference's steps, for
// the spread, or none).
void matchTallies(StepTally& tb, StepTally& tc, StepTally& sr, TraceDiff& d) {
    d.kernels = matchRows(tallySides(tb.kernelDurations), tallySides(tc.kernelDurations),
                          {&tb.kernels, &tc.kernels, &sr.kernels}, {}, d);
    d.ops = matchRows(withGpuTotals(tallySides(tb.opDurations), tb.opGpuTotals),
                      withGpuTotals(tallySides(tc.opDurations), tc.opGpuTotals),
                      {&tb.ops, &tc.ops, &sr.ops}, {&tb.opsGpu, &tc.opsGpu, &sr.opsGpu}, d);
    d.copies = matchRows(tallySides(tb.copyDurations), tallySides(tc.copyDurations),
                         {&tb.copies, &tc.copies, &sr.copies}, {}, d);
}

} // namespace

TraceDiff diffTraces(const TraceAnalysis& baseline, const TraceAnalysis& candidate,
                     const TraceAnalysis* reference) {
    TraceDiff d;
    // The two sides' analyses are independent: the baseline's on a second thread.
    std::thread ops([&] { baseline.gpuOps(); });
    candidate.gpuOps();
    ops.join();
    const SplitNames split = multiConfigKernels(baseline, candidate);
    StepTally sb, sc;
    std::thread other([&] {
        baseline.opStats();
        baseline.gapCauses();
        sb = tallySteps(baseline, split);
    });
    candidate.opStats();
    candidate.gapCauses();
    sc = tallySteps(candidate, split);
    other.join();
    d.baselineSteps = sb.steps.size();
    d.candidateSteps = sc.steps.size();
    d.bySteps = d.baselineSteps >= TraceDiff::kMinSteps && d.candidateSteps >= TraceDiff::kMinSteps;
    // Too few steps a side, but both are steps of a run whose steps measure the spread.
    StepTally sr;
    if (!d.bySteps && reference && d.baselineSteps > 0 && d.candidateSteps > 0) {
        // Kernels by name here: the configurations of the GPU ops that *start* in two steps'
        // times differ by the GPU's lag alone, not by what the steps launched.
        sr = tallySteps(*reference, SplitNames{});
        dropSteps(sr, baseline.range(), candidate.range());
        if (sr.steps.size() >= TraceDiff::kMinSteps) d.referenceSteps = sr.steps.size();
    }
    // Steps against steps with too few steps for a spread (issue 46: two single steps chosen
    // with --baseline-step and --candidate-step): each side's GPU ops are still those its step
    // launched, from the whole trace, not those that start in its CPU time.
    const bool stepsAlone = d.referenceSteps == 0 && !d.bySteps && d.baselineSteps > 0 &&
                            d.candidateSteps > 0 && !isWholeTrace(baseline.range()) &&
                            !isWholeTrace(candidate.range());
    if (stepsAlone) {
        const TraceAnalysis wb(baseline.tracePtr(), baseline.settings());
        const TraceAnalysis wc(candidate.tracePtr(), candidate.settings());
        StepTally tb, tc;
        std::thread side([&] { tb = tallySteps(wb, split, 1, true, baseline.range()); });
        tc = tallySteps(wc, split, 1, true, candidate.range());
        side.join();
        matchTallies(tb, tc, sr, d);
    } else if (d.referenceSteps > 0) {
        // Steps against steps: a GPU op counts in the step of its launch call on both sides, as
        // in the spread (its start can lie in the next step's CPU time: the GPU runs behind).
        StepTally tb = tallySteps(*reference, SplitNames{}, 1, true, baseline.range());
        StepTally tc = tallySteps(*reference, SplitNames{}, 1, true, candidate.range());
        matchTallies(tb, tc, sr, d);
    } else {
        const OpStats& b = baseline.opStats();
        const OpStats& c = candidate.opStats();
        SideRows kb = kernelSides(b), kc = kernelSides(c);
        splitKernelSides(baseline, split, kb);
        splitKernelSides(candidate, split, kc);
        d.kernels =
            matchRows(std::move(kb), std::move(kc), {&sb.kernels, &sc.kernels, &sr.kernels}, {}, d);
        d.ops = matchRows(opSides(b, baseline), opSides(c, candidate), {&sb.ops, &sc.ops, &sr.ops},
                          {&sb.opsGpu, &sc.opsGpu, &sr.opsGpu}, d);
        d.copies = matchRows(copySides(b, baseline), copySides(c, candidate),
                             {&sb.copies, &sc.copies, &sr.copies}, {}, d);
    }
    TraceDiff plain; // the rule without steps
    d.sections = matchRows(sectionSides(baseline, &d.sectionsInNs),
                           sectionSides(candidate, &d.sectionsInNs), {}, {}, plain);
    nameRows(d.kernels, baseline.trace(), candidate.trace(), split);
    nameRows(d.ops, baseline.trace(), candidate.trace(), split);
    std::map<int32_t, DeviceDiff> devices;
    fillDevices(baseline.gapCauses(), false, devices);
    fillDevices(candidate.gapCauses(), true, devices);
    for (auto& [id, dev] : devices) d.devices.push_back(dev);
    d.steps = stepDiffs(baseline.gapCauses(), candidate.gapCauses());
    return d;
}

} // namespace strata
