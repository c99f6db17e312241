#pragma once
// Ruler tick choice (1-2-5 steps) and human-readable time labels (ns, µs, ms, s).
#include "model/time.h"

#include <string>

namespace strata {

// Smallest 1-2-5 step (1, 2, 5, 10, 20, ... ns) at least minPixels wide at this scale.
TimeNs chooseTickStep(double nsPerPixel, double minPixels);

// A duration with a unit that suits its size: "850 ns", "12.3 µs", "4.56 ms", "1.23 s".
std::string formatDuration(TimeNs ns);

// A tick label: time `t` (relative to the trace start) in the unit of `unitOf` (the largest
// time shown: ns below 1 µs, µs below 1 ms, ms below 1 s, else s) with just enough decimals to
// tell ticks `step` apart, e.g. t=5'300'001'000, step=1'000, unitOf=6 s -> "5.300001 s".
std::string formatTick(TimeNs t, TimeNs step, TimeNs unitOf);

} // namespace strata
