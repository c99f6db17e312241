#include "io/load_preview.h"

#include <algorithm>
#include <tuple>

namespace strata {

size_t LoadPreviewCollector::lane(std::unordered_map<uint64_t, size_t>& map, uint64_t key, bool gpu,
                                  int64_t a, int64_t b) {
    const auto [it, added] = map.try_emplace(key, lanes_.size());
    if (added) {
        Lane l;
        l.key.gpu = gpu;
        if (gpu) {
            l.key.device = int32_t(a);
            l.key.stream = b;
        } else {
            l.key.pid = a;
            l.key.tid = b;
        }
        l.busyNs.assign(kBins, 0.0);
        lanes_.push_back(std::move(l));
    }
    return it->second;
}

void LoadPreviewCollector::gpu(int32_t device, int64_t stream, TimeNs start, TimeNs dur) {
    add(lane(gpuLane_, uint64_t(uint32_t(device)) << 32 ^ uint64_t(stream) * 0x9E3779B97F4A7C15ull,
             true, device, stream),
        start, dur);
}

void LoadPreviewCollector::cpu(int64_t pid, int64_t tid, TimeNs start, TimeNs dur) {
    add(lane(cpuLane_, uint64_t(pid) * 0x9E3779B97F4A7C15ull ^ uint64_t(tid), false, pid, tid),
        start, dur);
}

void LoadPreviewCollector::cover(TimeNs start, TimeNs end) {
    if (width_ == 0) {
        // The first event: an axis of about a millisecond per bin around it, widened as needed.
        width_ = std::max<TimeNs>(1, (end - start) / TimeNs(kBins) + 1);
        start_ = start - start % width_;
    }
    const auto n = TimeNs(kBins);
    while (start < start_ || end > start_ + n * width_) {
        // Twice as wide: bin i goes to i / 2 (widening right) or n / 2 + i / 2 (left).
        const bool left = start < start_;
        const size_t shift = left ? kBins / 2 : 0;
        for (Lane& l : lanes_) {
            std::vector<double> merged(kBins, 0.0);
            for (size_t i = 0; i < kBins; ++i) merged[shift + i / 2] += l.busyNs[i];
            l.busyNs.swap(merged);
        }
        if (left) start_ -= n * width_;
        width_ *= 2;
    }
}

void LoadPreviewCollector::add(size_t laneIndex, TimeNs start, TimeNs dur) {
    const TimeNs end = start + std::max<TimeNs>(dur, 0);
    if (slices_++ == 0) first_ = start, last_ = end;
    first_ = std::min(first_, start);
    last_ = std::max(last_, end);
    cover(start, std::max(end, start + 1));
    std::vector<double>& bins = lanes_[laneIndex].busyNs;
    size_t b = size_t((start - start_) / width_);
    TimeNs at = start;
    while (at < end && b < kBins) {
        const TimeNs binEnd = start_ + TimeNs(b + 1) * width_;
        const TimeNs to = std::min(end, binEnd);
        bins[b] += double(to - at);
        at = to;
        ++b;
    }
}

void LoadPreviewCollector::name(int64_t pid, std::optional<int64_t> tid, std::string_view name) {
    if (tid)
        threadNames_[{pid, *tid}] = name;
    else
        processNames_[pid] = name;
}

LoadPreview LoadPreviewCollector::snapshot(double fraction) const {
    LoadPreview p;
    p.start = start_;
    p.binWidth = std::max<TimeNs>(width_, 1);
    p.first = first_;
    p.last = last_;
    p.fraction = fraction;
    p.slices = slices_;
    p.processNames = processNames_;
    p.threadNames = threadNames_;
    for (const Lane& l : lanes_) {
        PreviewLane out = l.key;
        out.busy.resize(kBins);
        for (size_t i = 0; i < kBins; ++i)
            out.busy[i] = float(std::min(1.0, l.busyNs[i] / double(p.binWidth)));
        p.lanes.push_back(std::move(out));
    }
    std::stable_sort(p.lanes.begin(), p.lanes.end(),
                     [](const PreviewLane& a, const PreviewLane& b) {
                         return std::tuple(!a.gpu, a.device, a.stream, a.pid, a.tid) <
                                std::tuple(!b.gpu, b.device, b.stream, b.pid, b.tid);
                     });
    return p;
}

} // namespace strata
