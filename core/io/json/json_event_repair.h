#pragma once
// What the JSON reader does with an event simdjson refused, before it gives up on it: repairs
// that keep the event (raw control characters inside strings escaped, as Chrome's and Perfetto's
// importers accept them; invalid UTF-8 replaced by U+FFFD, util/utf8.h) and, for text that is not one event
// (a writer that crashed mid-event and started the next), the complete events inside it.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace strata {

// Raw bytes below 0x20 inside strings become \u00XX escapes; true if any did.
bool escapeControlCharactersInStrings(std::string& text);

// Complete JSON objects that start after the first byte of `text` where an event may start
// (a '{' at the start of a line or after a ',', then a key), as [begin, end) offsets, in order
// and not overlapping.
std::vector<std::pair<size_t, size_t>> eventsInside(std::string_view text);

} // namespace strata
