#pragma once
// The model's strings (UTF-8 string_views into the trace's pool) as QStrings.
#include <QString>

#include <string_view>

namespace strata {

inline QString toQString(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

// A long full name (a templated kernel's runs to hundreds of characters) as plain text in lines
// of at most about `width` characters, broken after ", " or a space where it has one: a plain
// tooltip does not wrap by itself.
inline QString wrappedText(std::string_view s, qsizetype width = 100) {
    QString text = toQString(s), out;
    while (text.size() > width) {
        qsizetype cut = text.lastIndexOf(QLatin1Char(' '), width);
        if (cut <= width / 2) cut = width; // no space near: a hard break
        out += text.left(cut).trimmed() + QLatin1Char('\n');
        text = text.mid(cut).trimmed();
    }
    return out + text;
}

// An integer with its digits grouped by thin spaces (U+2009), as the time formatter groups them:
// 1234567 -> "1 234 567".
inline QString groupedDigits(long long n) {
    QString s = QString::number(n);
    for (qsizetype at = s.size() - 3; at > (n < 0 ? 1 : 0); at -= 3) s.insert(at, QChar(0x2009));
    return s;
}

} // namespace strata
