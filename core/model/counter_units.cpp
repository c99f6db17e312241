#include "model/counter_units.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace strata {

namespace {
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
        static const char* const kSi[] = {"", "k", "M", "G", "T", "P"};
        int u = 0;
        double x = a;
        while (x >= 1000.0 && u < 5) x /= 1000.0, ++u;
        std::snprintf(buf, sizeof buf, "%s%.*g%s%s", v < 0 ? "-" : "", 3, x, u ? " " : "", kSi[u]);
        return buf;
    }
    }
    return {};
}

} // namespace strata
