#pragma once
// One frame of the timeline painter: what every row painter reads (the view state, the render
// cache, the painter, the visible time range padded by two pixels, the bucket level) and the
// scratch it reuses. Internal to the painter's files (timeline_painter.cpp, slice_levels.cpp).
#include "render_cache.h"
#include "timeline/timeline_state.h"

#include <QFontMetrics>
#include <QPainter>

#include <map>
#include <vector>

namespace strata {

struct PainterFrame {
    const TimelineState& s;
    TimelineRenderCache& c;
    std::vector<LodSpan>& spans;
    std::vector<LodCounterCell>& cells;
    std::vector<uint8_t>& busy;
    QPainter& p;
    const Trace& trace;
    int w, h;
    TimeNs tq0, tq1; // visible time range plus two pixels each side
    int level;
    QFontMetrics fm;
    int xTraceStart, xTraceEnd;
    QRgb pen = 0;
    // Per GPU stream track, which pixel columns it is busy in (this frame): a stream's band and
    // its device's idle row ask the same question.
    std::map<TrackId, std::vector<uint8_t>> busyColumns{};
};

// The levels of a slices row's lanes (folded levels, merged level-of-detail blocks drawn as
// many slices, labels), from `top` (slice_levels.cpp).
void paintSliceLevels(PainterFrame& f, const TrackRow& r, int top);

} // namespace strata
