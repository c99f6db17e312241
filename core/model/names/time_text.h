#pragma once
// Time as text, one formatter for every place that shows a time (the timeline's ruler, labels
// and tooltips, the Details and Range panels, the builder's warnings, strata-cli's prose) and
// the parser of what people type.
#include "model/time.h"

#include <optional>
#include <string>
#include <string_view>

namespace strata {

// Adaptive units, exact to the nanosecond (trailing zeros dropped), for values people read one at
// a time (details, range, links): "0 ns", "850 ns", "12.3 µs", "1.234 ms", "1.234 567 891 s"
// (decimals past the third grouped by thin spaces, U+2009).
std::string formatPreciseDuration(TimeNs ns);
// A duration with a unit that suits its size and 4 significant digits, for what people read
// in columns and at a glance (tables, summaries, slice and gap labels): "850 ns", "12.35 µs",
// "459.1 ms", "1.172 s", "1.000 ms" for 999 960 ns. The exact value (formatPreciseDuration) is
// on hover, in Details and in exports.
std::string formatDuration(TimeNs ns);

// Smallest 1-2-5 step (1, 2, 5, 10, 20, ... ns) at least minPixels wide at this scale.
TimeNs chooseTickStep(double nsPerPixel, double minPixels);
// A ruler tick label: time `t` (relative to the trace start) in the unit of `unitOf` (the
// largest time shown: ns below 1 µs, µs below 1 ms, ms below 1 s, else s) with just enough
// decimals to tell ticks `step` apart, e.g. t=5'300'001'000, step=1'000, unitOf=6 s ->
// "5.300001 s".
std::string formatTick(TimeNs t, TimeNs step, TimeNs unitOf);

// Parses one time value; nullopt (and *error) if it is not a number with an optional unit
// (ns, us, µs, ms, s; a plain number is microseconds, as in Chrome JSON).
std::optional<TimeNs> parseTime(std::string_view text, std::string* error = nullptr);
// Parses "START:END" (each as parseTime); requires END > START.
std::optional<TimeRange> parseTimeRange(std::string_view text, std::string* error = nullptr);

} // namespace strata
