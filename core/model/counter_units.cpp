#include "model/counter_units.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace strata {

namespace {
// SI prefixes from pico to exa: kSiPrefixes[power + kSiUnit] for 1000^power.
constexpr const char* kSiPrefixes[] = {"p", "n", "\xC2\xB5", "m", "", "k", "M", "G", "T", "P", "E"};
constexpr int kSiUnit = 4;

bool contains(std::string_view hay, std::string_view needle) {
    return std::search(hay.begin(), hay.end(), needle.begin(), needle.end(), [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(a)) == b;
           }) != hay.end();
}
} // namespace

CounterUnit counterUnit(std::string_view name) {
    if (contains(name, "%") || contains(name, "percent") || contains(name, "util") ||
        contains(name, "occupancy"))
        return CounterUnit::Percent;
    for (std::string_view w : {"byte", "memory", "allocated", "reserved", "mem ", "[memory]"})
        if (contains(name, w)) return CounterUnit::Bytes;
    return CounterUnit::Number;
}

std::string formatCounterValue(double v, CounterUnit unit) {
    char buf[64];
    const double a = std::fabs(v);
    switch (unit) {
    case CounterUnit::Bytes: {
        static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
        int u = 0;
        double x = a;
        while (x >= 1024.0 && u < 5) x /= 1024.0, ++u;
        if (u == 0)
            std::snprintf(buf, sizeof buf, "%s%.0f B", v < 0 ? "-" : "", x);
        else
            std::snprintf(buf, sizeof buf, "%s%.*f %s", v < 0 ? "-" : "",
                          x < 10    ? 2
                          : x < 100 ? 1
                                    : 0,
                          x, kUnits[u]);
        return buf;
    }
    case CounterUnit::Percent:
        std::snprintf(buf, sizeof buf, "%.*f %%", a < 10 ? 1 : 0, v);
        return buf;
    case CounterUnit::Number: {
        int u = 0;
        double x = a;
        while (x >= 1000.0 && u < 5) x /= 1000.0, ++u;
        std::snprintf(buf, sizeof buf, "%s%.*g%s%s", v < 0 ? "-" : "", 3, x, u ? " " : "",
                      kSiPrefixes[u + kSiUnit]);
        return buf;
    }
    }
    return {};
}

std::string formatSi(double value, std::string_view unit) {
    if (!std::isfinite(value)) return std::string(value > 0 ? "inf " : "-inf ") + std::string(unit);
    if (value == 0) return "0 " + std::string(unit);
    int power = std::clamp(int(std::floor(std::log10(std::fabs(value)) / 3)), -kSiUnit, 6);
    double scaled = value / std::pow(1000.0, power);
    // Rounding to three digits may reach the next prefix (999.6 -> "1.00 k").
    if (std::fabs(scaled) >= 999.5 && power < 6) {
        scaled /= 1000;
        ++power;
    }
    const int decimals = std::fabs(scaled) >= 100 ? 0 : std::fabs(scaled) >= 10 ? 1 : 2;
    char text[64];
    std::snprintf(text, sizeof text, "%.*f %s", decimals, scaled, kSiPrefixes[power + kSiUnit]);
    return text + std::string(unit);
}

} // namespace strata
