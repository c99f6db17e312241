#pragma once
// GPU idle gaps longer than a threshold, per stream and per device, for the timeline's idle
// bands. The gaps come from core/analysis/gpu_gaps (computeGpuGaps: one definition of a gap);
// only those strictly longer than the threshold are kept here, as compact intervals sorted by
// start, so the view's memory stays small.
#include "model/trace.h"

#include <map>
#include <utility>
#include <vector>

namespace strata {

struct GapSpan {
    TimeNs start = 0;
    TimeNs end = 0;
    TimeNs duration() const { return end - start; }
};

// A list of gaps and their running idle total, to ask how much of any interval was idle in
// O(log n): what a pixel column at coarse zoom must show (its idle share), not whether some gap
// touches it.
struct GapList {
    const std::vector<GapSpan>* spans = nullptr;
    const std::vector<TimeNs>* cumulative = nullptr; // cumulative[i] = idle of spans[0..i)
    // Idle time (inside the listed gaps) before t.
    TimeNs idleBefore(TimeNs t) const;
    TimeNs idleBetween(TimeNs t0, TimeNs t1) const { return idleBefore(t1) - idleBefore(t0); }
    bool empty() const { return !spans || spans->empty(); }
};

class GapIndex {
public:
    void compute(const Trace& trace, TimeNs threshold);
    void clear();
    TimeNs threshold() const { return threshold_; }

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

private:
    TimeNs threshold_ = 0;
    std::map<std::pair<int32_t, int64_t>, std::vector<GapSpan>> streams_;
    std::map<int32_t, std::vector<GapSpan>> devices_;
    std::map<std::pair<int32_t, int64_t>, std::vector<TimeNs>> streamCum_;
    std::map<int32_t, std::vector<TimeNs>> deviceCum_;
};

} // namespace strata
