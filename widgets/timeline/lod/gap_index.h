#pragma once
// GPU idle gaps longer than the threshold, per stream and per device, for the timeline's idle
// bands: the gaps and causes of the trace's analysis (core/analysis/trace_analysis.h, the one
// computation every view shares) indexed as compact intervals sorted by start, with running idle
// totals, so a pixel column's idle share is two binary searches.
#include "analysis/trace_analysis.h"

#include <array>
#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace strata {

struct GapSpan {
    TimeNs start = 0;
    TimeNs end = 0;
    uint8_t cause = 0xff;            // GapCause, 0xff unknown
    uint32_t explained = UINT32_MAX; // GapIndex::explained() index
    TimeNs duration() const { return end - start; }
};

// A list of gaps and their running idle total, to ask how much of any interval was idle in
// O(log n): what a pixel column at coarse zoom must show (its idle share), not whether some gap
// touches it.
struct GapList {
    const std::vector<GapSpan>* spans = nullptr;
    const std::vector<TimeNs>* cumulative = nullptr; // cumulative[i] = idle of spans[0..i)
    // The same per cause: byCause[c][i] = idle of the gaps of cause c in spans[0..i).
    const std::array<std::vector<TimeNs>, kGapCauseCount>* byCause = nullptr;
    // Idle time (inside the listed gaps) before t.
    TimeNs idleBefore(TimeNs t) const;
    // The same, only in gaps of `cause`.
    TimeNs idleBefore(TimeNs t, int cause) const;
    TimeNs idleBetween(TimeNs t0, TimeNs t1) const { return idleBefore(t1) - idleBefore(t0); }
    bool empty() const { return !spans || spans->empty(); }
};

class GapIndex {
public:
    // Indexes the analysis's gap causes (computing them if nobody has yet: call off the GUI
    // thread); the index keeps the analysis.
    void build(std::shared_ptr<const TraceAnalysis> analysis);
    void clear();
    TimeNs threshold() const;

    // Gaps longer than the threshold (empty when none).
    const std::vector<GapSpan>& streamGaps(int32_t device, int64_t stream) const;
    const std::vector<GapSpan>& deviceGaps(int32_t device) const;
    GapList streamList(int32_t device, int64_t stream) const;
    GapList deviceList(int32_t device) const;
    // Index of the first gap in `gaps` that ends after t.
    static size_t firstEndingAfter(const std::vector<GapSpan>& gaps, TimeNs t);
    // The same, searching forward from `from` (galloping: cheap when the answer is near).
    static size_t firstEndingAfter(const std::vector<GapSpan>& gaps, size_t from, TimeNs t);
    size_t memoryBytes() const;
    // Why the GPU waited in a gap (its cause, launch, lateness, CPU work), or null.
    const ExplainedGap* explained(const GapSpan& g) const;
    // The analysis indexed (null when cleared).
    const std::shared_ptr<const TraceAnalysis>& analysis() const { return analysis_; }

private:
    std::shared_ptr<const TraceAnalysis> analysis_; // GapSpan::explained: device, then stream gaps
    std::map<std::pair<int32_t, int64_t>, std::vector<GapSpan>> streams_;
    std::map<int32_t, std::vector<GapSpan>> devices_;
    std::map<std::pair<int32_t, int64_t>, std::vector<TimeNs>> streamCum_;
    std::map<int32_t, std::vector<TimeNs>> deviceCum_;
    std::map<std::pair<int32_t, int64_t>, std::array<std::vector<TimeNs>, kGapCauseCount>>
        streamCause_;
    std::map<int32_t, std::array<std::vector<TimeNs>, kGapCauseCount>> deviceCause_;
};

} // namespace strata
