#pragma once
// GPU utilisation over time, one row per device under its idle row: each pixel column filled as
// high as the share of its time in which the device ran a kernel, copy or set (the union of its
// streams' ops, core/analysis/gpu_ops.h: deviceBusySegments). It follows the timeline's zoom and
// pan; a column costs two binary searches over the device's busy segments. Built off the GUI
// thread from the GPU ops of the trace's analysis (shared with the gap causes and the docks).
// It also keeps each device's GPU time breakdown (core/analysis/ops/gpu_time_breakdown.h) for the
// tooltip of the device's idle row.
#include "analysis/ops/gpu_time_breakdown.h"
#include "model/trace.h"
#include "timeline/layout/track_layout.h"

#include <QPainter>

#include <map>
#include <vector>

namespace strata {

struct GpuOpList;
struct TimelineState;

class GpuUtilisation {
public:
    void build(const GpuOpList& ops);
    void clear() {
        devices_.clear();
        splits_.clear();
    }
    // The whole-device figures of the analysis' breakdown.
    void setBreakdown(const GpuTimeBreakdown& b);
    const GpuTimeSplit* split(int32_t device) const;
    // Busy time of `device` in [t0, t1).
    TimeNs busyBetween(int32_t device, TimeNs t0, TimeNs t1) const;
    bool has(int32_t device) const { return devices_.count(device) > 0; }

private:
    struct Device {
        std::vector<TimeNs> start, end; // busy segments, sorted, disjoint
        std::vector<TimeNs> before;     // busy time before segment i
    };
    TimeNs busyBefore(const Device& d, TimeNs t) const;
    std::map<int32_t, Device> devices_;
    std::map<int32_t, GpuTimeSplit> splits_;
};

// What the idle row of `device` says on hover (outside a gap): its span split into computation,
// exposed communication, exposed memcpy and idle, with communication and memcpy whole.
QString deviceTimeTooltip(int32_t device, const GpuTimeSplit& s);

// The Utilisation row at `top` (tracks-area coordinates).
void paintUtilisation(QPainter& p, const TimelineState& s, const GpuUtilisation& u,
                      const TrackRow& r, int top, int width);

} // namespace strata
