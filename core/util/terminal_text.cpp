#include "util/terminal_text.h"

#include "util/utf8.h"

#include <cstdint>
#include <cstdio>

namespace strata {
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
        const size_t n = utf8SequenceLength(s, i);
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
