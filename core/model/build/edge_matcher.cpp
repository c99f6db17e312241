#include "model/build/edge_matcher.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

namespace strata {

void matchEdges(PodVector<RawEdge>& edges, TimeNs traceEnd, ArgStore& args,
                PodVector<RawSlice>& out, EdgeMatchCounts& counts) {
    if (edges.empty()) return;
    auto byTime = [](const RawEdge& a, const RawEdge& b) { return a.slice.start < b.slice.start; };
    if (!std::is_sorted(edges.begin(), edges.end(), byTime)) // writers mostly emit in order
        std::stable_sort(edges.begin(), edges.end(), byTime);
    // Open B's in the order they opened; an E closes one of them (marked, dropped lazily from
    // the tops of the stacks), so matching costs O(1) amortized per edge.
    struct Open {
        const RawSlice* b;
        bool closed = false;
    };
    std::vector<Open> opened;
    std::vector<uint32_t> open;                                     // indices into opened
    std::unordered_map<StringId, std::vector<uint32_t>> openByName; // the same, per name
    auto innermost = [&](std::vector<uint32_t>& stack) -> Open* {
        while (!stack.empty() && opened[stack.back()].closed) stack.pop_back();
        return stack.empty() ? nullptr : &opened[stack.back()];
    };
    auto emit = [&](const RawSlice& b, TimeNs end, ArgSetId endArgs, uint8_t flags) {
        RawSlice r = b;
        r.dur = end - b.start;
        if (endArgs != kNoArgs) { // merge the E's args into the slice's
            args.begin();
            args.appendFrom(args, b.args);
            args.appendFrom(args, endArgs);
            r.args = args.finish();
        }
        r.flags = flags | kSliceFromBE;
        out.push_back(r);
    };
    for (const RawEdge& e : edges) {
        if (!e.isEnd) {
            const auto index = uint32_t(opened.size());
            opened.push_back({&e.slice});
            open.push_back(index);
            openByName[e.slice.name].push_back(index);
            continue;
        }
        Open* b = nullptr;
        if (e.slice.name != 0) {
            auto it = openByName.find(e.slice.name);
            if (it != openByName.end()) b = innermost(it->second);
        } else {
            b = innermost(open);
        }
        if (!b) {
            ++counts.unmatchedEnds;
            continue;
        }
        emit(*b->b, e.slice.start, e.slice.args, 0);
        b->closed = true;
    }
    for (const uint32_t index : open) {
        if (opened[index].closed) continue;
        const RawSlice& b = *opened[index].b;
        emit(b, std::max(traceEnd, b.start), kNoArgs, kSliceClosedAtEnd);
        ++counts.openBegins;
    }
    edges.clear();
}

} // namespace strata
