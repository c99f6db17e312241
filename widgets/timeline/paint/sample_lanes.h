#pragma once
// Sampled stacks on the timeline (issue 45): under each thread with samples, a thin lane where
// each sample is a tick as wide as the sampling period, coloured by its innermost frame (the
// colour a slice of that name gets), so zoomed out the ticks run together into coloured runs.
// One sample is drawn per pixel column (the first at or after it: a frame costs pixels x
// log(samples), whatever the recording's length); samples with no frame are not drawn. Hovering
// a tick shows its stack, innermost first.
#include "model/trace.h"

#include <QPainter>
#include <QString>

namespace strata {

struct TimelineState;
class TimelineRenderCache;

// The samples of `thread` in the lane at y, `height` high (tracks-area coordinates): those of its
// timeKind() (Python where it has any), each as long as the cache's period for that kind (0:
// drawn a pixel wide; a tick ends at the next sample).
void paintSampleLane(QPainter& p, const TimelineState& s, TimelineRenderCache& c,
                     const SampleThread& thread, int y, int height, int width);

// The sample drawn at `pos` (tracks-area coordinates; within two pixels of its tick).
struct SampleHit {
    const SampleThread* thread = nullptr;
    uint64_t index = 0; // within the thread's samples
    bool valid() const { return thread != nullptr; }
};
SampleHit sampleAt(const TimelineState& s, QPoint pos, const TimelineRenderCache& c);

// A sample's time from the trace's start and its stack, innermost first, a frame a line
// (style/frame_text.h).
QString sampleTooltip(const Trace& t, const SampleThread& thread, uint64_t index);

} // namespace strata
