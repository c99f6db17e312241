#pragma once
// The user's notes and flags (model/timeline_notes.h) drawn on the timeline: across the tracks a
// note as a thin vertical line, a flag as a shaded band with edges, each with a tag of its text at
// the top; on the ruler a note as a marker, a flag as a bar over its range. Hit testing on the
// ruler and the tracks, and the text a hover shows.
#include "timeline/timeline_state.h"

#include <QPainter>
#include <QString>

namespace strata {

// Over the tracks area (w x h).
void paintNoteMarks(QPainter& p, const TimelineState& s, int w, int h);
// On the ruler (w x h): markers in its top kRulerMarkHeight pixels.
void paintRulerNoteMarks(QPainter& p, const TimelineState& s, int w, int h);
inline constexpr int kRulerMarkHeight = 9;

// The note or flag at x: a note's line or a flag's edge within 4 px (the nearest), else the
// narrowest flag that holds x when `inside`; -1 none.
int noteAtX(const TimelineState& s, double x, bool inside);
// "Note at 1.250 ms: text", "Flag 1.250 ms – 2.500 ms (1.250 ms): text" (times from the trace
// start).
QString noteTooltip(const TimelineState& s, const TimelineNote& n);

} // namespace strata
