#include "model/build/annotation_edges.h"

#include <algorithm>

namespace strata {

namespace {

struct Open {
    SliceIndex index;
    TimeNs start;
    TimeNs end;
    SliceKind kind;
};

// Less than half of the annotation [a0, a1) lies inside the frame's overlap [o0, o1).
bool atAnEdge(TimeNs a0, TimeNs a1, TimeNs o0, TimeNs o1) {
    return 2 * (std::min(a1, o1) - std::max(a0, o0)) < a1 - a0;
}

bool hasBoth(const SliceColumns& c) {
    bool annotation = false, frame = false;
    for (size_t i = 0; i < c.size() && !(annotation && frame); ++i) {
        annotation |= c.kind[i] == SliceKind::UserAnnotation;
        frame |= c.kind[i] == SliceKind::PythonFunction;
    }
    return annotation && frame;
}

} // namespace

std::vector<uint8_t> framesYieldingToAnnotations(const SliceColumns& c) {
    if (!hasBoth(c)) return {};
    std::vector<uint8_t> yields(c.size(), 0);
    bool any = false;
    std::vector<Open> stack; // what the base lane would hold open, outermost first
    for (SliceIndex r = 0; r < c.size(); ++r) {
        const TimeNs start = c.start[r], end = c.end(r);
        const SliceKind kind = c.kind[r];
        while (!stack.empty() && stack.back().end <= start) stack.pop_back();
        if (stack.empty() || end <= stack.back().end) {
            stack.push_back({r, start, end, kind});
            continue;
        }
        // r crosses the open slices that end before it: a suffix of the stack.
        size_t first = stack.size();
        while (first > 0 && stack[first - 1].end < end) --first;
        if (kind == SliceKind::UserAnnotation) {
            // Its start edge: the frames it starts inside give way when all are Python frames
            // that cover less than half of it.
            const bool edge =
                std::all_of(stack.begin() + ptrdiff_t(first), stack.end(), [&](const Open& o) {
                    return o.kind == SliceKind::PythonFunction &&
                           atAnEdge(start, end, start, o.end);
                });
            if (edge) {
                for (size_t k = first; k < stack.size(); ++k) yields[stack[k].index] = 1;
                stack.resize(first);
                stack.push_back({r, start, end, kind});
                any = true;
            }
            continue; // else it goes to an extra lane, as any slice that does not nest
        }
        // Its end edge: a Python frame that begins in the second half of an open annotation
        // and outlives it gives way (it goes to an extra lane anyway; what it calls follows).
        if (kind == SliceKind::PythonFunction)
            for (size_t k = first; k < stack.size(); ++k)
                if (stack[k].kind == SliceKind::UserAnnotation &&
                    atAnEdge(stack[k].start, stack[k].end, start, end)) {
                    yields[r] = 1;
                    any = true;
                    break;
                }
    }
    if (!any) yields.clear();
    return yields;
}

} // namespace strata
