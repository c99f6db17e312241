#include "util/json_text.h"

#include "util/utf8.h"

namespace strata {

void appendJsonString(std::string& out, std::string_view text, uint64_t* replaced) {
    const size_t n = text.size();
    out.push_back('"');
    size_t run = 0; // start of the pending run of bytes that need no escaping
    for (size_t i = 0; i < n;) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
            ++i;
            continue;
        }
        if (c >= 0x80) {
            if (const size_t len = utf8SequenceLength(text, i)) {
                i += len;
                continue;
            }
        }
        out.append(text.data() + run, i - run);
        switch (c) {
        case '"':
            out.append("\\\"");
            break;
        case '\\':
            out.append("\\\\");
            break;
        case '\n':
            out.append("\\n");
            break;
        case '\t':
            out.append("\\t");
            break;
        case '\r':
            out.append("\\r");
            break;
        case '\b':
            out.append("\\b");
            break;
        case '\f':
            out.append("\\f");
            break;
        default:
            if (c < 0x20) {
                static const char hex[] = "0123456789abcdef";
                const char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
                out.append(e, 6);
            } else {
                out.append(kReplacementCharacter); // a byte that is not UTF-8
                if (replaced) ++*replaced;
            }
        }
        ++i;
        run = i;
    }
    out.append(text.data() + run, n - run);
    out.push_back('"');
}

} // namespace strata
