#include "gap_index.h"

#include "analysis/gpu_gaps.h"

#include <algorithm>

namespace strata {

namespace {
const std::vector<GapSpan> kNone;
} // namespace

void GapIndex::clear() {
    streams_.clear();
    devices_.clear();
}

void GapIndex::compute(const Trace& trace, TimeNs threshold) {
    clear();
    threshold_ = threshold;
    const GpuGaps g = computeGpuGaps(trace, threshold);
    for (const GpuGap& gap : g.streamGaps)
        if (gap.duration() > threshold)
            streams_[{gap.device, gap.stream}].push_back({gap.start, gap.end});
    for (const GpuGap& gap : g.deviceGaps)
        if (gap.duration() > threshold) devices_[gap.device].push_back({gap.start, gap.end});
    auto byStart = [](const GapSpan& a, const GapSpan& b) { return a.start < b.start; };
    for (auto& [k, v] : streams_) {
        std::sort(v.begin(), v.end(), byStart);
        v.shrink_to_fit();
    }
    for (auto& [k, v] : devices_) {
        std::sort(v.begin(), v.end(), byStart);
        v.shrink_to_fit();
    }
}

const std::vector<GapSpan>& GapIndex::streamGaps(int32_t device, int64_t stream) const {
    auto it = streams_.find({device, stream});
    return it == streams_.end() ? kNone : it->second;
}

const std::vector<GapSpan>& GapIndex::deviceGaps(int32_t device) const {
    auto it = devices_.find(device);
    return it == devices_.end() ? kNone : it->second;
}

size_t GapIndex::firstEndingAfter(const std::vector<GapSpan>& gaps, TimeNs t) {
    // Gaps of one stream or device do not overlap, so their ends are sorted like their starts.
    return static_cast<size_t>(std::partition_point(gaps.begin(), gaps.end(),
                                                    [t](const GapSpan& g) { return g.end <= t; }) -
                               gaps.begin());
}

size_t GapIndex::firstEndingAfter(const std::vector<GapSpan>& gaps, size_t from, TimeNs t) {
    size_t lo = from, step = 1;
    while (lo + step < gaps.size() && gaps[lo + step].end <= t) {
        lo += step;
        step *= 2;
    }
    const size_t hi = std::min(gaps.size(), lo + step + 1);
    return static_cast<size_t>(std::partition_point(gaps.begin() + static_cast<ptrdiff_t>(lo),
                                                    gaps.begin() + static_cast<ptrdiff_t>(hi),
                                                    [t](const GapSpan& g) { return g.end <= t; }) -
                               gaps.begin());
}

size_t GapIndex::memoryBytes() const {
    size_t b = 0;
    for (const auto& [k, v] : streams_) b += v.capacity() * sizeof(GapSpan) + 64;
    for (const auto& [k, v] : devices_) b += v.capacity() * sizeof(GapSpan) + 64;
    return b;
}

} // namespace strata
