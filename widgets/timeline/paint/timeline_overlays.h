#pragma once
// What the timeline painter draws over the rows (timeline_painter.cpp): the selected range and
// its length, Find's highlights, the selection's correlated slices and launch arrows (every flow
// with "Show All Flows"), the selected slice's double outline, the instant Find is on.
#include "painter_frame.h"

namespace strata {

void paintOverlays(PainterFrame& f);

} // namespace strata
