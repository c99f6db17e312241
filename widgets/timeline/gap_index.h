#pragma once
// GPU idle gaps longer than a threshold, per stream and per device, for the timeline's idle
// bands. The gaps come from core/analysis/gpu_gaps (computeGpuGaps: one definition of a gap);
// only those strictly longer than the threshold are kept here, as compact intervals sorted by
// start, so the view's memory stays small.
#include "analysis/gap_causes.h"
#include "model/trace.h"

#include <QRgb>

#include <array>
#include <map>
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

// The colour of a gap's cause, the same on the timeline, in its legend and in the Gaps dock:
// launch_bound red, synchronization orange, dependency violet, unattributed grey.
inline QRgb gapCauseColor(int cause) {
    constexpr QRgb colors[] = {0xffd6453a, 0xffe8892b, 0xff8e5bc6, 0xff8c8c8c};
    return cause >= 0 && cause < 4 ? colors[cause] : colors[0];
}

// A list of gaps and their running idle total, to ask how much of any interval was idle in
// O(log n): what a pixel column at coarse zoom must show (its idle share), not whether some gap
// touches it.
struct GapList {
    const std::vector<GapSpan>* spans = nullptr;
    const std::vector<TimeNs>* cumulative = nullptr; // cumulative[i] = idle of spans[0..i)
    // The same per cause: byCause[c][i] = idle of the gaps of cause c in spans[0..i).
    const std::array<std::vector<TimeNs>, 4>* byCause = nullptr;
    // Idle time (inside the listed gaps) before t.
    TimeNs idleBefore(TimeNs t) const;
    // The same, only in gaps of `cause`.
    TimeNs idleBefore(TimeNs t, int cause) const;
    TimeNs idleBetween(TimeNs t0, TimeNs t1) const { return idleBefore(t1) - idleBefore(t0); }
    bool empty() const { return !spans || spans->empty(); }
};

// What a gap's tooltip says: its length and cause, how late the launch was, the blocking call or
// what a dependency waited on, and the CPU work on the launching thread ("GPU idle 26.0 µs ·
// launch_bound\nlaunched 20.0 µs late; traced CPU work covered 80 % of it\nCPU: aten::mm 12.0 µs").
QString gapDescription(const Trace& trace, const ExplainedGap& e);

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
    // Why the GPU waited in a gap (its cause, launch, lateness, CPU work), or null.
    const ExplainedGap* explained(const GapSpan& g) const {
        const size_t d = causes_.deviceGaps.size();
        if (g.explained < d) return &causes_.deviceGaps[g.explained];
        if (g.explained < d + causes_.streamGaps.size())
            return &causes_.streamGaps[g.explained - d];
        return nullptr;
    }
    const GapCauses& causes() const { return causes_; }

private:
    TimeNs threshold_ = 0;
    GapCauses causes_; // GapSpan::explained: device gaps, then stream gaps
    std::map<std::pair<int32_t, int64_t>, std::vector<GapSpan>> streams_;
    std::map<int32_t, std::vector<GapSpan>> devices_;
    std::map<std::pair<int32_t, int64_t>, std::vector<TimeNs>> streamCum_;
    std::map<int32_t, std::vector<TimeNs>> deviceCum_;
    std::map<std::pair<int32_t, int64_t>, std::array<std::vector<TimeNs>, 4>> streamCause_;
    std::map<int32_t, std::array<std::vector<TimeNs>, 4>> deviceCause_;
};

} // namespace strata
