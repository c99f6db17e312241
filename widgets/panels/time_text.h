#pragma once
// Times as people read and type them: adaptive units for display ("1.234 ms", "850 ns") and
// parsing of "1.5ms", "250us", "2 s", "1200" (a plain number is microseconds, as in Chrome JSON).
#include "model/time.h"

#include <optional>
#include <string>
#include <string_view>

namespace strata {

// Adaptive units with up to 3 decimals, for values people read one at a time (details, range):
// "0 ns", "850 ns", "12.3 µs", "1.234 ms". (Ruler labels use timeline/ruler_ticks.h.)
std::string formatPreciseDuration(TimeNs ns);
// Parses one time value; nullopt (and *error) if it is not a number with an optional unit
// (ns, us, µs, ms, s).
std::optional<TimeNs> parseTime(std::string_view text, std::string* error = nullptr);
// Parses "START:END" (each as parseTime); requires END > START.
std::optional<TimeRange> parseTimeRange(std::string_view text, std::string* error = nullptr);

} // namespace strata
