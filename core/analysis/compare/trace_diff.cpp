#include "analysis/compare/trace_diff.h"

#include "analysis/compare/diff_sides.h"

#include "analysis/duration_stats.h"
#include "analysis/ops/gpu_ops.h"
#include "analysis/ops/op_stats.h"
#include "analysis/sections/section_stats.h"
#include "analysis/trace_analysis.h"
#include "analysis/trace_steps.h"
#include "model/names/cupti_names.h"

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

// "grid 128x1x1, block 256x1x1" ("" when the op carries none).
std::string launchConfig(const GpuActivity* g) {
    if (!g || (!g->grid[0] && !g->block[0])) return {};
    auto dim = [](const std::array<int32_t, 3>& d) {
        return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
    };
    return "grid " + dim(g->grid) + ", block " + dim(g->block);
}

// The kernels whose launch configurations differ between the sides (both launch them, not with
// the same set of configurations): their rows are one per configuration ("name [grid 128x1x1,
// block 256x1x1]"), so that a change of configuration shows as one removed and one added row.
// A kernel launched the same ways on both sides (an elementwise kernel's grid follows its
// tensor's size) keeps one row.
using SplitNames = std::set<std::string>;
using Config = std::array<int32_t, 6>; // grid, block
using KernelConfig = std::pair<StringId, Config>;

// Every distinct (kernel name, configuration) of a side, sorted: a flat list, compacted as it
// grows (to twice its distinct pairs at most), so that neither many launches nor many names
// cost a container each.
std::vector<KernelConfig> kernelConfigs(const TraceAnalysis& x) {
    const Trace& t = x.trace();
    std::vector<KernelConfig> v;
    size_t compactAt = 1 << 16;
    auto compact = [&v] {
        std::sort(v.begin(), v.end());
        v.erase(std::unique(v.begin(), v.end()), v.end());
    };
    for (const GpuOp& op : x.gpuOps().ops) {
        if (op.kind != SliceKind::Kernel) continue;
        const GpuActivity* g = t.gpu(op.ref);
        Config c{};
        if (g) c = {g->grid[0], g->grid[1], g->grid[2], g->block[0], g->block[1], g->block[2]};
        const StringId name = t.track(op.ref.track).slices.name[op.ref.index];
        if (!v.empty() && v.back().first == name && v.back().second == c) continue; // repeats
        v.push_back({name, c});
        if (v.size() >= compactAt) {
            compact();
            compactAt = std::max(compactAt, 2 * v.size());
        }
    }
    compact();
    return v;
}

SplitNames multiConfigKernels(const TraceAnalysis& a, const TraceAnalysis& b) {
    const std::vector<KernelConfig> ca = kernelConfigs(a), cb = kernelConfigs(b);
    const Trace& ta = a.trace();
    const StringPool& pb = b.trace().strings();
    auto sameName = [](const KernelConfig& x, const KernelConfig& y) { return x.first < y.first; };
    SplitNames out;
    for (auto i = ca.begin(); i != ca.end();) {
        const auto end = std::upper_bound(i, ca.end(), *i, sameName); // this name's configs
        const std::string_view name = ta.str(i->first);
        const StringId other = pb.find(name); // the same name in b (b's own string ids)
        if (other != StringPool::kNotFound) {
            const auto [lo, hi] =
                std::equal_range(cb.begin(), cb.end(), KernelConfig{other, Config{}}, sameName);
            const bool same = std::equal(
                i, end, lo, hi, [](const auto& x, const auto& y) { return x.second == y.second; });
            if (lo != hi && !same) out.emplace(name);
        }
        i = end;
    }
    return out;
}

// A kernel's row name: its name, with its configuration when its name is split.
std::string kernelRowName(const Trace& t, SliceRef r, const SplitNames& split) {
    std::string name(t.str(t.track(r.track).slices.name[r.index]));
    if (split.empty() || !split.count(name)) return name;
    const std::string config = launchConfig(t.gpu(r));
    return name + " [" + (config.empty() ? std::string("no launch configuration") : config) + "]";
}

// Per-step totals of each row, on one side: totals[name][step].
using StepTotals = std::unordered_map<std::string, std::vector<TimeNs>>;
// Every duration of each row, over the steps (when kept).
using RowDurations = std::map<std::string, std::vector<TimeNs>>;

struct StepTally {
    std::vector<TraceStep> steps;
    StepTotals kernels, ops, copies;
    bool keep = false; // keep every duration (a side made of steps: its rows come from them)
    RowDurations kernelDurations, opDurations, copyDurations;

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
    for (const GpuOp& op : a.gpuOps().ops) {
        // A GPU op belongs to the step of its launch call (steps are the CPU's), else of its start.
        const SliceRef launch = t.launchOf(op.ref);
        const int64_t step = s.stepOf(launch.valid() ? t.start(launch) : op.start);
        if (step < 0) continue;
        if (op.kind == SliceKind::Kernel)
            s.add(s.kernels, s.kernelDurations, kernelRowName(t, op.ref, split), step,
                  op.duration());
        else if (op.kind == SliceKind::Memcpy) {
            const GpuActivity* g = t.gpu(op.ref);
            s.add(s.copies, s.copyDurations, copyDiffName(g ? g->copyKind : 0, isPageableCopy(g)),
                  step, op.duration());
        }
    }
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
    std::vector<TraceStep> steps;
    for (size_t i = 0; i < s.steps.size(); ++i)
        if (keep[i]) steps.push_back(s.steps[i]);
    s.steps = std::move(steps);
}

// Mean and sample standard deviation of a row's per-step totals (0 in every step when absent).
void stepStats(const StepTotals& totals, const std::string& name, size_t steps, DiffSide& side) {
    if (steps == 0) return;
    auto it = totals.find(name);
    std::vector<TimeNs> v = it != totals.end() ? it->second : std::vector<TimeNs>(steps, 0);
    double sum = 0;
    for (TimeNs x : v) sum += double(x);
    side.stepMean = sum / double(steps);
    double sq = 0;
    for (TimeNs x : v) sq += (double(x) - side.stepMean) * (double(x) - side.stepMean);
    side.stepSpread = steps > 1 ? std::sqrt(sq / double(steps - 1)) : 0;
}

// Student's t, two-sided 95 %, for `df` degrees of freedom (2 past 30: the "twice" of the rule).
double tCritical(size_t df) {
    static constexpr double t[] = {0,    12.71, 4.30, 3.18, 2.78, 2.57, 2.45, 2.36,
                                   2.31, 2.26,  2.23, 2.20, 2.18, 2.16, 2.14, 2.13,
                                   2.12, 2.11,  2.10, 2.09, 2.09, 2.08, 2.07, 2.07,
                                   2.06, 2.06,  2.06, 2.05, 2.05, 2.05, 2.04};
    return df >= 1 && df < std::size(t) ? t[df] : 2.0;
}

DiffStatus statusOf(const DiffRow& r, const TraceDiff& d) {
    const bool bySteps = d.bySteps;
    const size_t nb = d.baselineSteps, nc = d.candidateSteps;
    if (r.baseline.count == 0 && r.candidate.count > 0) return DiffStatus::Added;
    if (r.candidate.count == 0 && r.baseline.count > 0) return DiffStatus::Removed;
    if (d.referenceSteps > 0) {
        const double diff = std::abs(double(r.deltaTotal()));
        const double sd = r.referenceSpread * std::sqrt(double(nb + nc));
        return diff > tCritical(d.referenceSteps - 1) * sd &&
                       diff >= 0.01 * double(r.baseline.total)
                   ? DiffStatus::Changed
                   : DiffStatus::Same;
    }
    if (bySteps) {
        const double diff = std::abs(r.candidate.stepMean - r.baseline.stepMean);
        const double se = std::sqrt(r.baseline.stepSpread * r.baseline.stepSpread / double(nb) +
                                    r.candidate.stepSpread * r.candidate.stepSpread / double(nc));
        return diff > 2 * se && diff >= 0.01 * r.baseline.stepMean ? DiffStatus::Changed
                                                                   : DiffStatus::Same;
    }
    if (r.baseline.count != r.candidate.count) return DiffStatus::Changed;
    const double delta = std::abs(double(r.deltaTotal()));
    return delta >= 0.05 * double(r.baseline.total) && delta >= 1000.0 ? DiffStatus::Changed
                                                                       : DiffStatus::Same;
}

// Matches the rows of both sides by name (one pass over the two sorted lists), fills their step
// figures and status, sorts them.
std::vector<DiffRow> matchRows(SideRows base, SideRows cand, const StepTotals* sb,
                               const StepTotals* sc, const StepTotals* sr, const TraceDiff& d) {
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
        if (d.bySteps) {
            stepStats(*sb, r.name, d.baselineSteps, r.baseline);
            stepStats(*sc, r.name, d.candidateSteps, r.candidate);
        }
        if (d.referenceSteps > 0) {
            DiffSide reference;
            stepStats(*sr, r.name, d.referenceSteps, reference);
            r.referenceSpread = reference.stepSpread;
        }
        r.status = statusOf(r, d);
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
        out.push_back({name, {st.count, st.total, st.mean, st.median, st.p95, 0, 0}});
    }
    return out;
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

std::string copyDiffName(uint8_t copyKind, bool pageable) {
    std::string k(copyKindName(copyKind));
    if (k.empty()) k = "unknown";
    return pageable ? k + " (pageable)" : k;
}

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
    if (d.referenceSteps > 0) {
        // Steps against steps: a GPU op counts in the step of its launch call on both sides, as
        // in the spread (its start can lie in the next step's CPU time: the GPU runs behind).
        StepTally tb = tallySteps(*reference, SplitNames{}, 1, true, baseline.range());
        StepTally tc = tallySteps(*reference, SplitNames{}, 1, true, candidate.range());
        d.kernels = matchRows(tallySides(tb.kernelDurations), tallySides(tc.kernelDurations),
                              &tb.kernels, &tc.kernels, &sr.kernels, d);
        d.ops = matchRows(tallySides(tb.opDurations), tallySides(tc.opDurations), &tb.ops, &tc.ops,
                          &sr.ops, d);
        d.copies = matchRows(tallySides(tb.copyDurations), tallySides(tc.copyDurations), &tb.copies,
                             &tc.copies, &sr.copies, d);
    } else {
        const OpStats& b = baseline.opStats();
        const OpStats& c = candidate.opStats();
        SideRows kb = kernelSides(b), kc = kernelSides(c);
        splitKernelSides(baseline, split, kb);
        splitKernelSides(candidate, split, kc);
        d.kernels =
            matchRows(std::move(kb), std::move(kc), &sb.kernels, &sc.kernels, &sr.kernels, d);
        d.ops = matchRows(opSides(b), opSides(c), &sb.ops, &sc.ops, &sr.ops, d);
        d.copies = matchRows(copySides(b), copySides(c), &sb.copies, &sc.copies, &sr.copies, d);
    }
    TraceDiff plain; // the rule without steps
    d.sections =
        matchRows(sectionSides(baseline, &d.sectionsInNs), sectionSides(candidate, &d.sectionsInNs),
                  nullptr, nullptr, nullptr, plain);
    std::map<int32_t, DeviceDiff> devices;
    fillDevices(baseline.gapCauses(), false, devices);
    fillDevices(candidate.gapCauses(), true, devices);
    for (auto& [id, dev] : devices) d.devices.push_back(dev);
    d.steps = stepDiffs(baseline.gapCauses(), candidate.gapCauses());
    return d;
}

} // namespace strata
