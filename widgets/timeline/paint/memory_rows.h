#pragma once
// The memory rows (issue 28): under each GPU's idle row, the bytes allocated (dark) and reserved
// by the caching allocator (light) over time, from the trace's allocation records
// (core/analysis/memory_usage.h: PyTorch's `[memory]` events, the collector's allocation
// counters), the peak marked and said. Each pixel column shows the most held in it, so a short
// peak is never lost at any zoom; the tooltip names the allocation or free at the cursor.
#include "analysis/memory_usage.h"
#include "timeline/layout/track_layout.h"

#include <QFontMetrics>
#include <QPainter>
#include <QRect>
#include <QString>

#include <memory>
#include <vector>

namespace strata {

class TraceAnalysis;
struct TimelineState;

class MemoryRows {
public:
    // From the trace's analysis (its memory() computed, off the GUI thread).
    void build(std::shared_ptr<const TraceAnalysis> analysis);
    void clear() { analysis_.reset(); }
    const MemorySeries* series(int32_t device) const;
    std::vector<int32_t> gpuDevices() const; // the devices with a series (host memory left out)

private:
    std::shared_ptr<const TraceAnalysis> analysis_;
};

void paintMemory(QPainter& p, const TimelineState& s, const TrackRow& r, int top, int width);

// Where a memory row's two labels go (row at `top`, `width` wide, its peak's line at `peakX`):
// the legend at the top left; the peak's label beside its line on the first line, on the side
// that leaves the legend clear, else on the second line: never over the legend, always inside
// the row.
struct MemoryLabelRects {
    QRect legend, peak;
};
MemoryLabelRects memoryLabelRects(const QFontMetrics& fm, const QString& legend,
                                  const QString& peak, int peakX, int top, int width);
// The memory held at t and the allocation or free at (or last before) it.
QString memoryTooltip(const TimelineState& s, const TrackRow& r, TimeNs t);

} // namespace strata
