#pragma once
// ASCII letters compared without case (the search's keys and contains tests): other bytes, UTF-8
// included, compare as they are.
#include <string_view>

namespace strata {

inline char foldAscii(char c) {
    return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
}

inline bool equalsIgnoreAsciiCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (foldAscii(a[i]) != foldAscii(b[i])) return false;
    return true;
}

} // namespace strata
