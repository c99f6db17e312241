#include "analysis/gaps/gap_context.h"

#include "analysis/ops/gpu_ops.h"

#include <algorithm>

namespace strata {

GapContext::GapContext(const Trace& t, const GpuOpList& ops)
    : trace(t), roles(t), firstLaunches(t), captures(t) {
    for (TrackId ti = 0; ti < t.tracks().size(); ++ti) {
        const Track& tr = t.track(ti);
        if (tr.kind == TrackKind::Thread) lanes_[{tr.pid, tr.tid}].push_back(ti);
    }
    for (auto& [thread, lanes] : lanes_)
        std::stable_sort(lanes.begin(), lanes.end(),
                         [&](TrackId a, TrackId b) { return t.track(a).lane < t.track(b).lane; });
    std::vector<std::pair<TimeNs, TimeNs>> busy;
    forEachBusySegment(ops.ops, [&](const BusySegment& s) { busy.push_back({s.start, s.end}); });
    std::sort(busy.begin(), busy.end());
    TimeNs latest = INT64_MIN;
    for (const auto& [s, e] : busy) {
        latest = std::max(latest, e);
        busyStart_.push_back(s);
        busyEndMax_.push_back(latest);
    }
}

std::vector<TrackId> GapContext::lanesOf(TrackId track) const {
    const Track& tr = trace.track(track);
    const auto it = tr.kind == TrackKind::Thread ? lanes_.find({tr.pid, tr.tid}) : lanes_.end();
    return it == lanes_.end() ? std::vector<TrackId>{track} : it->second;
}

std::vector<const std::vector<TrackId>*> GapContext::otherThreadsOf(TrackId track) const {
    const Track& tr = trace.track(track);
    std::vector<const std::vector<TrackId>*> out;
    for (auto it = lanes_.lower_bound({tr.pid, INT64_MIN});
         it != lanes_.end() && it->first.first == tr.pid; ++it)
        if (it->first.second != tr.tid) out.push_back(&it->second);
    return out;
}

bool GapContext::gpuBusy(TimeNs from, TimeNs to) const {
    // The segments that start before `to`: one of them ends after `from`.
    const auto k =
        size_t(std::lower_bound(busyStart_.begin(), busyStart_.end(), to) - busyStart_.begin());
    return k > 0 && busyEndMax_[k - 1] > from;
}

} // namespace strata
