#include "flow_index.h"

#include <cstdlib>

#include <algorithm>

namespace strata {

void FlowIndex::clear() {
    built_ = false;
    order_.clear();
    lo_.clear();
    maxSpan_ = 0;
}

void FlowIndex::build(const Trace& trace) {
    clear();
    const auto& flows = trace.flows();
    for (uint32_t i = 0; i < flows.size(); ++i)
        if (flows[i].from.valid() && flows[i].to.valid()) order_.push_back(i);
    auto lo = [&](uint32_t i) {
        return std::min(trace.start(flows[i].from), trace.start(flows[i].to));
    };
    std::sort(order_.begin(), order_.end(), [&](uint32_t a, uint32_t b) { return lo(a) < lo(b); });
    lo_.reserve(order_.size());
    for (uint32_t i : order_) {
        lo_.push_back(lo(i));
        const TimeNs span = std::abs(trace.start(flows[i].from) - trace.start(flows[i].to));
        maxSpan_ = std::max(maxSpan_, span);
    }
    built_ = true;
}

} // namespace strata
