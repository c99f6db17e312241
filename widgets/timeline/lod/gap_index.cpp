#include "gap_index.h"

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
    streamCause_.clear();
    deviceCause_.clear();
    analysis_.reset();
}

TimeNs GapIndex::threshold() const {
    return analysis_ ? analysis_->settings().gapThreshold : 0;
}

const ExplainedGap* GapIndex::explained(const GapSpan& g) const {
    if (!analysis_) return nullptr;
    const GapCauses& causes = analysis_->gapCauses();
    const size_t d = causes.deviceGaps.size();
    if (g.explained < d) return &causes.deviceGaps[g.explained];
    if (g.explained < d + causes.streamGaps.size()) return &causes.streamGaps[g.explained - d];
    return nullptr;
}

namespace {

std::vector<TimeNs> cumulativeOf(const std::vector<GapSpan>& v) {
    std::vector<TimeNs> c(v.size() + 1, 0);
    for (size_t i = 0; i < v.size(); ++i) c[i + 1] = c[i] + v[i].duration();
    return c;
}

std::array<std::vector<TimeNs>, kGapCauseCount> causeCumulativeOf(const std::vector<GapSpan>& v) {
    std::array<std::vector<TimeNs>, kGapCauseCount> c;
    for (int k = 0; k < kGapCauseCount; ++k) {
        c[size_t(k)].assign(v.size() + 1, 0);
        for (size_t i = 0; i < v.size(); ++i)
            c[size_t(k)][i + 1] = c[size_t(k)][i] + (v[i].cause == k ? v[i].duration() : 0);
    }
    return c;
}

const std::vector<TimeNs> kNoCum{0};

} // namespace

TimeNs GapList::idleBefore(TimeNs t, int cause) const {
    if (empty() || !byCause || cause < 0 || cause >= kGapCauseCount) return 0;
    const size_t i = GapIndex::firstEndingAfter(*spans, t);
    TimeNs idle = (*byCause)[size_t(cause)][i];
    if (i < spans->size() && t > (*spans)[i].start && (*spans)[i].cause == cause)
        idle += t - (*spans)[i].start;
    return idle;
}

TimeNs GapList::idleBefore(TimeNs t) const {
    if (empty()) return 0;
    const size_t i = GapIndex::firstEndingAfter(*spans, t);
    TimeNs idle = (*cumulative)[i];
    if (i < spans->size() && t > (*spans)[i].start) idle += t - (*spans)[i].start;
    return idle;
}

GapList GapIndex::streamList(int32_t device, int64_t stream) const {
    auto it = streamCum_.find({device, stream});
    auto c = streamCause_.find({device, stream});
    return {&streamGaps(device, stream), it == streamCum_.end() ? &kNoCum : &it->second,
            c == streamCause_.end() ? nullptr : &c->second};
}

GapList GapIndex::deviceList(int32_t device) const {
    auto it = deviceCum_.find(device);
    auto c = deviceCause_.find(device);
    return {&deviceGaps(device), it == deviceCum_.end() ? &kNoCum : &it->second,
            c == deviceCause_.end() ? nullptr : &c->second};
}

void GapIndex::build(std::shared_ptr<const TraceAnalysis> analysis) {
    clear();
    if (!analysis) return;
    analysis_ = std::move(analysis);
    const GapCauses& causes = analysis_->gapCauses();
    const size_t d = causes.deviceGaps.size();
    for (size_t i = 0; i < d; ++i) {
        const ExplainedGap& e = causes.deviceGaps[i];
        devices_[e.gap.device].push_back({e.gap.start, e.gap.end, uint8_t(e.cause), uint32_t(i)});
    }
    for (size_t i = 0; i < causes.streamGaps.size(); ++i) {
        const ExplainedGap& e = causes.streamGaps[i];
        streams_[{e.gap.device, e.gap.stream}].push_back(
            {e.gap.start, e.gap.end, uint8_t(e.cause), uint32_t(d + i)});
    }
    auto byStart = [](const GapSpan& a, const GapSpan& b) { return a.start < b.start; };
    for (auto& [k, v] : streams_) {
        std::sort(v.begin(), v.end(), byStart);
        v.shrink_to_fit();
        streamCum_[k] = cumulativeOf(v);
        streamCause_[k] = causeCumulativeOf(v);
    }
    for (auto& [k, v] : devices_) {
        std::sort(v.begin(), v.end(), byStart);
        v.shrink_to_fit();
        deviceCum_[k] = cumulativeOf(v);
        deviceCause_[k] = causeCumulativeOf(v);
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
