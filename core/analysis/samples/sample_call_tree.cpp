#include "analysis/samples/sample_call_tree.h"

#include "analysis/samples/sample_period.h"

namespace strata {

CallTree buildSampleCallTree(const Trace& trace, const SampleTreeOptions& o) {
    const StackSamples& k = trace.stackSamples();
    const CallsiteCounts counts = countCallsites(k, o.selection);
    TimeNs period = o.period > 0       ? o.period
                    : o.selection.kind ? samplePeriod(trace, *o.selection.kind)
                                       : samplePeriod(trace);
    if (period <= 0) period = 1;
    CallTree tree;
    tree.bottomUp = o.bottomUp;
    CallTreeNodes nodes(tree);
    std::vector<StringId> path;
    std::vector<uint32_t> nodeOf(o.bottomUp ? 0 : counts.samples.size(), 0);
    for (CallsiteId c = 1; c < counts.samples.size(); ++c) {
        const uint64_t n = counts.samples[c];
        if (!o.bottomUp) {
            // Parents come before children: a callsite's node hangs from its parent's.
            nodeOf[c] = nodes.child(nodeOf[k.callsiteParent[c]], k.callsiteFrame[c]);
            if (n == 0) continue;
            const TimeNs w = TimeNs(n) * period;
            tree.nodes[nodeOf[c]].self += w;
            for (uint32_t x = nodeOf[c]; x != 0; x = tree.nodes[x].parent) {
                tree.nodes[x].total += w;
                tree.nodes[x].count += n;
            }
            continue;
        }
        if (n == 0) continue;
        const TimeNs w = TimeNs(n) * period;
        uint32_t x = 0;
        for (CallsiteId a = c; a != kNoCallsite; a = k.callsiteParent[a]) {
            x = nodes.child(x, k.callsiteFrame[a]);
            tree.nodes[x].total += w;
            tree.nodes[x].count += n;
        }
        tree.nodes[nodes.child(0, k.callsiteFrame[c])].self += w;
    }
    if (!o.bottomUp) {
        // Paths no selected sample went through are dropped (they were made for their children).
        std::vector<uint32_t> keep(tree.nodes.size(), UINT32_MAX);
        CallTree pruned;
        pruned.bottomUp = false;
        pruned.nodes.push_back(CallNode{});
        keep[0] = 0;
        for (uint32_t i = 1; i < tree.nodes.size(); ++i) {
            CallNode& n = tree.nodes[i];
            if (n.count == 0) continue;
            keep[i] = uint32_t(pruned.nodes.size());
            CallNode copy = n;
            copy.parent = keep[n.parent];
            copy.children.clear();
            pruned.nodes.push_back(std::move(copy));
            pruned.nodes[keep[n.parent]].children.push_back(keep[i]);
        }
        tree = std::move(pruned);
    }
    CallNode& root = tree.nodes[0];
    for (const uint32_t ch : root.children) {
        root.total += tree.nodes[ch].total;
        root.count += tree.nodes[ch].count;
    }
    sortChildrenByTotal(tree);
    return tree;
}

} // namespace strata
