#pragma once
// UTF-8, one definition for every reader and writer: what a well-formed sequence is (RFC 3629: no
// overlong forms, no surrogates, nothing past U+10FFFF) and the repair that replaces each byte
// that starts none by U+FFFD.
#include <cstddef>
#include <string>
#include <string_view>

namespace strata {

// The length (1..4) of the well-formed UTF-8 sequence that starts at s[i], or 0 when none does
// (an ASCII byte is a sequence of 1).
size_t utf8SequenceLength(std::string_view s, size_t i);

// U+FFFD, as the three bytes that encode it.
inline constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";

// Replaces every byte that starts no well-formed sequence by U+FFFD; returns how many.
size_t replaceInvalidUtf8(std::string& text);

} // namespace strata
