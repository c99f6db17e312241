#pragma once
// How many slices of a kind a trace holds (the kernels a run recorded), for the tests that
// compare it with what a program launched.
#include "model/trace.h"

#include <cstddef>

namespace strata::test {

inline size_t slicesOfKind(const Trace& t, SliceKind kind) {
    size_t n = 0;
    for (const Track& track : t.tracks())
        for (SliceIndex i = 0; i < track.slices.size(); ++i)
            if (track.slices.kind[i] == kind) ++n;
    return n;
}

inline size_t kernelsIn(const Trace& t) {
    return slicesOfKind(t, SliceKind::Kernel);
}

} // namespace strata::test
