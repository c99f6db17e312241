#pragma once
// GPU idle gaps longer than a threshold, per stream and per device, for the timeline's idle bands.
// Definitions (shared with core/analysis/gpu_gaps when it lands):
//   stream gap = next.start - prev.end over the stream's kernels in start order (prev.end is the
//                latest end so far, so overlapping lanes do not make negative gaps), positive only;
//   device gap = a hole in the union of kernels, memcpy and memset of all the device's streams.
// Only gaps longer than the threshold are kept (sorted by start), so memory stays small.
#include "model/trace.h"

#include <map>
#include <utility>
#include <vector>

namespace strata {

struct GpuGap {
    TimeNs start = 0;
    TimeNs end = 0;
    TimeNs duration() const { return end - start; }
};

class GapIndex {
public:
    void compute(const Trace& trace, TimeNs threshold);
    void clear();
    TimeNs threshold() const { return threshold_; }

    // Gaps longer than the threshold (empty when none or unknown).
    const std::vector<GpuGap>& streamGaps(int32_t device, int64_t stream) const;
    const std::vector<GpuGap>& deviceGaps(int32_t device) const;
    // Index of the first gap in `gaps` that ends after t.
    static size_t firstEndingAfter(const std::vector<GpuGap>& gaps, TimeNs t);
    size_t memoryBytes() const;

private:
    TimeNs threshold_ = 0;
    std::map<std::pair<int32_t, int64_t>, std::vector<GpuGap>> streams_;
    std::map<int32_t, std::vector<GpuGap>> devices_;
};

} // namespace strata
