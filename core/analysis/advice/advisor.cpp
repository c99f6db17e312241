#include "analysis/advice/advisor.h"

#include "analysis/advice/advisor_rules.h"
#include "analysis/analysis_settings.h"
#include "model/names/time_text.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

namespace strata {

namespace advice {

std::string pct(double share) {
    char b[32];
    std::snprintf(b, sizeof b, "%.1f %%", 100.0 * share);
    return b;
}

// Measured times in 4 significant digits ("459.1 ms of 1.172 s"; the evidence has them exact),
// settings (the gap threshold) as they were given.
std::string dur(TimeNs ns) {
    return formatDuration(ns);
}
std::string setting(TimeNs ns) {
    return formatPreciseDuration(ns);
}

bool usesTorchCompile(const Trace& t) {
    for (StringId i = 0; i < StringId(t.strings().size()); ++i) {
        const std::string_view n = t.str(i);
        if (n.find("Torch-Compiled Region") != std::string_view::npos ||
            n.find("CompiledFunction") != std::string_view::npos ||
            n.find("torch/_dynamo") != std::string_view::npos ||
            n.find("TorchDynamo") != std::string_view::npos)
            return true;
    }
    return false;
}

std::string fewerLaunchesAdvice(const Context& c) {
    return c.compiled ? "the trace already runs under torch.compile: compile with "
                        "mode=\"reduce-overhead\" (CUDA graphs) so its kernels replay without a "
                        "CPU launch each"
                      : "fuse them (torch.compile) or replay them as a CUDA graph";
}

namespace {

// Whether most of the run's kernels were launched under aten::zero_ or a zero_grad frame (the
// optimizer zeroing each gradient with a kernel of its own).
bool fromZeroGrad(const Trace& t, const std::vector<SliceRef>& kernels) {
    size_t zero = 0;
    for (SliceRef k : kernels) {
        const SliceRef launch = t.launchOf(k);
        if (!launch.valid()) continue;
        for (SliceRef a : t.ancestors(launch)) {
            const std::string_view n = t.name(a);
            if (n == "aten::zero_" || n.find("zero_grad") != std::string_view::npos) {
                ++zero;
                break;
            }
        }
    }
    return 2 * zero > kernels.size();
}

} // namespace

// Runs of short kernels (each under 50 µs, at most 1 ms apart) on a device, 16 or more long;
// the launch-bound part of the gaps inside a run is what a CUDA graph replay would save.
void graphsRule(const Context& c, Advice& a) {
    const Trace& t = c.trace;
    const GpuOpList& ops = c.ops;
    constexpr TimeNs kShort = 50'000, kApart = 1'000'000;
    constexpr size_t kMinRun = 16;
    struct Run {
        int32_t device;
        TimeNs start, end, saved = 0;
        size_t kernels = 0;
        std::vector<SliceRef> refs;
    };
    std::vector<Run> runs;
    std::vector<const GpuOp*> byStart;
    for (const GpuOp& o : ops.ops)
        if (o.kind == SliceKind::Kernel) byStart.push_back(&o);
    std::sort(byStart.begin(), byStart.end(), [](const GpuOp* x, const GpuOp* y) {
        return x->device != y->device ? x->device < y->device : x->start < y->start;
    });
    // Gaps over the threshold the CPU's launching did not cause (the thread blocked: a sync, a
    // pageable copy; a first launch, a graph capture, a wait on nothing recorded): a graph
    // replay would not remove them, so the run saves nothing there (issue 44).
    std::set<std::pair<int32_t, TimeNs>> notLaunchBound; // (device, the gap's end)
    for (const ExplainedGap& e : c.gaps.deviceGaps)
        if (e.cause == GapCause::Synchronization || e.captured() || e.causeNotVisible() ||
            2 * e.breakdown.warmUp > e.breakdown.of(GapPartKind::Launch))
            notLaunchBound.insert({e.gap.device, e.gap.end});
    Run cur{};
    TimeNs prevEnd = 0;
    auto close = [&] {
        if (cur.kernels >= kMinRun && cur.saved > 0) runs.push_back(cur);
        cur = Run{};
    };
    for (const GpuOp* o : byStart) {
        const bool joins = cur.kernels > 0 && o->device == cur.device && o->duration() < kShort &&
                           o->start - prevEnd <= kApart;
        if (!joins) {
            close();
            if (o->duration() >= kShort) continue;
            cur = Run{o->device, o->start, o->end, 0, 1, {o->ref}};
            prevEnd = o->end;
            continue;
        }
        if (o->start > prevEnd) {
            const SliceRef l = t.launchOf(o->ref);
            if (l.valid() && t.start(l) > prevEnd && // the CPU launched it after the GPU ran dry
                !notLaunchBound.count({o->device, o->start}))
                cur.saved += std::min(o->start, t.start(l)) - prevEnd;
        }
        ++cur.kernels;
        cur.refs.push_back(o->ref);
        cur.end = std::max(cur.end, o->end);
        prevEnd = std::max(prevEnd, o->end);
    }
    close();
    std::sort(runs.begin(), runs.end(),
              [](const Run& x, const Run& y) { return x.saved > y.saved; });
    TimeNs total = 0;
    for (const Run& r : runs) total += r.saved;
    if (runs.empty()) return;
    Finding f;
    f.rule = "graphs";
    f.severity = FindingSeverity::Warning;
    f.saving = total;
    f.title = std::to_string(runs.size()) +
              " run(s) of short kernels separated by launch gaps: "
              "candidates for a CUDA graph or fusion (about " +
              dur(total) + " to save)";
    const Run& r = runs.front();
    f.detail = "The largest: GPU " + std::to_string(r.device) + ", " + std::to_string(r.kernels) +
               " kernels under 50 µs each over " + dur(r.end - r.start) + ", waiting " +
               dur(r.saved) + " on late launches. ";
    if (fromZeroGrad(t, r.refs))
        f.detail += "Most of its kernels zero gradients (aten::zero_ under zero_grad): "
                    "optimizer.zero_grad(set_to_none=True) (the default since PyTorch 2.0) drops "
                    "the gradients instead of launching a kernel for each. ";
    else if (c.compiled)
        f.detail += "The trace already runs under torch.compile: compile with "
                    "mode=\"reduce-overhead\" and the run replays as a CUDA graph without a CPU "
                    "launch per kernel. ";
    else
        f.detail += "Captured as a CUDA graph (torch.cuda.graphs, cudaStreamBeginCapture) the run "
                    "replays without a CPU launch per kernel. ";
    f.detail += "The estimate is the launch-bound gap time inside the runs.";
    f.evidence = {{"runs", double(runs.size())},
                  {"estimated_saving_us", double(total) / 1e3},
                  {"largest_run_kernels", double(r.kernels)}};
    for (size_t i = 0; i < runs.size() && i < 3; ++i)
        f.where.push_back({runs[i].start, runs[i].end});
    a.findings.push_back(std::move(f));
}

// Copies from or to pageable host memory (the copies of op_stats.h with `pageable`): pinned
// memory makes them faster and keeps the host from blocking in them.
void pageableRule(const Context& c, Advice& a) {
    const Trace& t = c.trace;
    const GpuOpList& ops = c.ops;
    uint64_t n = 0, bytes = 0;
    TimeNs time = 0;
    std::vector<TimeRange> where;
    for (const GpuOp& o : ops.ops) {
        if (o.kind != SliceKind::Memcpy) continue;
        const GpuActivity* g = t.gpu(o.ref);
        if (!g || (g->srcMemory != 1 && g->dstMemory != 1)) continue;
        ++n;
        bytes += g->bytes > 0 ? uint64_t(g->bytes) : 0;
        time += o.duration();
        if (where.size() < 3) where.push_back({o.start, o.end});
    }
    if (!n) return;
    const TimeNs blocked = pageableBlockedWhileIdle(c);
    Finding f;
    f.rule = "pageable";
    f.severity = FindingSeverity::Warning;
    // Pinned, the copies run faster (at most their time) and the host does not block in them
    // (the time it blocked while the GPU idled): the larger of the two.
    f.saving = std::max(time, blocked);
    char size[32];
    if (bytes >= 1'000'000)
        std::snprintf(size, sizeof size, "%.1f MB", double(bytes) / 1e6);
    else
        std::snprintf(size, sizeof size, "%.1f kB", double(bytes) / 1e3);
    f.title = std::to_string(n) + " copies to or from pageable host memory (" + size + ", " +
              dur(time) + " on the GPU)";
    if (blocked > 0)
        f.title +=
            ": the launching thread was blocked in them " + dur(blocked) + " while the GPU idled";
    f.detail = "A copy to or from pageable memory is staged through a pinned buffer by the "
               "driver: slower, and synchronous with the host even as cudaMemcpyAsync, so the "
               "thread cannot launch the next work meanwhile. Pin the host memory "
               "(DataLoader(pin_memory=True), tensor.pin_memory(), cudaHostAlloc) and copy with "
               "non_blocking=True into pinned buffers (for device-to-host copies, a pinned "
               "destination and an event to wait on).";
    f.evidence = {{"copies", double(n)},
                  {"bytes", double(bytes)},
                  {"time_us", double(time) / 1e3},
                  {"blocked_while_idle_us", double(blocked) / 1e3}};
    f.where = where;
    a.findings.push_back(std::move(f));
}

// The time the launching threads spent blocked in calls of this name inside device gaps (the
// gaps' blocked parts): what the GPU lost to them directly.
TimeNs blockedWhileIdle(const Context& c, std::string_view name) {
    TimeNs t = 0;
    for (const ExplainedGap& e : c.gaps.deviceGaps) {
        if (!countsForSaving(c.gaps, e) || e.causeNotVisible()) continue;
        for (const GapPart& p : e.breakdown.parts)
            if (p.kind == GapPartKind::Blocked && c.trace.str(p.name) == name) t += p.time;
    }
    return t;
}

void syncRule(const Context& c, const std::vector<TraceStep>& steps, Advice& a) {
    const Trace& t = c.trace;
    const TimeRange range = c.ops.range;
    std::map<std::string, std::vector<TimeRange>> calls; // blocking call name -> where
    for (TrackId ti = 0; ti < t.tracks().size(); ++ti) {
        const Track& tr = t.track(ti);
        if (tr.kind == TrackKind::GpuStream) continue;
        const SliceColumns& s = tr.slices;
        for (SliceIndex i = 0; i < s.size(); ++i)
            if (isLaunchApiKind(s.kind[i]) && range.contains(s.start[i]) &&
                isBlockingCallName(t.str(s.name[i])))
                calls[std::string(t.str(s.name[i]))].push_back({s.start[i], s.end(i)});
    }
    for (auto& [name, where] : calls) {
        size_t stepsWith = 0;
        for (const TraceStep& s : steps)
            if (std::any_of(where.begin(), where.end(), [&](const TimeRange& w) {
                    return w.start >= s.start && w.start < s.end;
                }))
                ++stepsWith;
        const bool loop = steps.size() >= 2 ? stepsWith == steps.size() : where.size() >= 10;
        if (!loop) continue;
        TimeNs time = 0;
        for (const TimeRange& w : where) time += w.duration();
        Finding f;
        f.rule = "sync_in_loop";
        f.severity = FindingSeverity::Warning;
        f.saving = blockedWhileIdle(c, name);
        f.title =
            name + " called " + std::to_string(where.size()) + " times" +
            (steps.size() >= 2 ? " (in every one of " + std::to_string(steps.size()) + " steps)"
                               : "") +
            ", " + dur(time) + " blocked, " + dur(f.saving) + " of it while the GPU was idle";
        f.detail = "A blocking call inside the loop waits for the GPU to drain its queue. The "
                   "time it blocked while the GPU idled is what moving it out of the loop (or "
                   "replacing it with cudaEventRecord / cudaStreamWaitEvent) saves directly; the "
                   "gaps after it are listed under their own causes (the CPU work that follows "
                   "a sync is usually the larger part).";
        f.evidence = {{"calls", double(where.size())},
                      {"blocked_us", double(time) / 1e3},
                      {"blocked_while_idle_us", double(f.saving) / 1e3}};
        for (size_t i = 0; i < where.size() && i < 3; ++i) f.where.push_back(where[i]);
        a.findings.push_back(std::move(f));
    }
}

} // namespace advice

const char* findingSeverityName(FindingSeverity s) {
    switch (s) {
    case FindingSeverity::Info:
        return "info";
    case FindingSeverity::Warning:
        return "warning";
    case FindingSeverity::NotApplicable:
        return "not_applicable";
    }
    return "info";
}

Advice adviseTrace(const Trace& t, TimeRange range) {
    const GpuOpList ops = collectGpuOps(t, range);
    return adviseTrace(t, ops, explainGpuGaps(t, ops, AnalysisSettings::kDefaultGapThreshold));
}

namespace {

// A saving this large a share of the basis makes a finding a warning (advisor.h).
constexpr double kWarnShare = 0.05;

// Each finding's share of the basis, its severity from it (a rule's Info stays Info), and the
// findings by saving, largest first; not applicable last.
void rank(Advice& a) {
    for (Finding& f : a.findings) {
        f.savingShare = a.basis > 0 ? double(f.saving) / double(a.basis) : 0;
        if (f.severity == FindingSeverity::Warning && f.savingShare < kWarnShare)
            f.severity = FindingSeverity::Info;
    }
    std::stable_sort(a.findings.begin(), a.findings.end(), [](const Finding& x, const Finding& y) {
        const bool xn = x.severity == FindingSeverity::NotApplicable;
        const bool yn = y.severity == FindingSeverity::NotApplicable;
        if (xn != yn) return yn;
        if (x.saving != y.saving) return x.saving > y.saving;
        return x.severity == FindingSeverity::Warning && y.severity != FindingSeverity::Warning;
    });
}

} // namespace

Advice adviseTrace(const Trace& t, const GpuOpList& ops, const GapCauses& g) {
    Advice a;
    a.warnings = g.warnings;
    // The steps' device time (a step's length once per device), else the devices' spans.
    for (const StepGaps& s : g.steps) a.basis += s.step.end - s.step.start;
    a.basisIsSteps = a.basis > 0;
    if (!a.basisIsSteps)
        for (const DeviceGapStats& d : g.devices) a.basis += d.lastEnd - d.firstStart;
    const advice::Context c{t, ops, g, a.basis, advice::usesTorchCompile(t)};
    advice::gapCauseRules(c, a);
    advice::shortGapsRule(c, a);
    advice::graphsRule(c, a);
    advice::pageableRule(c, a);
    advice::syncRule(c, findSteps(t, g.stepPrefix), a);
    advice::occupancyRule(c, a);
    rank(a);
    return a;
}

} // namespace strata
