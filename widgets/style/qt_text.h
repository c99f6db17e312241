#pragma once
// The model's strings (UTF-8 string_views into the trace's pool) as QStrings.
#include <QString>

#include <string_view>

namespace strata {

inline QString toQString(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

// An integer with its digits grouped by thin spaces (U+2009), as the time formatter groups them:
// 1234567 -> "1 234 567".
inline QString groupedDigits(long long n) {
    QString s = QString::number(n);
    for (qsizetype at = s.size() - 3; at > (n < 0 ? 1 : 0); at -= 3) s.insert(at, QChar(0x2009));
    return s;
}

} // namespace strata
