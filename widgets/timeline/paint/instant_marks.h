#pragma once
// Instants on the timeline (issue 28): a thread's instants in a strip above its slices (PyTorch's
// `[memory]` allocations, CPU instant events, NVTX marks), a process's or the trace's in their
// Instants rows; a tick each (one per two pixels where they crowd), hit tested within two pixels,
// outlined when Find matched them, with their args in the tooltip.
#include "model/trace.h"

#include <QPainter>
#include <QRect>
#include <QString>

namespace strata {

struct TimelineState;

// The instants of `track` as ticks in the strip at y (tracks-area coordinates), in colour `col`.
void paintInstantMarks(QPainter& p, const TimelineState& s, const Track& track, int y, int width,
                       QColor col);
// The instant drawn at `pos` (tracks-area coordinates, within two pixels), else invalid.
InstantRef instantAt(const TimelineState& s, QPoint pos);
// Where an instant's tick is drawn (tracks-area coordinates), null when its row is not shown.
QRect instantRect(const TimelineState& s, InstantRef r);
// Its name, time from the trace's start and args (byte counts in binary units).
QString instantTooltip(const Trace& t, InstantRef r);

} // namespace strata
