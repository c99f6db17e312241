#pragma once
// Paints the tracks area (slices by depth, GPU lanes with idle bands, device idle rows,
// counters, instants) and the overlays (range, highlights, correlation, flows, selection).
// A frame asks each visible track's level-of-detail summary for the spans at the current scale,
// so its cost grows with pixels x visible tracks, not with the trace.
#include "timeline_state.h"

#include <QPainter>

namespace strata {

void paintTracks(TimelineState& s, QPainter& p, const QSize& size);

} // namespace strata
