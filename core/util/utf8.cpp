#include "util/utf8.h"

#include <cstdint>

namespace strata {

size_t utf8SequenceLength(std::string_view s, size_t i) {
    const auto b = [&](size_t k) { return uint8_t(s[i + k]); };
    const uint8_t c = b(0);
    const size_t left = s.size() - i;
    auto cont = [&](size_t k) { return k < left && (b(k) & 0xC0) == 0x80; };
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        if (!cont(1) || !cont(2)) return 0;
        if (c == 0xE0 && b(1) < 0xA0) return 0;  // overlong
        if (c == 0xED && b(1) >= 0xA0) return 0; // a surrogate
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if (!cont(1) || !cont(2) || !cont(3)) return 0;
        if (c == 0xF0 && b(1) < 0x90) return 0;  // overlong
        if (c == 0xF4 && b(1) >= 0x90) return 0; // past U+10FFFF
        return 4;
    }
    return 0;
}

size_t replaceInvalidUtf8(std::string& text) {
    size_t i = 0;
    while (i < text.size()) { // most text is valid: copy nothing until the first bad byte
        const size_t n = utf8SequenceLength(text, i);
        if (n == 0) break;
        i += n;
    }
    if (i == text.size()) return 0;
    std::string out(text, 0, i);
    out.reserve(text.size() + 16);
    size_t replaced = 0;
    while (i < text.size()) {
        const size_t n = utf8SequenceLength(text, i);
        if (n) {
            out.append(text, i, n);
            i += n;
        } else {
            out += kReplacementCharacter;
            ++replaced;
            ++i;
        }
    }
    text.swap(out);
    return replaced;
}

} // namespace strata
