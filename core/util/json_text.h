#pragma once
// Writing JSON text by hand where a document is small and its shape fixed (the Run record's
// body): strings escaped per RFC 8259, bytes that are not UTF-8 replaced by U+FFFD so the output
// is always valid JSON.
#include <string>
#include <string_view>

namespace strata {

// Appends `"text"` (quoted and escaped) to `out`.
void appendJsonString(std::string& out, std::string_view text);

} // namespace strata
