#include "analysis/correlation.h"

#include <algorithm>

namespace strata {

namespace {

bool validRef(const Trace& t, SliceRef r) {
    return r.valid() && r.track < t.tracks().size() && r.index < t.track(r.track).slices.size();
}

void addExternalPeers(const Trace& trace, SliceRef r, std::vector<SliceRef>& out, size_t cap) {
    const int64_t x = trace.externalId(r);
    if (x < 0) return;
    for (SliceRef ref : trace.byExternalId(x)) {
        if (out.size() >= cap) return;
        if (ref != r) out.push_back(ref);
    }
}

} // namespace

bool Correlated::contains(SliceRef r) const {
    return std::binary_search(slices.begin(), slices.end(), r);
}

SliceRelations relationsOf(const Trace& trace, SliceRef r, size_t cap) {
    SliceRelations rel;
    if (!validRef(trace, r)) return rel;
    const SliceKind k = trace.kind(r);
    if (isGpuKind(k)) {
        rel.launchedBy = trace.launchOf(r);
        if (rel.launchedBy.valid()) {
            rel.launchContext = trace.ancestors(rel.launchedBy);
            addExternalPeers(trace, rel.launchedBy, rel.launchContext, cap);
        }
    } else if (isLaunchApiKind(k)) {
        rel.launched = trace.gpuOpsOf(r);
        if (rel.launched.size() > cap) rel.launched.resize(cap);
    } else {
        // API calls nested in the slice: its descendants follow it in start order.
        const SliceColumns& s = trace.track(r.track).slices;
        const TimeNs end = s.end(r.index);
        const uint16_t depth = s.depth[r.index];
        for (SliceIndex i = r.index + 1; i < s.size() && s.start[i] < end; ++i) {
            if (s.depth[i] <= depth || rel.nestedLaunches.size() >= cap) break;
            if (!isLaunchApiKind(s.kind[i])) continue;
            const SliceRef call{r.track, i};
            for (SliceRef op : trace.gpuOpsOf(call)) rel.nestedLaunches.push_back({call, op});
        }
    }
    addExternalPeers(trace, r, rel.sameExternalId, cap);
    for (uint32_t f : trace.flowsFrom(r)) {
        if (rel.flows.size() >= cap) break;
        rel.flows.push_back({trace.flows()[f].to, trace.flows()[f].category, true});
    }
    for (uint32_t f : trace.flowsTo(r)) {
        if (rel.flows.size() >= cap) break;
        rel.flows.push_back({trace.flows()[f].from, trace.flows()[f].category, false});
    }
    rel.enclosing = trace.ancestors(r);
    std::reverse(rel.enclosing.begin(), rel.enclosing.end());
    return rel;
}

Correlated correlatedWith(const Trace& trace, SliceRef sel, size_t cap) {
    Correlated c;
    if (!validRef(trace, sel)) return c;
    const SliceRelations rel = relationsOf(trace, sel, cap);
    const SliceKind k = trace.kind(sel);
    auto add = [&](const std::vector<SliceRef>& v) {
        c.slices.insert(c.slices.end(), v.begin(), v.end());
    };
    if (isGpuKind(k)) {
        if (rel.launchedBy.valid()) {
            c.arrows.push_back({rel.launchedBy, sel});
            c.slices.push_back(rel.launchedBy);
            add(rel.launchContext);
        }
        add(rel.sameExternalId);
    } else if (isLaunchApiKind(k)) {
        for (SliceRef op : rel.launched) c.arrows.push_back({sel, op});
        add(rel.launched);
        add(rel.enclosing);
    } else {
        for (SliceRef x : rel.sameExternalId)
            if (isGpuKind(trace.kind(x))) c.slices.push_back(x);
        for (const auto& [call, op] : rel.nestedLaunches) {
            c.arrows.push_back({call, op});
            c.slices.push_back(op);
            c.slices.push_back(call);
        }
    }
    std::sort(c.slices.begin(), c.slices.end());
    c.slices.erase(std::unique(c.slices.begin(), c.slices.end()), c.slices.end());
    c.slices.erase(std::remove(c.slices.begin(), c.slices.end(), sel), c.slices.end());
    if (c.slices.size() > cap) c.slices.resize(cap);
    if (c.arrows.size() > cap) c.arrows.resize(cap);
    return c;
}

} // namespace strata
