#pragma once
// What a counter counts, guessed from its name as the profilers name them ("GPU 0 memory
// allocated (bytes)", "Total Allocated", "GPU utilization %", "occupancy"), and its values as
// text in that unit: bytes in binary units, percentages with %, other numbers with SI prefixes.
#include <string>
#include <string_view>

namespace strata {

enum class CounterUnit { Number, Bytes, Percent };

CounterUnit counterUnit(std::string_view name);
// "3.70 GiB", "512 B", "45.2 %", "1.25 M", "0.5".
std::string formatCounterValue(double value, CounterUnit unit);
// A quantity in `unit` with an SI prefix, three significant digits: 1.23e12 FLOP/s ->
// "1.23 TFLOP/s", 4.5e-3 s -> "4.50 ms", 999.7 B -> "1.00 kB"; 0 -> "0 " + unit. The roofline's
// figures (formatCounterValue's numbers take the same prefixes, without a unit).
std::string formatSi(double value, std::string_view unit);

} // namespace strata
