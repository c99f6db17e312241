#pragma once
// Text from a trace made safe to print on a terminal: a slice name can hold ESC or BEL bytes
// that would retitle or recolour the user's terminal. Control bytes (below 0x20, 0x7f), C1
// controls (U+0080..U+009F) and bytes that are not UTF-8 are shown escaped (\x1b, \u009b);
// printable UTF-8 is kept. JSON output does not go through this: it is exact.
#include <string>
#include <string_view>

namespace strata {

std::string terminalSafe(std::string_view text);

} // namespace strata
