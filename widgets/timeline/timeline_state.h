#pragma once
// The timeline's view state: the trace it shows, the time axis, the track layout, the long GPU
// gaps, what is highlighted and hovered, the vertical scroll. TimelineView owns and alone writes
// it; its parts (ruler, track tree, tracks area, painter) read it and send requests back as
// signals. The selection and the selected range live in Navigation, shared with every view;
// the painter's caches live in the painter.
#include "analysis/correlation.h"
#include "model/lod_summary.h"
#include "model/timeline_notes.h"
#include "model/trace.h"
#include "time_axis.h"
#include "timeline/layout/track_layout.h"
#include "timeline/lod/gap_index.h"
#include "timeline/paint/gpu_utilisation.h"
#include "timeline/paint/memory_rows.h"
#include "timeline/paint/queue_rows.h"

#include <QRect>

#include <memory>
#include <optional>
#include <vector>

namespace strata {

class Navigation;
class CriticalPathOverlay;

struct TimelineState {
    std::shared_ptr<const Trace> trace;
    const Navigation* nav = nullptr; // selection and selected range
    TimeAxis axis;                   // the navigation's visible range, in pixels
    TrackLayout layout;
    // From the trace's analysis, built off the GUI thread (TimelineView::indexAnalysis).
    GapIndex gaps;
    GpuUtilisation utilisation;
    MemoryRows memory;
    QueueRows queues;
    bool showAllFlows = false;
    // The wheel over the timeline: false = zooms (Shift scrolls the tracks); true = Perfetto's
    // habit: scrolls the tracks, Ctrl zooms, Shift pans. A horizontal wheel (touchpad) pans.
    bool wheelScrolls = false;

    Correlated correlated;                     // of the selected slice
    std::vector<SliceRef> highlights;          // sorted (find results)
    std::vector<InstantRef> instantHighlights; // instants Find matched
    InstantRef currentInstant;                 // the instant Find is on
    std::optional<TimeRange> rangePreview;     // a range being dragged on the ruler
    // The critical path shown (the rest dimmed, its edges as arrows); null: none.
    std::shared_ptr<const CriticalPathOverlay> criticalPath;
    std::optional<GapSpan> hoveredGap;
    std::optional<double> hoverX; // last mouse x over the tracks area (keyboard zoom anchor)
    // The user's notes and flags (timeline/paint/note_marks.h), and the one last clicked (-1).
    std::vector<TimelineNote> notes;
    int selectedNote = -1;
    int scrollY = 0;

    // The selected slice when it is in this trace, else invalid.
    SliceRef selected() const;
    // The range being dragged, else the selected range.
    std::optional<TimeRange> range() const;

    // Bucket level for drawing and hit testing: buckets of 1-2 px, so slices under 2-4 px are
    // merged into runs (fewer, steadier rectangles; Tracy merges below 3 px).
    int queryLevel() const { return TrackLod::levelFor(axis.nsPerPixel()) + 1; }
    // Pixel rect of a span [start, end) drawn at `y` with height `h` (same rounding everywhere).
    QRect spanRect(TimeNs start, TimeNs end, int y, int h) const;
    // Where a slice is drawn in tracks-area coordinates (scroll applied); null if not shown.
    QRect sliceRect(SliceRef r) const;
    size_t memoryBytes() const;
};

} // namespace strata
