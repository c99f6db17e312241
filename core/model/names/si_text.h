#pragma once
// A quantity with an SI prefix, three significant digits: 1.23e12 FLOP/s -> "1.23 TFLOP/s",
// 4.5e-3 -> "4.50 m" + unit; 0 -> "0 " + unit. What the roofline's figures read like in tables.
#include <string>
#include <string_view>

namespace strata {

std::string formatSi(double value, std::string_view unit);

} // namespace strata
