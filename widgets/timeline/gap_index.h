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

class GapIndex {
public:
    void compute(const Trace& trace, TimeNs threshold);
    void clear();
    TimeNs threshold() const { return threshold_; }

    // Gaps longer than the threshold (empty when none).
    const std::vector<GapSpan>& streamGaps(int32_t device, int64_t stream) const;
    const std::vector<GapSpan>& deviceGaps(int32_t device) const;
    // Index of the first gap in `gaps` that ends after t.
    static size_t firstEndingAfter(const std::vector<GapSpan>& gaps, TimeNs t);
    // The same, searching forward from `from` (galloping: cheap when the answer is near).
    static size_t firstEndingAfter(const std::vector<GapSpan>& gaps, size_t from, TimeNs t);
    size_t memoryBytes() const;

private:
    TimeNs threshold_ = 0;
    std::map<std::pair<int32_t, int64_t>, std::vector<GapSpan>> streams_;
    std::map<int32_t, std::vector<GapSpan>> devices_;
};

} // namespace strata
