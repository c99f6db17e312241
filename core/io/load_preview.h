#pragma once
// A first picture of a trace while it loads (LoadOptions::preview): the busy share of each GPU
// stream and each CPU thread over the time read so far, in bins of one time axis that widens as
// later (or earlier) events arrive. The JSON reader feeds a LoadPreviewCollector with every
// slice it reads and hands out a LoadPreview now and then; the GUI paints it until the trace is
// built (widgets/timeline/load_preview_view.h).
#include "model/time.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace strata {

struct PreviewLane {
    bool gpu = false;
    int32_t device = -1; // GPU lanes: the device and stream
    int64_t stream = -1;
    int64_t pid = 0; // CPU lanes: the thread
    int64_t tid = 0;
    // Per bin, the share of the bin the lane was busy (0..1). A CPU thread's nested slices count
    // over their parents, so its share is capped at 1 (the shape, not a measure).
    std::vector<float> busy;
};

struct LoadPreview {
    TimeNs start = 0; // bins cover [start, start + bins x binWidth)
    TimeNs binWidth = 1;
    TimeNs first = 0, last = 0;     // the earliest start and latest end read
    std::vector<PreviewLane> lanes; // GPU lanes by (device, stream), then threads by (pid, tid)
    // The names read so far (M events): processes by pid, threads by (pid, tid).
    std::map<int64_t, std::string> processNames;
    std::map<std::pair<int64_t, int64_t>, std::string> threadNames;
    double fraction = 0; // of the input read
    uint64_t slices = 0; // slices read
    bool empty() const { return slices == 0; }
};

class LoadPreviewCollector {
public:
    static constexpr size_t kBins = 2048;
    void gpu(int32_t device, int64_t stream, TimeNs start, TimeNs dur);
    void cpu(int64_t pid, int64_t tid, TimeNs start, TimeNs dur);
    // A process's name (no tid) or a thread's; the last one given holds.
    void name(int64_t pid, std::optional<int64_t> tid, std::string_view name);
    LoadPreview snapshot(double fraction) const;

private:
    struct Lane {
        PreviewLane key;
        std::vector<double> busyNs; // per bin
    };
    std::vector<Lane> lanes_;
    std::unordered_map<uint64_t, size_t> gpuLane_, cpuLane_;
    std::map<int64_t, std::string> processNames_;
    std::map<std::pair<int64_t, int64_t>, std::string> threadNames_;
    TimeNs start_ = 0, width_ = 0; // width_ 0: no event yet
    TimeNs first_ = 0, last_ = 0;
    uint64_t slices_ = 0;
    size_t lane(std::unordered_map<uint64_t, size_t>& map, uint64_t key, bool gpu, int64_t a,
                int64_t b);
    void add(size_t lane, TimeNs start, TimeNs dur);
    void cover(TimeNs start, TimeNs end); // widens the axis until [start, end) fits
};

} // namespace strata
