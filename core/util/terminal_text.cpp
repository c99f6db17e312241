#include "util/terminal_text.h"

#include <cstdint>
#include <cstdio>

namespace strata {
namespace {

// Length of the UTF-8 sequence starting at s[i] (1..4), or 0 if it is not valid UTF-8.
size_t utf8Length(std::string_view s, size_t i) {
    const auto b = [&](size_t k) { return uint8_t(s[k]); };
    const uint8_t c = b(i);
    size_t n = 0;
    uint32_t min = 0;
    if (c >= 0xc2 && c <= 0xdf)
        n = 2, min = 0x80;
    else if (c >= 0xe0 && c <= 0xef)
        n = 3, min = 0x800;
    else if (c >= 0xf0 && c <= 0xf4)
        n = 4, min = 0x10000;
    else
        return 0;
    if (i + n > s.size()) return 0;
    uint32_t cp = c & (0x7f >> n);
    for (size_t k = 1; k < n; ++k) {
        if ((b(i + k) & 0xc0) != 0x80) return 0;
        cp = (cp << 6) | (b(i + k) & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    return n;
}

} // namespace

std::string terminalSafe(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    char buf[8];
    for (size_t i = 0; i < s.size();) {
        const uint8_t c = uint8_t(s[i]);
        if (c >= 0x20 && c < 0x7f) {
            out += char(c);
            ++i;
            continue;
        }
        if (c < 0x80) { // C0 control or DEL
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
            ++i;
            continue;
        }
        const size_t n = utf8Length(s, i);
        if (n == 0) {
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
            ++i;
        } else if (n == 2 && c == 0xc2 && uint8_t(s[i + 1]) < 0xa0) { // C1 control
            std::snprintf(buf, sizeof buf, "\\u%04x", uint8_t(s[i + 1]));
            out += buf;
            i += 2;
        } else {
            out.append(s.substr(i, n));
            i += n;
        }
    }
    return out;
}

} // namespace strata
