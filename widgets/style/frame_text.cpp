#include "frame_text.h"

#include "qt_text.h"

#include <algorithm>

namespace strata {

QString sampleFrameText(std::string_view frame) {
    // "file(line): function" -> "file:line function"
    const size_t close = frame.find("): ");
    const size_t open = close == std::string_view::npos ? close : frame.rfind('(', close);
    if (open == std::string_view::npos || open == 0 || open + 1 == close) return toQString(frame);
    const std::string_view line = frame.substr(open + 1, close - open - 1);
    if (!std::all_of(line.begin(), line.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
        return toQString(frame);
    return QStringLiteral("%1:%2 %3")
        .arg(toQString(frame.substr(0, open)), toQString(line), toQString(frame.substr(close + 3)));
}

} // namespace strata
