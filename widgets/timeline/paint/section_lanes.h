#pragma once
// In-kernel sections on the main timeline: each kernel launch with section records carries a
// marker (§) on its slice, and each GPU device with such launches gets an "In-kernel sections"
// row under its streams: collapsed, a strip per launch naming its sections' shares; expanded
// (click its label), one lane per SM where every block's sections are drawn in time, shifted
// from the device's %globaltimer to the trace's clock at the kernel's start
// (core/analysis/section_lanes.h). Drawn per pixel column (a raster), so a frame costs the
// samples of the launches in view, not the trace.
#include "model/trace.h"
#include "timeline/timeline_state.h"

#include <QPainter>
#include <QString>

#include <map>
#include <vector>

namespace strata {

class SectionLanesCache {
public:
    struct Launch {
        const SectionSet* set = nullptr;
        SliceRef kernel;
        TimeNs start = 0, end = 0; // the kernel's span
        TimeNs shift = 0;          // device ns -> trace time
        int32_t device = -1;
        QString summary; // "§ matmul — load tile 41% · compute 52% · store 7%"
        // Level of detail: the samples by start (a zoomed frame reads the ones in view), and a
        // raster of `buckets` time buckets per SM this launch ran on (section + 1 of the last
        // sample in the bucket, 0 none) that a frame showing the launch narrower than its
        // buckets draws instead of the samples. The raster holds at most as many cells as the
        // launch has samples (buckets = samples / its SMs, 1..4096): memory follows the records,
        // never launches x the device's SMs.
        std::vector<uint32_t> byStart;
        int64_t maxDuration = 0;
        int buckets = 0;
        int64_t summaryStart = 0, summaryEnd = 0; // device ns the buckets cover
        std::vector<uint32_t> summaryLanes;       // per raster row: its lane (index in smsOf)
        std::vector<uint16_t> summary_;           // summaryLanes.size() x buckets
    };
    void reset(const Trace* trace);
    const std::vector<Launch>& launches() const { return launches_; } // by kernel start
    // The SMs with sections on `device`, ascending (a lane each when expanded).
    const std::vector<uint16_t>& smsOf(int32_t device) const;
    bool empty() const { return launches_.empty(); }

private:
    void buildDetail(Launch& l) const;
    std::vector<Launch> launches_;
    std::map<int32_t, std::vector<uint16_t>> sms_;
};

// The row of kind Sections at `top` (tracks-area coordinates).
void paintSectionLanes(QPainter& p, const TimelineState& s, const SectionLanesCache& c,
                       const TrackRow& r, int top, int width);
// The § marker on each kernel slice with sections that is drawn in view.
void paintSectionMarkers(QPainter& p, const TimelineState& s, const SectionLanesCache& c, int width,
                         int height);

} // namespace strata
