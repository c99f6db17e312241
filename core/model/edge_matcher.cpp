#include "model/edge_matcher.h"

#include <algorithm>
#include <vector>

namespace strata {

void matchEdges(PodVector<RawEdge>& edges, TimeNs traceEnd, ArgStore& args,
                PodVector<RawSlice>& out, EdgeMatchCounts& counts) {
    if (edges.empty()) return;
    std::stable_sort(edges.begin(), edges.end(), [](const RawEdge& a, const RawEdge& b) {
        return a.slice.start < b.slice.start;
    });
    std::vector<const RawSlice*> open;
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
            open.push_back(&e.slice);
            continue;
        }
        auto it = open.rbegin();
        if (e.slice.name != 0) {
            while (it != open.rend() && (*it)->name != e.slice.name) ++it;
        }
        if (it == open.rend()) {
            ++counts.unmatchedEnds;
            continue;
        }
        emit(**it, e.slice.start, e.slice.args, 0);
        open.erase(std::next(it).base());
    }
    for (const RawSlice* b : open) {
        emit(*b, std::max(traceEnd, b->start), kNoArgs, kSliceClosedAtEnd);
        ++counts.openBegins;
    }
    edges.clear();
}

} // namespace strata
