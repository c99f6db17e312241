#include "analysis/gap_causes.h"

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

GapCauses explainGpuGaps(const Trace& trace, TimeNs threshold, TimeRange range) {
    GapCauses out;
    out.threshold = threshold;
    const GpuGaps gaps = computeGpuGaps(trace, threshold, range);
    for (const GpuGap& g : gaps.deviceGaps) {
        if (g.duration() <= threshold) continue;
        out.deviceGaps.push_back(explain(trace, g));
        CauseTotals& c = out.byCause[size_t(out.deviceGaps.back().cause)];
        ++c.count;
        c.idle += g.duration();
    }
    for (const GpuGap& g : gaps.streamGaps)
        if (g.duration() > threshold) out.streamGaps.push_back(explain(trace, g));
    // Clock skew: a kernel that starts before the call that launched it.
    uint64_t skewed = 0;
    for (TrackId ti = 0; ti < trace.tracks().size(); ++ti) {
        const Track& tr = trace.track(ti);
        if (tr.kind != TrackKind::GpuStream) continue;
        for (SliceIndex i = 0; i < tr.slices.size(); ++i) {
            if (tr.slices.kind[i] != SliceKind::Kernel) continue;
            const SliceRef l = trace.launchOf({ti, i});
            if (l.valid() && tr.slices.start[i] < trace.start(l)) ++skewed;
        }
    }
    if (skewed)
        out.warnings.push_back(std::to_string(skewed) +
                               " kernel(s) start before their launch call: CPU and GPU clocks "
                               "disagree, so how late a launch was (late_us) is not reliable");
    return out;
}

} // namespace strata
