#pragma once
// A section statistic as text, for the Sections dock's tables and charts and strata-cli sections'
// table alike: a time in 4 significant digits when the values are ns ("850 ns", "183.3 ns",
// "3.500 ns", "12.35 µs": cycles through a clock rate are seldom whole ns), else cycles to a
// tenth with thin-space digit groups ("12 345 cycles", "1 999.5 cycles": a mean or median between
// two counts keeps its half). The exact value is on hover (the dock) and in --json (the CLI).
#include <string>

namespace strata {

std::string formatSectionValue(double value, bool ns);

} // namespace strata
