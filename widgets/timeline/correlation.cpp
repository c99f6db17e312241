#include "correlation.h"

#include <algorithm>

namespace strata {

bool Correlated::contains(SliceRef r) const {
    return std::binary_search(slices.begin(), slices.end(), r);
}

namespace {
void addExternal(const Trace& trace, SliceRef r, std::vector<SliceRef>& out, bool gpuOnly) {
    const int64_t x = trace.externalId(r);
    if (x < 0) return;
    for (SliceRef ref : trace.byExternalId(x))
        if (!gpuOnly || isGpuKind(trace.kind(ref))) out.push_back(ref);
}
} // namespace

Correlated correlatedWith(const Trace& trace, SliceRef sel, size_t cap) {
    Correlated c;
    if (!sel.valid() || sel.track >= trace.tracks().size() ||
        sel.index >= trace.track(sel.track).slices.size())
        return c;
    const SliceKind k = trace.kind(sel);
    if (isGpuKind(k)) {
        const SliceRef launch = trace.launchOf(sel);
        if (launch.valid()) {
            c.arrows.push_back({launch, sel});
            c.slices.push_back(launch);
            for (SliceRef a : trace.ancestors(launch)) c.slices.push_back(a);
            addExternal(trace, launch, c.slices, false);
        }
        addExternal(trace, sel, c.slices, false);
    } else if (isLaunchApiKind(k)) {
        for (SliceRef op : trace.gpuOpsOf(sel)) {
            c.arrows.push_back({sel, op});
            c.slices.push_back(op);
        }
        for (SliceRef a : trace.ancestors(sel)) c.slices.push_back(a);
    } else {
        addExternal(trace, sel, c.slices, true);
        // Runtime calls nested in the selection: its descendants follow it in start order.
        const SliceColumns& s = trace.track(sel.track).slices;
        const TimeNs end = s.end(sel.index);
        const uint16_t depth = s.depth[sel.index];
        for (SliceIndex i = sel.index + 1;
             i < s.size() && s.start[i] < end && c.slices.size() < cap; ++i) {
            if (s.depth[i] <= depth) break;
            if (!isLaunchApiKind(s.kind[i])) continue;
            const SliceRef call{sel.track, i};
            for (SliceRef op : trace.gpuOpsOf(call)) {
                c.arrows.push_back({call, op});
                c.slices.push_back(op);
                c.slices.push_back(call);
            }
        }
    }
    std::sort(c.slices.begin(), c.slices.end());
    c.slices.erase(std::unique(c.slices.begin(), c.slices.end()), c.slices.end());
    c.slices.erase(std::remove(c.slices.begin(), c.slices.end(), sel), c.slices.end());
    if (c.slices.size() > cap) c.slices.resize(cap);
    if (c.arrows.size() > cap) c.arrows.resize(cap);
    return c;
}

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
