#include "analysis/call_tree.h"

#include <algorithm>
#include <unordered_map>

namespace strata {

CallTreeNodes::CallTreeNodes(CallTree& t) : t_(t) {
    t_.nodes.push_back(CallNode{});
}

uint32_t CallTreeNodes::child(uint32_t parent, StringId name) {
    const uint64_t key = uint64_t(parent) << 32 | name;
    auto [it, fresh] = index_.try_emplace(key, uint32_t(t_.nodes.size()));
    if (fresh) {
        CallNode n;
        n.name = name;
        n.parent = parent;
        n.depth = t_.nodes[parent].depth + 1;
        t_.nodes.push_back(n);
        t_.nodes[parent].children.push_back(it->second);
    }
    return it->second;
}

void sortChildrenByTotal(CallTree& tree) {
    for (CallNode& n : tree.nodes)
        std::sort(n.children.begin(), n.children.end(), [&](uint32_t a, uint32_t b) {
            return tree.nodes[a].total > tree.nodes[b].total;
        });
}

namespace {

bool isThread(const Track& t) {
    return t.kind == TrackKind::Thread;
}

} // namespace

CallTree buildCallTree(const Trace& trace, const CallTreeOptions& o) {
    CallTree tree;
    tree.bottomUp = o.bottomUp;
    CallTreeNodes b(tree);
    std::vector<uint32_t> nodeOf; // per slice of the track: its top-down node
    std::vector<StringId> path;
    for (TrackId ti = 0; ti < trace.tracks().size(); ++ti) {
        const Track& tr = trace.track(ti);
        if (!isThread(tr) || (o.thread != UINT32_MAX && o.thread != ti)) continue;
        const SliceColumns& c = tr.slices;
        nodeOf.assign(c.size(), 0);
        const std::vector<TimeNs> selfTimes = c.selfTimes(0, SliceIndex(c.size()));
        // Slices are sorted by start, so a parent comes before its children.
        for (SliceIndex i = 0; i < c.size(); ++i) {
            const bool in = o.range.contains(c.start[i]);
            const TimeNs self = selfTimes[i];
            if (!o.bottomUp) {
                const uint32_t parent = c.parent[i] != kNoSlice ? nodeOf[c.parent[i]] : 0;
                const uint32_t n = b.child(parent, c.name[i]);
                nodeOf[i] = n;
                if (!in) continue;
                CallNode& node = tree.nodes[n];
                ++node.count;
                node.total += c.dur[i];
                node.self += self;
                continue;
            }
            if (!in || self == 0) continue;
            // Bottom-up: the slice's self time along its path from itself to the root.
            path.clear();
            for (SliceIndex p = i; p != kNoSlice; p = c.parent[p]) path.push_back(c.name[p]);
            uint32_t n = 0;
            for (StringId name : path) {
                n = b.child(n, name);
                tree.nodes[n].total += self;
                ++tree.nodes[n].count;
            }
            tree.nodes[b.child(0, path.front())].self += self;
        }
        if (o.withGpuTime && !o.bottomUp) {
            // Each GPU op under every node on its launch call's path.
            for (SliceIndex i = 0; i < c.size(); ++i) {
                if (!isLaunchApiKind(c.kind[i]) || !o.range.contains(c.start[i])) continue;
                TimeNs gpu = 0;
                for (SliceRef g : trace.gpuOpsOf({ti, i})) gpu += trace.duration(g);
                if (!gpu) continue;
                for (uint32_t n = nodeOf[i]; n != 0 && n != UINT32_MAX; n = tree.nodes[n].parent)
                    tree.nodes[n].gpu += gpu;
            }
        }
    }
    CallNode& root = tree.nodes[0];
    for (uint32_t ch : root.children) {
        root.total += tree.nodes[ch].total;
        root.gpu += tree.nodes[ch].gpu;
    }
    sortChildrenByTotal(tree);
    return tree;
}

} // namespace strata
