#include "model/names/si_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace strata {

std::string formatSi(double value, std::string_view unit) {
    if (!std::isfinite(value)) return std::string(value > 0 ? "inf " : "-inf ") + std::string(unit);
    if (value == 0) return "0 " + std::string(unit);
    static const char* const kPrefixes[] = {"p", "n", "\xC2\xB5", "m", "", "k",
                                            "M", "G", "T",        "P", "E"};
    int power = int(std::floor(std::log10(std::fabs(value)) / 3));
    power = std::clamp(power, -4, 6);
    double scaled = value / std::pow(1000.0, power);
    // Rounding to three digits may reach the next prefix (999.6 -> "1.00 k").
    if (std::fabs(scaled) >= 999.5 && power < 6) {
        scaled /= 1000;
        ++power;
    }
    const int decimals = std::fabs(scaled) >= 100 ? 0 : std::fabs(scaled) >= 10 ? 1 : 2;
    char text[64];
    std::snprintf(text, sizeof text, "%.*f %s", decimals, scaled, kPrefixes[power + 4]);
    return text + std::string(unit);
}

} // namespace strata
