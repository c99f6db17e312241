#include "analysis/gaps/gap_causes.h"

#include "analysis/gaps/gap_checks.h"
#include "analysis/gaps/gap_context.h"
#include "analysis/gaps/other_threads.h"
#include "analysis/ops/gpu_ops.h"
#include "util/phase_timer.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace strata {
namespace {

// Queued this long after its launch returned is more than launch latency: the op waited on
// something (with the rule's "most of the gap").
constexpr TimeNs kLongQueue = 20'000;
// An op of another stream explains a dependency when it ended this close before the op started
// (or within a tenth of the gap): an event wait resolves within microseconds.
constexpr TimeNs kNear = 20'000;

bool isStreamWaitName(std::string_view n) {
    return n.substr(0, 19) == "cudaStreamWaitEvent" || n.substr(0, 17) == "cuStreamWaitEvent" ||
           n.substr(0, 18) == "hipStreamWaitEvent";
}

// A stream-wait call on the launching thread shortly before the launch (the last of them): at
// most 256 slices and 10 ms back.
SliceRef waitCallBefore(const Trace& t, SliceRef launch) {
    const SliceColumns& c = t.track(launch.track).slices;
    const TimeNs launchStart = c.start[launch.index];
    for (SliceIndex i = launch.index, n = 0; i-- > 0 && n < 256; ++n) {
        if (c.start[i] < launchStart - 10'000'000) break;
        if (isStreamWaitName(t.str(c.name[i]))) return {launch.track, i};
    }
    return {};
}

// The cause from where the gap's time went (gap_causes.h).
GapCause causeOf(const ExplainedGap& e) {
    if (!e.launch.valid()) return GapCause::Unattributed;
    if (!e.launchedLate) return GapCause::Dependency;
    const TimeNs len = e.gap.duration();
    const GapBreakdown& b = e.breakdown;
    const TimeNs queued = b.of(GapPartKind::Queued);
    if (2 * b.of(GapPartKind::Blocked) > len) return GapCause::Synchronization;
    if (queued >= kLongQueue && 2 * queued > len) return GapCause::Dependency;
    if (2 * (b.of(GapPartKind::Launch) + queued) > len) return GapCause::LaunchOverhead;
    return GapCause::LaunchBound;
}

ExplainedGap explain(GapContext& cx, const GpuGap& g) {
    const Trace& t = cx.trace;
    ExplainedGap e;
    e.gap = g;
    e.launch = g.next.valid() ? t.launchOf(g.next) : SliceRef{};
    if (e.launch.valid()) {
        const TimeNs launchStart = t.start(e.launch);
        const TimeNs returned = std::clamp(launchStart + t.duration(e.launch), g.start, g.end);
        e.launchedLate = launchStart + t.duration(e.launch) > g.start;
        e.late = e.launchedLate ? launchStart - g.start : 0;
        e.breakdown = breakDownGap(cx, e.launch, g.start, g.end);
        const Track& tr = t.track(e.launch.track);
        e.inCapture = cx.captures.overlap(tr.pid, tr.tid, g.start, returned);
        e.otherThreads = threadWaits(cx, e.launch, g.start, g.end);
    }
    e.cause = causeOf(e);
    if (e.cause == GapCause::Synchronization) {
        e.blockingCall = e.breakdown.blockingCall;
        e.unseenWait = e.blockingCall.valid() && !cx.gpuBusy(t.start(e.blockingCall), g.end);
    }
    if (e.cause == GapCause::LaunchBound)
        e.inputPipeline = 2 * e.breakdown.inputPipeline > g.duration();
    if (e.cause == GapCause::Dependency) e.waitCall = waitCallBefore(t, e.launch);
    return e;
}

} // namespace

bool ExplainedGap::causeNotVisible() const {
    return (cause == GapCause::Dependency && !waitedOn.valid()) ||
           (cause == GapCause::Synchronization && unseenWait);
}

double ExplainedGap::tracedShare() const {
    const TimeNs len = gap.duration();
    if (len <= 0 || !breakdown.known) return 0;
    return double(breakdown.of(GapPartKind::Blocked) + breakdown.of(GapPartKind::Launch) +
                  breakdown.of(GapPartKind::Cpu)) /
           double(len);
}

const char* gapCauseName(GapCause c) {
    switch (c) {
    case GapCause::LaunchBound:
        return "launch_bound";
    case GapCause::LaunchOverhead:
        return "launch_overhead";
    case GapCause::Synchronization:
        return "synchronization";
    case GapCause::Dependency:
        return "dependency";
    case GapCause::Unattributed:
        return "unattributed";
    }
    return "unattributed";
}

const char* gapCauseLabel(GapCause c) {
    switch (c) {
    case GapCause::LaunchBound:
        return "CPU-bound";
    case GapCause::LaunchOverhead:
        return "launch overhead";
    case GapCause::Synchronization:
        return "synchronization";
    case GapCause::Dependency:
        return "dependency";
    case GapCause::Unattributed:
        return "unattributed";
    }
    return "unattributed";
}

namespace {

// The op of another stream of `device` that ended last in [from, to], from the ops sorted by
// (device, stream, start): per stream, the ops starting before `to`, latest end.
SliceRef lastEndedElsewhere(const GpuOpList& ops, int32_t device, int64_t stream, TimeNs from,
                            TimeNs to) {
    SliceRef best;
    TimeNs bestEnd = from - 1;
    auto it = std::lower_bound(ops.ops.begin(), ops.ops.end(), device,
                               [](const GpuOp& o, int32_t d) { return o.device < d; });
    while (it != ops.ops.end() && it->device == device) {
        const int64_t s = it->stream;
        // The stream's ops end where (device, stream) does (ops sorted by it): a binary search,
        // not a walk over the device's ops for every gap.
        auto end = std::upper_bound(it, ops.ops.end(), std::make_pair(device, s),
                                    [](const std::pair<int32_t, int64_t>& x, const GpuOp& o) {
                                        return x.first != o.device ? x.first < o.device
                                                                   : x.second < o.stream;
                                    });
        if (s != stream) {
            // Ops of this stream starting at or before `to`; the last few hold the latest ends.
            auto stop =
                std::upper_bound(it, end, to, [](TimeNs x, const GpuOp& o) { return x < o.start; });
            for (auto k = stop; k != it && std::distance(k, stop) < 64;) {
                --k;
                if (k->end <= to && k->end > bestEnd) {
                    bestEnd = k->end;
                    best = k->ref;
                }
            }
        }
        it = end;
    }
    return best;
}

// Every gap over the threshold, explained: the device gaps, then the stream gaps (a stream gap
// that is a device gap too, as on a one-stream device, is explained once).
void explainEach(GapContext& cx, const GpuOpList& ops, const GpuGaps& gaps, TimeNs threshold,
                 GapCauses& out) {
    const Trace& trace = cx.trace;
    // An op's stream: its track's (collectGpuOps' rule), else its activity's.
    auto streamOf = [&](SliceRef r) -> int64_t {
        const Track& tr = trace.track(r.track);
        if (tr.kind == TrackKind::GpuStream) return tr.tid;
        const GpuActivity* g = trace.gpu(r);
        return g ? g->stream : -1;
    };
    // What a dependency waited on, when the trace shows it: an op of another stream that ended
    // near the op's start (the device gap's previous op, the stream gap's last op to end on
    // another stream of the device).
    auto findWaitedOn = [&](ExplainedGap& e) {
        if (e.cause != GapCause::Dependency || !e.gap.next.valid()) return;
        const int64_t stream = e.gap.stream >= 0 ? e.gap.stream : streamOf(e.gap.next);
        SliceRef candidate;
        if (e.gap.stream < 0) {
            if (e.gap.prev.valid() && streamOf(e.gap.prev) != stream) candidate = e.gap.prev;
        } else {
            candidate = lastEndedElsewhere(ops, e.gap.device, stream, e.gap.start, e.gap.end);
        }
        if (!candidate.valid()) return;
        const TimeNs before = e.gap.end - (trace.start(candidate) + trace.duration(candidate));
        if (before <= std::max(kNear, e.gap.duration() / 10)) e.waitedOn = candidate;
    };
    std::map<std::tuple<SliceRef, TimeNs, TimeNs>, size_t> deviceGapOf; // (next, start, end)
    for (const GpuGap& g : gaps.deviceGaps) {
        if (g.duration() <= threshold) continue;
        out.deviceGaps.push_back(explain(cx, g));
        findWaitedOn(out.deviceGaps.back());
        deviceGapOf[{g.next, g.start, g.end}] = out.deviceGaps.size() - 1;
        CauseTotals& c = out.byCause[size_t(out.deviceGaps.back().cause)];
        ++c.count;
        c.idle += g.duration();
    }
    for (const GpuGap& g : gaps.streamGaps) {
        if (g.duration() <= threshold) continue;
        const auto same = deviceGapOf.find({g.next, g.start, g.end});
        if (same != deviceGapOf.end()) {
            out.streamGaps.push_back(out.deviceGaps[same->second]);
            out.streamGaps.back().gap = g;
            out.streamGaps.back().waitedOn = {};
        } else {
            out.streamGaps.push_back(explain(cx, g));
        }
        findWaitedOn(out.streamGaps.back());
    }
}

// Per step and device: idle = the step's length minus the device's busy time inside it (the busy
// segments streamed once; steps are sorted and disjoint); the causes of the gaps over the
// threshold that start in it.
void perStep(const GpuOpList& ops, const GpuGaps& gaps, const std::vector<TraceStep>& steps,
             GapCauses& out) {
    if (steps.empty()) return;
    std::map<int32_t, std::vector<TimeNs>> busyIn; // device -> busy time per step
    for (const DeviceGapStats& d : gaps.byDevice) busyIn[d.device].assign(steps.size(), 0);
    int32_t device = INT32_MIN;
    size_t k = 0;
    forEachBusySegment(ops.ops, [&](const BusySegment& s) {
        if (s.device != device) device = s.device, k = 0;
        std::vector<TimeNs>& busy = busyIn[s.device];
        while (k < steps.size() && steps[k].end <= s.start) ++k;
        for (size_t j = k; j < steps.size() && steps[j].start < s.end; ++j)
            busy[j] += std::min(s.end, steps[j].end) - std::max(s.start, steps[j].start);
    });
    const size_t devices = gaps.byDevice.size();
    std::map<int32_t, size_t> column; // device -> its place among a step's rows
    for (size_t d = 0; d < devices; ++d) column[gaps.byDevice[d].device] = d;
    for (size_t s = 0; s < steps.size(); ++s)
        for (const DeviceGapStats& d : gaps.byDevice) {
            StepGaps sg;
            sg.step = steps[s];
            sg.device = d.device;
            sg.idle = (steps[s].end - steps[s].start) - busyIn[d.device][s];
            out.steps.push_back(sg);
        }
    // Each gap to the step its start lies in (steps are disjoint and sorted by start).
    for (const ExplainedGap& e : out.deviceGaps) {
        auto it = std::upper_bound(steps.begin(), steps.end(), e.gap.start,
                                   [](TimeNs t, const TraceStep& st) { return t < st.start; });
        if (it == steps.begin() || e.gap.start >= std::prev(it)->end) continue;
        const size_t s = size_t(std::prev(it) - steps.begin());
        CauseTotals& c = out.steps[s * devices + column[e.gap.device]].byCause[size_t(e.cause)];
        ++c.count;
        c.idle += e.gap.duration();
    }
}

} // namespace

GapCauses explainGpuGaps(const Trace& trace, TimeNs threshold, TimeRange range,
                         const std::string& stepPrefix) {
    PhaseTimer phases;
    const GpuOpList ops = collectGpuOps(trace, range);
    phases.mark("gaps: collect ops");
    return explainGpuGaps(trace, ops, threshold, stepPrefix);
}

GapCauses explainGpuGaps(const Trace& trace, const GpuOpList& ops, TimeNs threshold,
                         const std::string& stepPrefix) {
    GapCauses out;
    out.threshold = threshold;
    out.stepPrefix = stepPrefix;
    PhaseTimer phases;
    const TimeRange range = ops.range;
    const GpuGaps gaps = computeGpuGaps(ops, threshold, threshold); // gaps over it kept only
    phases.mark("gaps: intervals");
    out.devices = gaps.byDevice;
    GapContext cx(trace, ops); // its graph captures serve the capture warnings below too
    explainEach(cx, ops, gaps, threshold, out);
    phases.mark("gaps: explain");
    std::vector<TraceStep> steps = findSteps(trace, stepPrefix);
    std::erase_if(
        steps, [&](const TraceStep& st) { return st.end <= range.start || st.start >= range.end; });
    perStep(ops, gaps, steps, out);
    const TimeRange b = trace.bounds();
    const TimeNs r0 = std::max(range.start, b.start), r1 = std::min(range.end, b.end);
    for (const DeviceGapStats& d : gaps.byDevice)
        out.edges.push_back({d.device, std::max<TimeNs>(0, d.firstStart - r0),
                             std::max<TimeNs>(0, r1 - d.lastEnd)});
    phases.mark("gaps: steps");
    out.clock = checkClocks(trace, ops, gaps);
    for (std::string& w : clockWarnings(out.clock)) out.warnings.push_back(std::move(w));
    phases.mark("gaps: clock checks");
    for (std::string& w : graphReplayWarnings(trace)) out.warnings.push_back(std::move(w));
    for (std::string& w : captureWindowWarnings(trace, steps, cx.captures))
        out.warnings.push_back(std::move(w));
    phases.mark("gaps: graph, capture");
    return out;
}

} // namespace strata
