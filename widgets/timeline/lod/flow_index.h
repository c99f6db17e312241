#pragma once
// The trace's flows sorted by their earlier endpoint, to find those in view without a full scan
// (the timeline's "Show all flows"). What is related to a selected slice is decided in
// core/analysis/correlation.h.
#include "model/trace.h"

#include <algorithm>
#include <vector>

namespace strata {

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
