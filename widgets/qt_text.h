#pragma once
// The model's strings (UTF-8 string_views into the trace's pool) as QStrings.
#include <QString>

#include <string_view>

namespace strata {

inline QString toQString(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

} // namespace strata
