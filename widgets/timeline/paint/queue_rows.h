#pragma once
// The launch queue rows (issue 46): under a GPU stream's row, how many operations launch calls
// had enqueued on it and not yet started, over time (core/analysis/ops/launch_queue.h, HTA's
// queue length), a step line scaled to the stream's maximum; the tooltip gives the length at
// the cursor, the maximum and the time spent at it. Off by default (View > Launch Queue Rows);
// built off the GUI thread from the trace's analysis.
#include "analysis/ops/launch_queue.h"
#include "timeline/layout/track_layout.h"

#include <QPainter>
#include <QString>

#include <map>
#include <utility>

namespace strata {

struct TimelineState;

class QueueRows {
public:
    void build(LaunchQueue queue);
    void clear() { streams_.clear(); }
    const StreamQueue* stream(int32_t device, int64_t stream) const;
    // The queue length of a stream at t (after every change at or before t).
    static int64_t lengthAt(const StreamQueue& q, TimeNs t);

private:
    std::map<std::pair<int32_t, int64_t>, StreamQueue> streams_;
};

void paintQueue(QPainter& p, const TimelineState& s, const TrackRow& r, int top, int width);
QString queueTooltip(const StreamQueue& q, TimeNs t);

} // namespace strata
