#pragma once
// Exact decimal parsing for Chrome trace fields: microsecond timestamps to integer nanoseconds
// (never through double), and plain integers.
#include "model/time.h"

#include <cstdint>
#include <string_view>

namespace strata {

// Parses a JSON-style decimal number of microseconds ("12", "-3.25", "1712345678901234.567",
// "1.5e3", surrounding whitespace allowed) into nanoseconds exactly: the decimal text is scaled by
// 1000 in base 10 and rounded to the nearest nanosecond, ties to even ("1.5005" -> 1500 ns,
// "1.5015" -> 1502 ns, "-0.0005" -> 0 ns). Returns false if the text is not a number or the
// result does not fit in int64.
bool parseMicrosToNs(std::string_view text, TimeNs* out);

// Parses an optionally signed decimal integer (whitespace around allowed). False if not an
// integer or out of int64 range.
bool parseInt64(std::string_view text, int64_t* out);

// Parses an unsigned integer in base 16 (with or without "0x"), as Perfetto reads string flow ids.
bool parseHexU64(std::string_view text, uint64_t* out);

} // namespace strata
