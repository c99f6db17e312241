#include "analysis/gap_causes.h"

#include "analysis/gap_checks.h"
#include "analysis/gpu_ops.h"
#include "util/phase_timer.h"

#include <algorithm>
#include <map>

namespace strata {
namespace {

ExplainedGap explain(const Trace& t, const GpuGap& g) {
    ExplainedGap e;
    e.gap = g;
    e.launch = g.next.valid() ? t.launchOf(g.next) : SliceRef{};
    if (!e.launch.valid()) {
        e.cause = GapCause::Unattributed;
        return e;
    }
    const TimeNs launchStart = t.start(e.launch);
    if (launchStart < g.start) {
        e.cause = GapCause::Dependency;
        // A stream-wait call on the launching thread, the last before the launch.
        const Track& track = t.track(e.launch.track);
        const auto [first, last] = track.overlapping(launchStart - 10'000'000, launchStart);
        for (SliceIndex i = last; i-- > first;) {
            const std::string_view n = t.str(track.slices.name[i]);
            if (track.slices.start[i] < launchStart && (n.substr(0, 19) == "cudaStreamWaitEvent" ||
                                                        n.substr(0, 17) == "cuStreamWaitEvent")) {
                e.waitCall = {e.launch.track, i};
                break;
            }
        }
        return e;
    }
    e.late = launchStart - g.start;
    e.cause = GapCause::LaunchBound;
    // The launching thread during the gap: what ran there, and a blocking call that ended in it.
    const Track& track = t.track(e.launch.track);
    const SliceColumns& c = track.slices;
    std::map<StringId, CpuOverlap> byName;
    TimeNs latestBlockingEnd = -1;
    const auto [first, last] = track.overlapping(g.start, g.end);
    for (SliceIndex i = first; i < last; ++i) {
        const TimeNs s = c.start[i], en = c.end(i);
        if (s >= g.end || en <= g.start) continue;
        const TimeNs ov = std::min(en, g.end) - std::max(s, g.start);
        if (c.depth[i] == 0) e.cpuCovered += ov;
        CpuOverlap& o = byName[c.name[i]];
        o.name = c.name[i];
        o.overlap += ov;
        o.depth = std::max(o.depth, c.depth[i]);
        if (en > g.start && en <= g.end && isBlockingCallName(t.str(c.name[i])) &&
            en > latestBlockingEnd) {
            latestBlockingEnd = en;
            e.blockingCall = {e.launch.track, i};
        }
    }
    if (e.blockingCall.valid()) e.cause = GapCause::Synchronization;
    for (const auto& [n, o] : byName) e.cpu.push_back(o);
    // The top five by time overlapped, listed leaf-most first (the most specific work).
    std::sort(e.cpu.begin(), e.cpu.end(), [](const CpuOverlap& a, const CpuOverlap& b) {
        if (a.overlap != b.overlap) return a.overlap > b.overlap;
        return a.name < b.name;
    });
    if (e.cpu.size() > 5) e.cpu.resize(5);
    std::stable_sort(e.cpu.begin(), e.cpu.end(),
                     [](const CpuOverlap& a, const CpuOverlap& b) { return a.depth > b.depth; });
    return e;
}

} // namespace

const char* gapCauseName(GapCause c) {
    switch (c) {
    case GapCause::LaunchBound:
        return "launch_bound";
    case GapCause::Synchronization:
        return "synchronization";
    case GapCause::Dependency:
        return "dependency";
    case GapCause::Unattributed:
        return "unattributed";
    }
    return "unattributed";
}

bool isBlockingCallName(std::string_view n) {
    if (n.find("Synchronize") != std::string_view::npos) return true; // device/stream/event/ctx
    static constexpr std::string_view kBlocking[] = {"cudaMemcpy",
                                                     "cudaMemcpy2D",
                                                     "cudaMemcpy3D",
                                                     "cudaMemset",
                                                     "cudaMemset2D",
                                                     "cudaMemcpyToSymbol",
                                                     "cudaMemcpyFromSymbol",
                                                     "cudaFree",
                                                     "cudaFreeHost",
                                                     "cudaMalloc",
                                                     "cudaMallocHost",
                                                     "cudaHostAlloc",
                                                     "cuMemcpyHtoD",
                                                     "cuMemcpyDtoH",
                                                     "cuMemcpyDtoD",
                                                     "cuMemcpy",
                                                     "cuMemsetD8",
                                                     "cuMemsetD32",
                                                     "cuMemFree",
                                                     "cuMemAlloc"};
    for (std::string_view b : kBlocking)
        if (n == b || (n.size() > b.size() && n.substr(0, b.size()) == b && n[b.size()] == '_'))
            return true; // cuMemcpyHtoD_v2, cudaMemcpy_ptds
    return false;
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
        auto end = std::find_if(
            it, ops.ops.end(), [&](const GpuOp& o) { return o.device != device || o.stream != s; });
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
    // An op's stream: its track's (collectGpuOps' rule), else its activity's.
    auto streamOf = [&](SliceRef r) -> int64_t {
        const Track& tr = trace.track(r.track);
        if (tr.kind == TrackKind::GpuStream) return tr.tid;
        const GpuActivity* g = trace.gpu(r);
        return g ? g->stream : -1;
    };
    auto findWaitedOn = [&](ExplainedGap& e) {
        if (e.cause != GapCause::Dependency || !e.gap.next.valid()) return;
        const int64_t stream = e.gap.stream >= 0 ? e.gap.stream : streamOf(e.gap.next);
        if (e.gap.stream < 0) { // device gap: the previous op, when it ran on another stream
            if (e.gap.prev.valid() && streamOf(e.gap.prev) != stream) e.waitedOn = e.gap.prev;
            return;
        }
        e.waitedOn = lastEndedElsewhere(ops, e.gap.device, stream, e.gap.start, e.gap.end);
    };
    for (const GpuGap& g : gaps.deviceGaps) {
        if (g.duration() <= threshold) continue;
        out.deviceGaps.push_back(explain(trace, g));
        findWaitedOn(out.deviceGaps.back());
        CauseTotals& c = out.byCause[size_t(out.deviceGaps.back().cause)];
        ++c.count;
        c.idle += g.duration();
    }
    for (const GpuGap& g : gaps.streamGaps)
        if (g.duration() > threshold) {
            out.streamGaps.push_back(explain(trace, g));
            findWaitedOn(out.streamGaps.back());
        }

    phases.mark("gaps: explain");
    // Per step and device: idle = the step's length minus the device's busy time inside it (the
    // busy segments streamed once; steps are sorted and disjoint); the causes of the gaps over
    // the threshold that start in it.
    std::vector<TraceStep> steps = findSteps(trace, stepPrefix);
    std::erase_if(
        steps, [&](const TraceStep& st) { return st.end <= range.start || st.start >= range.end; });
    std::map<int32_t, std::vector<TimeNs>> busyIn; // device -> busy time per step
    if (!steps.empty()) {
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
    }
    for (size_t k = 0; k < steps.size(); ++k) {
        const TraceStep& st = steps[k];
        for (const DeviceGapStats& d : gaps.byDevice) {
            StepGaps sg;
            sg.step = st;
            sg.device = d.device;
            sg.idle = (st.end - st.start) - busyIn[d.device][k];
            for (const ExplainedGap& e : out.deviceGaps)
                if (e.gap.device == d.device && e.gap.start >= st.start && e.gap.start < st.end) {
                    ++sg.byCause[size_t(e.cause)].count;
                    sg.byCause[size_t(e.cause)].idle += e.gap.duration();
                }
            out.steps.push_back(sg);
        }
    }
    const TimeRange b = trace.bounds();
    const TimeNs r0 = std::max(range.start, b.start), r1 = std::min(range.end, b.end);
    for (const DeviceGapStats& d : gaps.byDevice)
        out.edges.push_back({d.device, std::max<TimeNs>(0, d.firstStart - r0),
                             std::max<TimeNs>(0, r1 - d.lastEnd)});

    phases.mark("gaps: steps");
    for (std::string& w : clockSkewWarnings(trace)) out.warnings.push_back(std::move(w));
    phases.mark("gaps: skew check");
    for (std::string& w : graphReplayWarnings(trace)) out.warnings.push_back(std::move(w));
    for (std::string& w : captureWindowWarnings(trace, steps)) out.warnings.push_back(std::move(w));
    phases.mark("gaps: graph, capture");
    return out;
}

} // namespace strata
