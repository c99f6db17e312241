#pragma once
// What to highlight when a slice is selected, and the flows drawn when "all flows" is on.
//   kernel / GPU op  -> its launching API call (arrow), the call's ancestors (CPU op, Python
//                       function, NVTX range) and the slices with the same External id;
//   launch API call  -> the GPU ops it launched (arrows) and its ancestors;
//   other CPU slice  -> kernels with its External id, and the GPU ops launched by runtime calls
//                       nested in it (arrows from those calls).
#include "model/trace.h"

#include <utility>
#include <vector>

namespace strata {

struct Correlated {
    std::vector<SliceRef> slices;                      // sorted, unique, selection excluded
    std::vector<std::pair<SliceRef, SliceRef>> arrows; // launch -> GPU op
    bool contains(SliceRef r) const;
};

Correlated correlatedWith(const Trace& trace, SliceRef selected, size_t cap = 20000);

// Flows sorted by their earlier endpoint's start, to find those in view without a full scan.
class FlowIndex {
public:
    void build(const Trace& trace);
    void clear();
    bool built() const { return built_; }
    // Calls f(flow) for flows with an endpoint in [t0, t1) or spanning it, at most `cap` of them.
    template <class F>
    void forEachIn(const Trace& trace, TimeNs t0, TimeNs t1, size_t cap, F f) const;
    size_t memoryBytes() const {
        return order_.capacity() * sizeof(uint32_t) + lo_.capacity() * sizeof(TimeNs);
    }

private:
    bool built_ = false;
    std::vector<uint32_t> order_; // flow indices by lo
    std::vector<TimeNs> lo_;      // earlier endpoint start, sorted
    TimeNs maxSpan_ = 0;
};

template <class F>
void FlowIndex::forEachIn(const Trace& trace, TimeNs t0, TimeNs t1, size_t cap, F f) const {
    size_t i =
        static_cast<size_t>(std::lower_bound(lo_.begin(), lo_.end(), t0 - maxSpan_) - lo_.begin());
    size_t n = 0;
    for (; i < lo_.size() && lo_[i] < t1 && n < cap; ++i) {
        const Flow& fl = trace.flows()[order_[i]];
        const TimeNs a = trace.start(fl.from), b = trace.start(fl.to);
        if (std::max(a, b) < t0) continue;
        f(fl);
        ++n;
    }
}

} // namespace strata
