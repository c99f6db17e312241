#pragma once
// The tests' lookup of a slice by its name: the first so named, on any track (GPU tracks too).
#include "model/trace.h"

#include <string_view>

namespace strata::test {

inline SliceRef sliceNamed(const Trace& t, std::string_view name) {
    for (TrackId ti = 0; ti < t.tracks().size(); ++ti) {
        const SliceColumns& c = t.track(ti).slices;
        for (SliceIndex i = 0; i < c.size(); ++i)
            if (t.str(c.name[i]) == name) return {ti, i};
    }
    return {};
}

} // namespace strata::test
