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

} // namespace strata
