#pragma once
// The critical path on the timeline (issue 46; core/analysis/critical_path/critical_path.h): the
// path's events drawn as they are and everything else dimmed, and the path's edges between
// events (launch delays, kernel-kernel delays, syncs, cross-thread dependencies) drawn as arrows
// like the flow arrows. Built once when a path is shown: per track its events sorted by start
// with the running maximum of their ends, and the arrows sorted by their earlier time with the
// running maximum of their later one, so a frame finds what is in view by binary search and
// costs O(rows + what is in view), whatever the path's length.
#include "analysis/critical_path/critical_path.h"
#include "painter_frame.h"

#include <memory>
#include <vector>

namespace strata {

class CriticalPathOverlay {
public:
    // The path of `trace` (its events must be that trace's).
    CriticalPathOverlay(const Trace& trace, std::shared_ptr<const CriticalPath> path);

    const CriticalPath& path() const { return *path_; }
    const Trace* trace() const { return trace_; }
    bool contains(SliceRef r) const; // an event of the path
    // Calls f(slice index) for the path's events of `track` that overlap [t0, t1).
    template <class F> void forEachIn(TrackId track, TimeNs t0, TimeNs t1, F f) const;

    struct Arrow {
        TimeNs t0 = 0, t1 = 0; // the edge's source and destination times
        SliceRef from, to;     // the events they are points of
        CpEdgeType type = CpEdgeType::Operator;
    };
    // Calls f(arrow) for the arrows with a time in [t0, t1) or spanning it, at most `cap`.
    template <class F> void forEachArrowIn(TimeNs t0, TimeNs t1, size_t cap, F f) const;
    size_t arrowCount() const { return arrows_.size(); }

private:
    struct TrackEvents {
        std::vector<SliceIndex> slices; // by start (a track's slice order)
        std::vector<TimeNs> maxEnd;     // running maximum of their ends
    };
    const Trace* trace_;
    std::shared_ptr<const CriticalPath> path_;
    std::vector<TrackEvents> tracks_; // by TrackId
    std::vector<Arrow> arrows_;       // by min(t0, t1)
    std::vector<TimeNs> arrowMaxEnd_; // running maximum of max(t0, t1)
};

// Dims what is not on the path (over the rows, under the other overlays) and draws its arrows.
void paintCriticalPath(PainterFrame& f, const CriticalPathOverlay& path);

template <class F>
void CriticalPathOverlay::forEachIn(TrackId track, TimeNs t0, TimeNs t1, F f) const {
    if (track >= tracks_.size()) return;
    const TrackEvents& e = tracks_[track];
    const auto first = std::lower_bound(e.maxEnd.begin(), e.maxEnd.end(), t0) - e.maxEnd.begin();
    const SliceColumns& c = trace_->track(track).slices;
    for (size_t i = size_t(first); i < e.slices.size(); ++i) {
        const SliceIndex s = e.slices[i];
        if (c.start[s] >= t1) break;
        if (c.end(s) > t0 || c.start[s] >= t0) f(s);
    }
}

template <class F>
void CriticalPathOverlay::forEachArrowIn(TimeNs t0, TimeNs t1, size_t cap, F f) const {
    auto i = size_t(std::lower_bound(arrowMaxEnd_.begin(), arrowMaxEnd_.end(), t0) -
                    arrowMaxEnd_.begin());
    for (size_t n = 0; i < arrows_.size() && n < cap; ++i) {
        const Arrow& a = arrows_[i];
        if (std::min(a.t0, a.t1) >= t1) break;
        if (std::max(a.t0, a.t1) < t0) continue;
        f(a);
        ++n;
    }
}

} // namespace strata
