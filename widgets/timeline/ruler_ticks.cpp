#include "ruler_ticks.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace strata {

TimeNs chooseTickStep(double nsPerPixel, double minPixels) {
    const double want = nsPerPixel * minPixels;
    TimeNs decade = 1;
    while (true) {
        for (TimeNs m : {1, 2, 5})
            if (static_cast<double>(m * decade) >= want) return m * decade;
        if (decade > INT64_MAX / 100) return decade * 10;
        decade *= 10;
    }
}

namespace {
struct Unit {
    TimeNs div;
    const char* name;
};
Unit unitFor(TimeNs magnitude) {
    magnitude = std::llabs(magnitude);
    if (magnitude < 1'000) return {1, "ns"};
    if (magnitude < 1'000'000) return {1'000, "\xC2\xB5s"};
    if (magnitude < 1'000'000'000) return {1'000'000, "ms"};
    return {1'000'000'000, "s"};
}
} // namespace

std::string formatDuration(TimeNs ns) {
    const Unit u = unitFor(ns);
    char buf[64];
    if (u.div == 1) {
        std::snprintf(buf, sizeof buf, "%lld ns", static_cast<long long>(ns));
        return buf;
    }
    const double v = static_cast<double>(ns) / static_cast<double>(u.div);
    const double a = std::fabs(v);
    const int decimals = a < 10 ? 2 : (a < 100 ? 1 : 0);
    std::snprintf(buf, sizeof buf, "%.*f %s", decimals, v, u.name);
    return buf;
}

std::string formatTick(TimeNs t, TimeNs step, TimeNs unitOf) {
    const Unit u = unitFor(unitOf);
    int decimals = 0;
    for (TimeNs d = u.div; d > 1 && step % d != 0 && decimals < 9; d /= 10) ++decimals;
    char buf[160];
    if (decimals == 0) {
        std::snprintf(buf, sizeof buf, "%lld %s", static_cast<long long>(t / u.div), u.name);
    } else {
        const TimeNs whole = t / u.div;
        TimeNs frac = std::llabs(t % u.div);
        TimeNs scale = u.div;
        for (int i = 0; i < decimals; ++i) scale /= 10;
        frac /= scale;
        const char* sign = (t < 0 && whole == 0) ? "-" : "";
        std::snprintf(buf, sizeof buf, "%s%lld.%0*lld %s", sign, static_cast<long long>(whole),
                      decimals, static_cast<long long>(frac), u.name);
    }
    return buf;
}

} // namespace strata
