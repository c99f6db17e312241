#pragma once
// How a counter row scales its samples: the row's full height is the largest finite value of
// the track; a sample is a bar as high as its share of that, at least one pixel. A value that is
// not finite (NaN, an infinity: the readers skip them, io/json and io/strata, but a model built
// otherwise may hold one) has no height: it is neither drawn nor part of the scale, so it cannot
// show as an empty or a full row, nor flatten every other sample to nothing.
#include <algorithm>
#include <cmath>
#include <span>

namespace strata {

// The largest finite value (0 when there is none).
inline double counterScaleMax(std::span<const double> values) {
    double mx = 0;
    for (double v : values)
        if (std::isfinite(v)) mx = std::max(mx, v);
    return mx;
}

// The bar of `value` in a row `height` pixels high scaled to `scaleMax`: 0 (nothing drawn) for
// a value that is not finite or not above 0, or a scale that is not finite and above 0; else 1 to
// `height`.
inline int counterBarHeight(double value, double scaleMax, int height) {
    if (!std::isfinite(value) || !(value > 0) || !std::isfinite(scaleMax) || !(scaleMax > 0) ||
        height <= 0)
        return 0;
    return std::max(1, int(std::lround(std::min(1.0, value / scaleMax) * height)));
}

} // namespace strata
