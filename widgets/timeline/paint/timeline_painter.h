#pragma once
// Paints the tracks area (slices by depth, GPU lanes with idle bands, device idle rows,
// counters, instants) and the overlays (range, highlights, correlation, flows, selection), and
// says which slice is drawn at a point (hit testing). A frame asks each visible track's
// level-of-detail summary for the spans at the current scale, so its cost grows with pixels x
// visible tracks, not with the trace. The painter owns the render cache (summaries, labels,
// colours, flow index, counter maxima): built when a trace is set, read while painting.
#include "render_cache.h"
#include "timeline/timeline_state.h"

#include <QPainter>

namespace strata {

class TimelinePainter {
public:
    TimelineRenderCache& cache() { return cache_; }
    void paint(const TimelineState& s, QPainter& p, const QSize& size);
    SliceRef sliceAt(const TimelineState& s, QPoint posInTracksArea);
    // What is drawn at a point: the slice (of a merged block, its longest, and how many slices
    // the block stands for), and the folded level it is on.
    struct Hit {
        SliceRef slice;
        bool merged = false;
        uint32_t count = 1;
        TimeNs start = 0, end = 0; // the span drawn
        DepthFold fold;            // count > 1 on a folded level
    };
    Hit hitAt(const TimelineState& s, QPoint posInTracksArea);
    size_t memoryBytes() const;

private:
    TimelineRenderCache cache_;
    // Scratch, reused every frame.
    std::vector<LodSpan> spans_;
    std::vector<LodCounterCell> cells_;
    std::vector<uint8_t> busy_;
};

} // namespace strata
