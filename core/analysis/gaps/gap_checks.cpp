#include "analysis/gaps/gap_checks.h"

#include "analysis/gaps/graph_capture.h"
#include "analysis/graphs/graph_replays.h"
#include "model/names/time_text.h"

#include <algorithm>
#include <map>

namespace strata {

namespace {

bool contains(std::string_view s, std::string_view part) {
    return s.find(part) != std::string_view::npos;
}

// A GPU op carries this correlation id.
bool hasGpuOp(const Trace& t, int64_t correlation) {
    for (SliceRef r : t.byCorrelation(correlation))
        if (isGpuBusyKind(t.kind(r))) return true;
    return false;
}

template <typename F> void forEachApiCall(const Trace& t, F&& f) {
    for (TrackId ti = 0; ti < t.tracks().size(); ++ti) {
        const Track& tr = t.track(ti);
        if (tr.kind == TrackKind::GpuStream) continue;
        const SliceColumns& c = tr.slices;
        for (SliceIndex i = 0; i < c.size(); ++i)
            if (isLaunchApiKind(c.kind[i])) f(SliceRef{ti, i});
    }
}

} // namespace

bool isGpuWorkCallName(std::string_view n) {
    if (contains(n, "HostFunc")) return false;
    return contains(n, "LaunchKernel") || contains(n, "LaunchCooperativeKernel") ||
           isGraphLaunchName(n) || (contains(n, "Memcpy") && contains(n, "Async")) ||
           (contains(n, "Memset") && contains(n, "Async"));
}

std::vector<std::string> graphReplayWarnings(const Trace& trace) {
    const std::vector<GraphReplay> replays = graphReplays(trace);
    uint64_t empty = 0, fewer = 0;
    TimeNs firstEmpty = -1;
    std::map<int64_t, uint32_t> most; // graph id -> most ops seen in a replay so far
    for (const GraphReplay& r : replays) {
        if (r.nodes.empty()) {
            if (!empty++) firstEmpty = trace.start(r.launch);
            continue;
        }
        const auto ops = uint32_t(r.nodes.size());
        uint32_t& m = most[r.graphId];
        if (r.graphId >= 0 && ops < m) ++fewer;
        m = std::max(m, ops);
    }
    std::vector<std::string> out;
    const TimeNs origin = trace.bounds().start;
    if (empty)
        out.push_back(std::to_string(empty) + " of " + std::to_string(replays.size()) +
                      " CUDA graph launches have no GPU work in the trace (the first at " +
                      formatPreciseDuration(firstEmpty - origin) +
                      "): their kernels ran but were not recorded (graph kernel tracing off?), "
                      "so their time counts as idle here");
    if (fewer)
        out.push_back(std::to_string(fewer) +
                      " CUDA graph replay(s) have fewer kernels than an earlier replay of the same "
                      "graph: kernels are missing from the trace, and their time counts as idle");
    return out;
}

std::vector<std::string> captureWindowWarnings(const Trace& trace,
                                               const std::vector<TraceStep>& steps,
                                               const CaptureWindows& captures) {
    // Kernel launch calls whose kernel is missing (async copies and sets are left out: a
    // zero-byte one puts no work on the GPU; so are launches inside a graph capture, which run
    // no kernel by design), and the last GPU op's end.
    std::vector<TimeNs> missing;
    TimeNs firstCall = INT64_MAX;
    // Per name, decided once (not once per call): 1 a call that puts work on the GPU, 3 one that
    // launches a kernel that must be in the trace; 0xFF not decided yet.
    constexpr uint8_t kWork = 1, kKernel = 2, kUndecided = 0xFF;
    std::vector<uint8_t> nameClass(trace.strings().size(), kUndecided);
    forEachApiCall(trace, [&](SliceRef r) {
        const Track& tr = trace.track(r.track);
        uint8_t& cls = nameClass[tr.slices.name[r.index]];
        if (cls == kUndecided) {
            const std::string_view n = trace.name(r);
            cls = !isGpuWorkCallName(n)                            ? 0
                  : isGraphLaunchName(n) || !contains(n, "Launch") ? kWork
                                                                   : kWork | kKernel;
        }
        if (!(cls & kWork)) return;
        if (!captures.empty() && captures.contains(tr.pid, tr.tid, trace.start(r))) return;
        firstCall = std::min(firstCall, trace.start(r));
        const SliceExtra* e = trace.extra(r);
        if (!e || e->correlation < 0 || !(cls & kKernel)) return;
        if (!hasGpuOp(trace, e->correlation)) missing.push_back(trace.start(r));
    });
    TimeNs lastOpEnd = INT64_MIN;
    uint64_t launchedBefore = 0; // GPU ops at the start whose launch call is not in the trace
    for (TrackId ti = 0; ti < trace.tracks().size(); ++ti) {
        const Track& tr = trace.track(ti);
        if (tr.kind != TrackKind::GpuStream) continue;
        for (SliceIndex i = 0; i < tr.slices.size(); ++i) {
            if (!isGpuBusyKind(tr.slices.kind[i])) continue;
            lastOpEnd = std::max(lastOpEnd, tr.slices.end(i));
            if (tr.slices.start[i] < firstCall && !trace.launchOf({ti, i}).valid())
                ++launchedBefore;
        }
    }
    std::sort(missing.begin(), missing.end());
    const auto atEnd = std::lower_bound(missing.begin(), missing.end(), lastOpEnd);
    const size_t cut = size_t(missing.end() - atEnd), lost = missing.size() - cut;
    std::vector<std::string> out;
    const TimeNs origin = trace.bounds().start;
    auto stepAt = [&](TimeNs t) -> std::string {
        for (const TraceStep& s : steps)
            if (t >= s.start && t < s.end) return s.name;
        return {};
    };
    if (cut) {
        const std::string step = stepAt(missing.back());
        out.push_back("the capture ended inside " + (step.empty() ? std::string("the run") : step) +
                      ": " + std::to_string(cut) + " kernel launch(es) after the last GPU op (" +
                      formatPreciseDuration(lastOpEnd - origin) +
                      ") have no kernel in the trace, so that step's idle time is not the GPU's");
    }
    if (launchedBefore) {
        const std::string step = steps.empty() ? std::string() : steps.front().name;
        out.push_back("the capture began inside a step" +
                      (step.empty() ? "" : " (before " + step + ")") + ": " +
                      std::to_string(launchedBefore) +
                      " GPU op(s) before the first launch call were launched before it began");
    }
    if (lost)
        out.push_back(std::to_string(lost) +
                      " kernel launch(es) inside the capture have no kernel in the trace (records "
                      "lost or dropped): the idle time around them is overstated");
    return out;
}

} // namespace strata
