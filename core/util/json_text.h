#pragma once
// JSON strings, one escaping for every writer (the Perfetto export's streaming writer, the Run
// record, strata-cli's JSON): per RFC 8259, with each byte that is not UTF-8 written as U+FFFD
// (util/utf8.h) so the output is always valid JSON.
#include <cstdint>
#include <string>
#include <string_view>

namespace strata {

// Appends `"text"` (quoted and escaped) to `out`; adds to *replaced the bytes written as U+FFFD.
void appendJsonString(std::string& out, std::string_view text, uint64_t* replaced = nullptr);

} // namespace strata
