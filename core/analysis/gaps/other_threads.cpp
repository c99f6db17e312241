#include "analysis/gaps/other_threads.h"

#include "analysis/gaps/gap_context.h"
#include "analysis/gaps/host_waits.h"

#include <algorithm>

namespace strata {

namespace {

// Whether slice i of the lane is a call the thread waits in.
bool isWait(GapContext& cx, TrackId track, const SliceColumns& c, SliceIndex i) {
    const uint8_t roles = cx.roles.of(c, i);
    if (roles & FrameRoles::kBlocking) return true;
    if (roles & FrameRoles::kApiCall) return isPageableCopyCall(cx.trace, {track, i});
    return isWaitName(cx.trace.str(c.name[i]));
}

// The wait of the thread's lanes with the most time in [from, to) (ties: the later start, the
// inner one); overlap 0 when none.
ThreadWait longestWait(GapContext& cx, const std::vector<TrackId>& lanes, TimeNs from, TimeNs to) {
    ThreadWait best;
    TimeNs bestStart = INT64_MIN;
    auto consider = [&](TrackId track, const SliceColumns& c, SliceIndex i) {
        const TimeNs overlap = std::min(to, c.end(i)) - std::max(from, c.start[i]);
        if (overlap <= 0 || overlap < best.overlap) return;
        if (overlap == best.overlap && c.start[i] <= bestStart) return;
        if (!isWait(cx, track, c, i)) return;
        best.call = {track, i};
        best.overlap = overlap;
        bestStart = c.start[i];
    };
    for (TrackId track : lanes) {
        const SliceColumns& c = cx.trace.track(track).slices;
        const auto& st = c.start;
        auto it = std::upper_bound(st.begin(), st.end(), from);
        // Open at `from`: the last slice starting at or before it, and its ancestors.
        for (SliceIndex i = it == st.begin() ? kNoSlice : SliceIndex(it - st.begin() - 1);
             i != kNoSlice; i = c.parent[i])
            consider(track, c, i);
        for (auto k = SliceIndex(it - st.begin()); k < c.size() && st[k] < to; ++k)
            consider(track, c, k);
    }
    return best;
}

} // namespace

std::vector<ThreadWait> threadWaits(GapContext& cx, SliceRef launch, TimeNs start, TimeNs end) {
    std::vector<ThreadWait> out;
    if (!launch.valid() || end <= start) return out;
    const Trace& t = cx.trace;
    const TimeNs returned = std::clamp(t.start(launch) + t.duration(launch), start, end);
    auto add = [&](const std::vector<TrackId>& lanes, TimeNs from, bool launching) {
        ThreadWait w = longestWait(cx, lanes, from, end);
        if (w.overlap <= 0) return;
        const Track& tr = t.track(lanes.front());
        w.pid = tr.pid;
        w.tid = tr.tid;
        w.launching = launching;
        out.push_back(w);
    };
    if (returned < end) add(cx.lanesOf(launch.track), returned, true);
    for (const std::vector<TrackId>* lanes : cx.otherThreadsOf(launch.track))
        add(*lanes, start, false);
    std::stable_sort(out.begin(), out.end(), [](const ThreadWait& a, const ThreadWait& b) {
        return a.overlap > b.overlap;
    });
    if (out.size() > kMaxThreadWaits) out.resize(kMaxThreadWaits);
    return out;
}

} // namespace strata
