#pragma once
// The tests' own time-weighted mean of a counter row over [a, b), each value holding until the
// next sample (the rule of core/analysis/ops/gpu_metric_means.h, written again here so that the
// tests check it independently): the integral over [a, b) divided by the whole of b - a.
#include "model/track.h"

#include <algorithm>

namespace strata::test {

inline double counterMeanOver(const Track& row, TimeNs a, TimeNs b) {
    double sum = 0;
    for (size_t i = 0; i + 1 < row.counter.size(); ++i) {
        const TimeNs from = std::max(a, row.counter.ts[i]);
        const TimeNs to = std::min(b, row.counter.ts[i + 1]);
        if (to > from) sum += row.counter.value[i] * double(to - from);
    }
    return sum / double(b - a);
}

} // namespace strata::test
