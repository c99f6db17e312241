#pragma once
// Everything the timeline's parts (view, ruler, track tree, tracks area, painter) share: the
// trace, the time axis, the track layout, the level-of-detail summaries, gaps, selection and
// scratch buffers reused from frame to frame.
#include "analysis/correlation.h"
#include "flow_index.h"
#include "gap_index.h"
#include "lod_cache.h"
#include "model/lod_summary.h"
#include "model/trace.h"
#include "slice_palette.h"
#include "time_axis.h"
#include "track_layout.h"

#include <QFontMetrics>
#include <QHash>
#include <QRect>
#include <QStaticText>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace strata {

struct TimelineState {
    std::shared_ptr<const Trace> trace;
    TimeAxis axis;
    TrackLayout layout;
    GapIndex gaps;
    TimeNs gapThreshold = 10'000;
    FlowIndex flows;
    bool showAllFlows = false;

    SliceRef selected;
    Correlated correlated;
    std::optional<TimeRange> range;
    std::vector<SliceRef> highlights; // sorted
    std::optional<GapSpan> hoveredGap;
    std::optional<double> hoverX; // last mouse x over the tracks area (keyboard zoom anchor)

    int scrollY = 0;
    SliceColorCache colors;

    // The track's level-of-detail summary, built on first use (thread-safe).
    const TrackLod& lod(TrackId id);
    void prebuildLods(); // builds them all on a worker thread
    void reset(std::shared_ptr<const Trace> t);
    size_t memoryBytes() const;

    // Bucket level for drawing and hit testing: buckets of 1-2 px, so slices under 2-4 px are
    // merged into runs (fewer, steadier rectangles; Tracy merges below 3 px).
    int queryLevel() const { return TrackLod::levelFor(axis.nsPerPixel()) + 1; }

    // Pixel rect of a span [start, end) drawn at `y` with height `h` (same rounding everywhere).
    QRect spanRect(TimeNs start, TimeNs end, int y, int h) const;
    // Where a slice is drawn in tracks-area coordinates (scroll applied); null if not shown.
    QRect sliceRect(SliceRef r) const;
    // Label of a string id, cached (no allocation per slice per frame once warm).
    const QString& label(StringId id);
    // The label as prepared text fitting `width` px (elided, widths quantized to 12 px so
    // panning reuses it), or null when not even an ellipsis fits. Cached across frames.
    const QStaticText* fittedLabel(StringId id, int width, const QFontMetrics& fm);

    // Scratch, reused every frame.
    std::vector<LodSpan> spans;
    std::vector<LodCounterCell> cells;
    std::vector<uint8_t> busy;
    std::vector<double> counterMax; // per track, NaN until computed

private:
    LodCache lods_;
    std::vector<QString> labels_;
    std::vector<uint8_t> labelDone_;
    std::vector<int> labelWidth_; // -1 until measured
    std::vector<QStaticText> fullLabel_;
    QHash<quint64, QStaticText> elided_;
};

} // namespace strata
