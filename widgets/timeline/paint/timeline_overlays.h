#pragma once
// What the timeline painter draws over the rows (timeline_painter.cpp): the selected range and
// its length, Find's highlights, the selection's correlated slices and launch arrows (every flow
// with "Show All Flows"), the selected slice's double outline, the instant Find is on.
#include "painter_frame.h"

namespace strata {

void paintOverlays(PainterFrame& f);
// A flow arrow from a to b: a vertical S-curve, its head at b (the critical path draws its
// edges so too: critical_path_overlay.h).
void drawFlowArrow(QPainter& p, QPointF a, QPointF b, const QColor& col);

} // namespace strata
