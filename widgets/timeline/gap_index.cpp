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
    streamCum_.clear();
    deviceCum_.clear();
}

namespace {

std::vector<TimeNs> cumulativeOf(const std::vector<GapSpan>& v) {
    std::vector<TimeNs> c(v.size() + 1, 0);
    for (size_t i = 0; i < v.size(); ++i) c[i + 1] = c[i] + v[i].duration();
    return c;
}

const std::vector<TimeNs> kNoCum{0};

} // namespace

TimeNs GapList::idleBefore(TimeNs t) const {
    if (empty()) return 0;
    const size_t i = GapIndex::firstEndingAfter(*spans, t);
    TimeNs idle = (*cumulative)[i];
    if (i < spans->size() && t > (*spans)[i].start) idle += t - (*spans)[i].start;
    return idle;
}

GapList GapIndex::streamList(int32_t device, int64_t stream) const {
    auto it = streamCum_.find({device, stream});
    return {&streamGaps(device, stream), it == streamCum_.end() ? &kNoCum : &it->second};
}

GapList GapIndex::deviceList(int32_t device) const {
    auto it = deviceCum_.find(device);
    return {&deviceGaps(device), it == deviceCum_.end() ? &kNoCum : &it->second};
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
        streamCum_[k] = cumulativeOf(v);
    }
    for (auto& [k, v] : devices_) {
        std::sort(v.begin(), v.end(), byStart);
        v.shrink_to_fit();
        deviceCum_[k] = cumulativeOf(v);
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
    for (const auto& [k, v] : streamCum_) b += v.capacity() * sizeof(TimeNs);
    for (const auto& [k, v] : deviceCum_) b += v.capacity() * sizeof(TimeNs);
    return b;
}

} // namespace strata
