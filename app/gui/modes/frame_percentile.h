#pragma once
// The percentile the window's own frame reports print (strata --frames, --live-frames): the
// value at rank p * n of the sorted values (p = 1: the largest), 0 for none.
#include <algorithm>
#include <cstddef>
#include <vector>

namespace strata {

inline double framePercentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, size_t(p * double(v.size())))];
}

} // namespace strata
