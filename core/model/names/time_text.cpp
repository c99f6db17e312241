#include "model/names/time_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace strata {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

} // namespace

std::string formatPreciseDuration(TimeNs ns) {
    // Exact: integer arithmetic, every nanosecond the value has kept (trailing zeros dropped), so
    // a Kineto time shows its µs and a .strata time its ns at any size ("1.234567 s").
    const bool negative = ns < 0;
    const uint64_t a = negative ? uint64_t(0) - uint64_t(ns) : uint64_t(ns);
    uint64_t div = 1;
    int digits = 0;
    const char* unit = " ns";
    if (a >= 1'000'000'000) {
        div = 1'000'000'000;
        digits = 9;
        unit = " s";
    } else if (a >= 1'000'000) {
        div = 1'000'000;
        digits = 6;
        unit = " ms";
    } else if (a >= 1'000) {
        div = 1'000;
        digits = 3;
        unit = " \xC2\xB5s";
    }
    std::string s = std::to_string(a / div);
    if (digits) {
        std::string frac = std::to_string(a % div);
        frac.insert(0, size_t(digits) - frac.size(), '0');
        while (!frac.empty() && frac.back() == '0') frac.pop_back();
        if (!frac.empty()) {
            // Digit grouping past the first three decimals (thin spaces, as ISO 80000 writes
            // them): "1.234 567 891 s" reads where "1.234567891 s" blurs.
            s += '.';
            for (size_t i = 0; i < frac.size(); ++i) {
                if (i && i % 3 == 0) s += "\xE2\x80\x89";
                s += frac[i];
            }
        }
    }
    s += unit;
    return negative ? "-" + s : s;
}

std::optional<TimeNs> parseTime(std::string_view text, std::string* error) {
    const std::string_view t = trim(text);
    const std::string s(t);
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || end == s.c_str()) {
        if (error)
            *error = "expected a number with an optional unit (ns, us, ms, s), got '" + s + "'";
        return std::nullopt;
    }
    const std::string_view unit = trim(std::string_view(s).substr(end - s.c_str()));
    double scale = 0;
    if (unit.empty() || unit == "us" || unit == "\xC2\xB5s")
        scale = 1e3;
    else if (unit == "ns")
        scale = 1;
    else if (unit == "ms")
        scale = 1e6;
    else if (unit == "s")
        scale = 1e9;
    else {
        if (error) *error = "unknown time unit '" + std::string(unit) + "' (use ns, us, ms or s)";
        return std::nullopt;
    }
    if (!std::isfinite(v)) {
        if (error) *error = "time '" + s + "' is not finite";
        return std::nullopt;
    }
    return static_cast<TimeNs>(std::llround(v * scale));
}

std::optional<TimeRange> parseTimeRange(std::string_view text, std::string* error) {
    const size_t colon = text.find(':');
    if (colon == std::string_view::npos) {
        if (error) *error = "expected START:END, got '" + std::string(text) + "'";
        return std::nullopt;
    }
    const auto a = parseTime(text.substr(0, colon), error);
    if (!a) return std::nullopt;
    const auto b = parseTime(text.substr(colon + 1), error);
    if (!b) return std::nullopt;
    if (*b <= *a) {
        if (error) *error = "range end must be after its start in '" + std::string(text) + "'";
        return std::nullopt;
    }
    return TimeRange{*a, *b};
}

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
    // Rounded to 4 significant digits in integers first (so 999 960 ns is "1.000 ms", never
    // "1000.0 µs"), then written in the unit that suits the rounded value.
    const bool negative = ns < 0;
    const uint64_t a = negative ? uint64_t(0) - uint64_t(ns) : uint64_t(ns);
    const char* sign = negative ? "-" : "";
    char buf[64];
    if (a < 1'000) {
        std::snprintf(buf, sizeof buf, "%s%llu ns", sign, static_cast<unsigned long long>(a));
        return buf;
    }
    int digits = 0;
    for (uint64_t x = a; x; x /= 10) ++digits;
    uint64_t m = 1;
    for (int i = 4; i < digits; ++i) m *= 10;
    const uint64_t r = (a + m / 2) / m * m;
    const Unit u = unitFor(TimeNs(std::min<uint64_t>(r, uint64_t(INT64_MAX))));
    const uint64_t div = uint64_t(u.div), whole = r / div;
    int wholeDigits = 0;
    for (uint64_t x = whole; x; x /= 10) ++wholeDigits;
    const int decimals = std::max(0, 4 - wholeDigits);
    if (decimals == 0) {
        std::snprintf(buf, sizeof buf, "%s%llu %s", sign, static_cast<unsigned long long>(whole),
                      u.name);
        return buf;
    }
    uint64_t q = div;
    for (int i = 0; i < decimals; ++i) q /= 10;
    std::snprintf(buf, sizeof buf, "%s%llu.%0*llu %s", sign, static_cast<unsigned long long>(whole),
                  decimals, static_cast<unsigned long long>(r % div / q), u.name);
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
