#pragma once
// The tests' lookup of a slice by its name: the first so named, on any track (GPU tracks too).
#include "model/trace.h"

#include <algorithm>
#include <string_view>
#include <vector>

namespace strata::test {

inline SliceRef sliceNamed(const Trace& t, std::string_view name) {
    for (TrackId ti = 0; ti < t.tracks().size(); ++ti) {
        const SliceColumns& c = t.track(ti).slices;
        for (SliceIndex i = 0; i < c.size(); ++i)
            if (t.str(c.name[i]) == name) return {ti, i};
    }
    return {};
}

// Every slice so named, on any track, by start.
inline std::vector<SliceRef> slicesNamed(const Trace& t, std::string_view name) {
    std::vector<SliceRef> out;
    for (TrackId ti = 0; ti < t.tracks().size(); ++ti) {
        const SliceColumns& c = t.track(ti).slices;
        for (SliceIndex i = 0; i < c.size(); ++i)
            if (t.str(c.name[i]) == name) out.push_back({ti, i});
    }
    std::stable_sort(out.begin(), out.end(),
                     [&](SliceRef a, SliceRef b) { return t.start(a) < t.start(b); });
    return out;
}

} // namespace strata::test
