// The advisor's findings from the gap causes (advisor.h): one per cause with the idle time of its
// gaps as the saving and what the launching threads did in them, and per device the idle time in
// gaps too short to be explained.
#include "analysis/advice/advisor_rules.h"
#include "analysis/gaps/gap_text.h"
#include "analysis/gaps/host_waits.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace strata::advice {

namespace {

// The cause groups, then what no saving is claimed for (issue 44): kernels' first launches (a
// one-time warm-up), graph captures (their launches run no kernel by design) and time whose cause
// the trace does not show.
enum Group {
    InputPipeline,
    CpuBound,
    LaunchOverhead,
    Synchronization,
    Dependency,
    WarmUp,
    Capture,
    NotVisible,
    kGroups
};

struct Totals {
    uint64_t gaps = 0;
    TimeNs idle = 0;
    TimeNs launch = 0, moduleLoading = 0; // launch calls, and module loading among them
    std::vector<const ExplainedGap*> longest;
    // What the time went to, summed over the gaps: (kind, name, context) -> time. For a
    // dependency, what it waited on (name: the op, kNoName: not visible).
    std::map<std::tuple<GapPartKind, StringId, StringId>, TimeNs> parts;
};

// Whether most of a gap's launch time loaded kernel modules (a first launch, or a driver call that
// loads one: gap_text.h).
bool mostlyWarmUp(const Trace& t, const ExplainedGap& e) {
    TimeNs warm = 0;
    for (const GapPart& p : e.breakdown.parts)
        if (p.kind == GapPartKind::Launch && (p.warmUp || isModuleLoadingName(t.str(p.name))))
            warm += p.time;
    return 2 * warm > e.breakdown.of(GapPartKind::Launch);
}

int groupOf(const Trace& t, const ExplainedGap& e) {
    if (e.captured()) return Capture;
    if (e.causeNotVisible()) return NotVisible;
    switch (e.cause) {
    case GapCause::LaunchBound:
        return e.inputPipeline ? InputPipeline : CpuBound;
    case GapCause::LaunchOverhead:
        return mostlyWarmUp(t, e) ? WarmUp : LaunchOverhead;
    case GapCause::Synchronization:
        // Blocked in a pageable copy: the pageable rule's (advisor.cpp).
        if (e.blockingCall.valid() && isAsyncCopyName(t.name(e.blockingCall))) return -1;
        return Synchronization;
    case GapCause::Dependency:
        return Dependency;
    case GapCause::Unattributed:
        break;
    }
    return -1;
}

bool counts(int group, GapPartKind k) {
    switch (group) {
    case InputPipeline:
    case CpuBound:
        return k == GapPartKind::Cpu || k == GapPartKind::Untraced;
    case Capture:
        return k == GapPartKind::Cpu || k == GapPartKind::Untraced || k == GapPartKind::Launch;
    case LaunchOverhead:
    case WarmUp:
        return k == GapPartKind::Launch;
    case NotVisible:
        return k == GapPartKind::Blocked;
    case Synchronization:
        return k == GapPartKind::Blocked;
    default:
        return false;
    }
}

// The three largest parts, "name in context 12.3 ms, ...".
std::string topParts(const Trace& t, const Totals& g, size_t n = 3) {
    std::vector<std::pair<TimeNs, GapPart>> v;
    for (const auto& [k, time] : g.parts)
        v.push_back(
            {time, GapPart{std::get<0>(k), std::get<1>(k), std::get<2>(k), time, 1, false}});
    std::sort(v.begin(), v.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
    std::string s;
    for (size_t i = 0; i < v.size() && i < n; ++i)
        s += (i ? "; " : "") + gapPartText(t, v[i].second, 100) + " " + dur(v[i].first);
    return s;
}

std::string waitedOnText(const Trace& t, const Totals& g) {
    std::string s;
    size_t i = 0;
    std::vector<std::pair<TimeNs, StringId>> v;
    for (const auto& [k, time] : g.parts) v.push_back({time, std::get<1>(k)});
    std::sort(v.begin(), v.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
    for (const auto& [time, name] : v) {
        if (i++ == 3) break;
        s += (s.empty() ? "" : "; ") +
             (name == kNoName ? std::string("not visible in the trace")
                              : "waited on " + std::string(t.str(name)).substr(0, 100)) +
             " " + dur(time);
    }
    return s;
}

Finding causeFinding(const Context& c, int group, const Totals& g) {
    const Trace& t = c.trace;
    Finding f;
    f.severity = FindingSeverity::Warning;
    f.saving = g.idle;
    const std::string n = std::to_string(g.gaps) + (g.gaps == 1 ? " gap" : " gaps");
    switch (group) {
    case InputPipeline:
        f.rule = "input_pipeline";
        f.title = "The GPU waited " + dur(g.idle) + " on the input pipeline (" + n +
                  " under a DataLoader span)";
        f.detail = "The launching thread was fetching the next batch: " + topParts(t, g) +
                   ". Take it off the critical path: DataLoader workers (num_workers > 0, "
                   "pin_memory=True, prefetch_factor), with the preprocessing (decoding, "
                   "resizing, tokenising) in them or on the GPU, so the loop never waits for a "
                   "batch.";
        break;
    case CpuBound:
        f.rule = "cpu_bound";
        f.title =
            "The GPU waited " + dur(g.idle) + " for the CPU to launch work (" + n + " CPU-bound)";
        f.detail = "Where the launching thread's time went in those gaps: " + topParts(t, g) +
                   ". Move that work off the launch path (precompute it, run it in another "
                   "thread or process), or launch with less CPU per kernel (" +
                   std::string(c.compiled ? "torch.compile(mode=\"reduce-overhead\"): CUDA graphs"
                                          : "torch.compile, CUDA graphs") +
                   "). Untraced time is code the profiler did not record: with_stack=True "
                   "or a sampling profiler (py-spy) shows it.";
        break;
    case LaunchOverhead:
        f.rule = "launch_overhead";
        f.title =
            "The GPU waited " + dur(g.idle) + " while the CPU was in launch calls (" + n + ")";
        f.detail = "The calls: " + topParts(t, g) + ". ";
        if (2 * g.moduleLoading > g.launch)
            f.detail += "Most of it (" + dur(g.moduleLoading) +
                        ") is the driver loading kernel modules on their first launch (lazy "
                        "loading): a one-time warm-up cost. Profile steady-state steps (a "
                        "profiler schedule with warm-up steps), or load the modules at start-up "
                        "(CUDA_MODULE_LOADING=EAGER) if the first steps' time matters.";
        else
            f.detail +=
                "Launching costs more than the kernels launched run: " + fewerLaunchesAdvice(c) +
                ".";
        break;
    case Synchronization:
        f.rule = "synchronization";
        f.title =
            "The launching thread was blocked " + dur(g.idle) + " while the GPU idled (" + n + ")";
        f.detail = "Blocked in: " + topParts(t, g) +
                   ". A blocking call waits for the device (or the driver); remove it from the "
                   "loop (.item(), .cpu(), torch.cuda.synchronize(), printing a tensor, an "
                   "allocation that frees cached memory) or record an event and wait on it later.";
        break;
    default:
        f.rule = "dependency";
        f.title = "Launched work waited " + dur(g.idle) + " on the device (" + n + ")";
        f.detail = "The ops were submitted in time but started late: " + waitedOnText(t, g) +
                   ". Work on another stream or device, an event, or work the trace does not "
                   "show (a dependency inside a CUDA graph, a host callback, another process) "
                   "held them; overlap independent work, or look at the producer named.";
        break;
    }
    f.evidence = {{"gaps", double(g.gaps)}, {"idle_us", double(g.idle) / 1e3}};
    for (size_t i = 0; i < g.longest.size() && i < 3; ++i)
        f.where.push_back({g.longest[i]->gap.start, g.longest[i]->gap.end});
    return f;
}

// What the other threads were blocked in during the longest gaps: "thread 12 was blocked in
// cudaStreamSynchronize 570.0 ms (the whole gap); ...".
std::string othersText(const Trace& t, const Totals& g) {
    std::string s;
    for (size_t i = 0; i < g.longest.size() && i < 3; ++i) {
        const ExplainedGap& e = *g.longest[i];
        if (e.otherThreads.empty()) continue;
        s += (s.empty() ? "" : "; ") +
             threadWaitText(t, e.otherThreads.front(), e.gap.duration(), 100);
    }
    return s;
}

// The groups no saving is claimed for (issue 44): what the time was, said as it is.
Finding noSavingFinding(const Context& c, int group, const Totals& g) {
    const Trace& t = c.trace;
    Finding f;
    f.severity = FindingSeverity::Info;
    f.saving = 0;
    const std::string n = std::to_string(g.gaps) + (g.gaps == 1 ? " gap" : " gaps");
    switch (group) {
    case WarmUp:
        f.rule = "warm_up";
        f.title = "The GPU waited " + dur(g.idle) +
                  " on kernels' first launches (module loading, a one-time warm-up; " + n + ")";
        f.detail = "The calls: " + topParts(t, g) +
                   ". The driver loaded the kernels' code inside their first launch (lazy "
                   "loading); later launches of the same kernels take microseconds. Not launch "
                   "overhead: profile steady-state steps (a profiler schedule with warm-up "
                   "steps), or load the modules at start-up (CUDA_MODULE_LOADING=EAGER) if the "
                   "first steps' time matters.";
        break;
    case Capture:
        f.rule = "graph_capture";
        f.title = "The GPU idled " + dur(g.idle) + " while CUDA graphs were captured (" + n + ")";
        f.detail = "Launches between cudaStreamBeginCapture and cudaStreamEndCapture are "
                   "captured into the graph and run no kernel by design: this idle time is the "
                   "capture's, a one-time cost, not the CPU's lateness. What the thread did: " +
                   topParts(t, g) + ".";
        break;
    default: {
        f.rule = "not_visible";
        f.title = dur(g.idle) + " of GPU idle time has no cause the trace shows (" + n +
                  "): no saving claimed";
        f.detail = "The launched work waited on nothing recorded, or a thread was blocked while "
                   "no GPU op ran anywhere: the GPU may be running work outside the capture "
                   "(launched before it began), for another process, or a host callback.";
        const std::string blocked = topParts(t, g);
        if (!blocked.empty()) f.detail += " Blocked in: " + blocked + ".";
        const std::string others = othersText(t, g);
        if (!others.empty()) f.detail += " Meanwhile " + others + ".";
        f.detail += " Capture a longer window (start the profiler earlier) to see it.";
        break;
    }
    }
    f.evidence = {{"gaps", double(g.gaps)}, {"idle_us", double(g.idle) / 1e3}};
    for (size_t i = 0; i < g.longest.size() && i < 3; ++i)
        f.where.push_back({g.longest[i]->gap.start, g.longest[i]->gap.end});
    return f;
}

} // namespace

bool countsForSaving(const GapCauses& g, const ExplainedGap& e) {
    if (g.steps.empty()) return true;
    // g.steps: by (step, device), steps sorted by start and disjoint.
    auto it = std::upper_bound(g.steps.begin(), g.steps.end(), e.gap.start,
                               [](TimeNs t, const StepGaps& s) { return t < s.step.start; });
    return it != g.steps.begin() && e.gap.start < std::prev(it)->step.end;
}

TimeNs pageableBlockedWhileIdle(const Context& c) {
    TimeNs t = 0;
    for (const ExplainedGap& e : c.gaps.deviceGaps) {
        if (!countsForSaving(c.gaps, e) || e.causeNotVisible()) continue;
        for (const GapPart& p : e.breakdown.parts)
            if (p.kind == GapPartKind::Blocked && isAsyncCopyName(c.trace.str(p.name))) t += p.time;
    }
    return t;
}

void gapCauseRules(const Context& c, Advice& a) {
    std::vector<Totals> groups(kGroups);
    for (const ExplainedGap& e : c.gaps.deviceGaps) {
        const int group = groupOf(c.trace, e);
        if (group < 0 || !countsForSaving(c.gaps, e)) continue;
        Totals& g = groups[size_t(group)];
        ++g.gaps;
        g.idle += e.gap.duration();
        g.longest.push_back(&e);
        if (group == Dependency)
            g.parts[{GapPartKind::Queued,
                     e.waitedOn.valid()
                         ? c.trace.track(e.waitedOn.track).slices.name[e.waitedOn.index]
                         : kNoName,
                     kNoName}] += e.gap.duration();
        for (const GapPart& p : e.breakdown.parts) {
            if (counts(group, p.kind)) g.parts[{p.kind, p.name, p.context}] += p.time;
            if (p.kind != GapPartKind::Launch) continue;
            g.launch += p.time;
            if (isModuleLoadingName(c.trace.str(p.name))) g.moduleLoading += p.time;
        }
    }
    for (int k = 0; k < kGroups; ++k) {
        Totals& g = groups[size_t(k)];
        if (!g.gaps) continue;
        std::sort(g.longest.begin(), g.longest.end(),
                  [](const ExplainedGap* x, const ExplainedGap* y) {
                      return x->gap.duration() > y->gap.duration();
                  });
        a.findings.push_back(k < WarmUp ? causeFinding(c, k, g) : noSavingFinding(c, k, g));
    }
}

void shortGapsRule(const Context& c, Advice& a) {
    const GapCauses& g = c.gaps;
    for (const DeviceGapStats& d : g.devices) {
        const TimeNs span = d.lastEnd - d.firstStart;
        if (span <= 0) continue;
        std::array<TimeNs, kGapCauseCount> by{};
        TimeNs over = 0;
        for (const ExplainedGap& e : g.deviceGaps)
            if (e.gap.device == d.device) {
                by[size_t(e.cause)] += e.gap.duration();
                over += e.gap.duration();
            }
        const TimeNs shortIdle = d.idle - over;
        const uint64_t shortGaps = d.gaps - d.gapsOverThreshold;
        const double share = double(d.idle) / double(span);
        Finding f;
        f.rule = "idle";
        f.severity = FindingSeverity::Warning;
        f.saving = shortIdle;
        f.title = "GPU " + std::to_string(d.device) + " was idle " + pct(share) + " of its span (" +
                  dur(d.idle) + " of " + dur(span) + "); " + dur(shortIdle) + " of it in " +
                  std::to_string(shortGaps) + " gaps of " + setting(g.threshold) + " or less";
        f.detail = "Gaps longer than " + dur(g.threshold) +
                   " are explained by cause in the other findings and in strata-cli gaps. The "
                   "short gaps between kernels are launch overhead and launch latency: " +
                   std::string(c.compiled ? "torch.compile(mode=\"reduce-overhead\") (CUDA "
                                            "graphs) removes them."
                                          : "fewer, larger kernels (fusion, torch.compile) or a "
                                            "CUDA graph remove them.");
        f.evidence = {{"idle_share", share},
                      {"idle_us", double(d.idle) / 1e3},
                      {"span_us", double(span) / 1e3},
                      {"short_gaps", double(shortGaps)},
                      {"short_idle_us", double(shortIdle) / 1e3}};
        for (int k = 0; k < kGapCauseCount; ++k)
            f.evidence.push_back(
                {std::string(gapCauseName(GapCause(k))) + "_us", double(by[size_t(k)]) / 1e3});
        a.findings.push_back(std::move(f));
    }
}

} // namespace strata::advice
