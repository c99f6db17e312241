#include "analysis/gaps/graph_capture.h"

#include <algorithm>
#include <unordered_set>

namespace strata {

namespace {

bool isApiName(std::string_view n) {
    return n.starts_with("cuda") || n.starts_with("hip") || n.starts_with("cu");
}

} // namespace

CaptureWindows::CaptureWindows(const Trace& t) {
    std::unordered_set<StringId> begins, ends;
    for (StringId i = 0; i < StringId(t.strings().size()); ++i) {
        const std::string_view n = t.str(i);
        if (!isApiName(n)) continue;
        if (n.find("StreamBeginCapture") != std::string_view::npos) begins.insert(i);
        if (n.find("StreamEndCapture") != std::string_view::npos) ends.insert(i);
    }
    if (begins.empty()) return;
    // Per thread (its lanes together), the begin and end calls by start.
    std::map<std::pair<int64_t, int64_t>, std::vector<std::pair<TimeNs, TimeNs>>> marks;
    for (const Track& tr : t.tracks()) {
        if (tr.kind != TrackKind::Thread) continue;
        const SliceColumns& c = tr.slices;
        for (SliceIndex i = 0; i < c.size(); ++i) {
            if (!isLaunchApiKind(c.kind[i])) continue;
            if (begins.count(c.name[i]))
                marks[{tr.pid, tr.tid}].push_back({c.start[i], -1}); // -1: a begin
            else if (ends.count(c.name[i]))
                marks[{tr.pid, tr.tid}].push_back({c.start[i], c.end(i)});
        }
    }
    for (auto& [thread, m] : marks) {
        std::sort(m.begin(), m.end());
        std::vector<TimeRange>& w = windows_[thread];
        TimeNs open = -1;
        bool inside = false;
        for (const auto& [start, end] : m) {
            if (end < 0) {
                if (!inside) open = start, inside = true;
            } else if (inside) {
                w.push_back({open, end});
                inside = false;
            }
        }
        if (inside) w.push_back({open, t.bounds().end}); // not ended inside the trace
        if (w.empty()) windows_.erase(thread);
    }
}

TimeNs CaptureWindows::overlap(int64_t pid, int64_t tid, TimeNs from, TimeNs to) const {
    const auto it = windows_.find({pid, tid});
    if (it == windows_.end() || to <= from) return 0;
    const std::vector<TimeRange>& w = it->second;
    auto k = std::upper_bound(w.begin(), w.end(), from,
                              [](TimeNs x, const TimeRange& r) { return x < r.end; });
    TimeNs in = 0;
    for (; k != w.end() && k->start < to; ++k)
        in += std::min(to, k->end) - std::max(from, k->start);
    return in;
}

} // namespace strata
