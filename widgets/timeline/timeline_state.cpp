#include "timeline_state.h"

#include "workspace/navigation.h"

#include <algorithm>
#include <cmath>

namespace strata {

SliceRef TimelineState::selected() const {
    if (!nav || !trace) return {};
    const TraceSliceRef r = nav->selectedSlice();
    return r.trace == nav->workspace()->currentId() ? r.slice : SliceRef{};
}

std::optional<TimeRange> TimelineState::range() const {
    if (rangePreview) return rangePreview;
    return nav ? nav->selectedRange() : std::nullopt;
}

size_t TimelineState::memoryBytes() const {
    size_t b = sizeof(*this) + gaps.memoryBytes();
    b += highlights.capacity() * sizeof(SliceRef) + correlated.slices.capacity() * sizeof(SliceRef);
    b += layout.rows().size() * 256;
    return b;
}

QRect TimelineState::spanRect(TimeNs start, TimeNs end, int y, int h) const {
    const double lim = 1e7;
    const double x0 = std::clamp(axis.xForTime(start), -lim, lim);
    const double x1 = std::clamp(axis.xForTime(end), -lim, lim);
    const int ix0 = static_cast<int>(std::floor(x0));
    const int ix1 = std::max(ix0 + 1, static_cast<int>(std::lround(x1)));
    return QRect(ix0, y, ix1 - ix0, h);
}

QRect TimelineState::sliceRect(SliceRef r) const {
    if (!trace || !r.valid() || r.track >= trace->tracks().size()) return {};
    const Track& t = trace->track(r.track);
    if (r.index >= t.slices.size()) return {};
    const int y = layout.sliceY(r.track, t.slices.depth[r.index]);
    if (y < 0) return {};
    return spanRect(t.slices.start[r.index], t.slices.end(r.index), y - scrollY + 1,
                    TrackLayout::kDepthHeight - 2);
}

} // namespace strata
