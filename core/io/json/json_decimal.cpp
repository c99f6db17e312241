#include "io/json/json_decimal.h"

#include <limits>

namespace strata {
namespace {

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && isSpace(s.front())) s.remove_prefix(1);
    while (!s.empty() && isSpace(s.back())) s.remove_suffix(1);
    return s;
}

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

} // namespace

bool parseMicrosToNs(std::string_view text, TimeNs* out) {
    // Fast path: "digits" or "digits.ddd" with at most three decimals and at most 15 integer
    // digits (the common Kineto shapes), exact without rounding.
    {
        const char* p = text.data();
        const char* e = p + text.size();
        while (e > p && isSpace(e[-1])) --e;
        const char* q = p;
        int64_t v = 0;
        while (q < e && isDigit(*q) && q - p < 15) v = v * 10 + (*q++ - '0');
        if (q > p && (q == e || *q == '.')) {
            int frac = 0;
            if (q < e) {
                ++q;
                while (q < e && isDigit(*q) && frac < 3) v = v * 10 + (*q++ - '0'), ++frac;
            }
            if (q == e && (frac > 0 || text.size() == 0 || e[-1] != '.')) {
                for (; frac < 3; ++frac) v *= 10;
                *out = v;
                return true;
            }
        }
    }
    std::string_view s = trim(text);
    size_t i = 0;
    bool negative = false;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) negative = s[i++] == '-';
    // Mantissa digits (integer and fraction parts, without the dot) and where the dot was.
    const size_t intStart = i;
    while (i < s.size() && isDigit(s[i])) ++i;
    const size_t intEnd = i;
    size_t fracStart = i, fracEnd = i;
    if (i < s.size() && s[i] == '.') {
        fracStart = ++i;
        while (i < s.size() && isDigit(s[i])) ++i;
        fracEnd = i;
    }
    if (intEnd == intStart && fracEnd == fracStart) return false; // no digits at all
    int64_t exp10 = 0;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        bool expNeg = false;
        if (i < s.size() && (s[i] == '-' || s[i] == '+')) expNeg = s[i++] == '-';
        const size_t expStart = i;
        while (i < s.size() && isDigit(s[i])) {
            if (exp10 < 100000) exp10 = exp10 * 10 + (s[i] - '0');
            ++i;
        }
        if (i == expStart) return false;
        if (expNeg) exp10 = -exp10;
    }
    if (i != s.size()) return false;

    // value = digits * 10^(exp10 - fracLen) us = digits * 10^(exp10 - fracLen + 3) ns.
    // The first `keep` mantissa digits form the integer nanoseconds; the rest decide rounding.
    const int64_t totalDigits = int64_t(intEnd - intStart) + int64_t(fracEnd - fracStart);
    const int64_t keep = int64_t(intEnd - intStart) + exp10 + 3;
    auto digitAt = [&](int64_t k) -> int {
        const int64_t intLen = int64_t(intEnd - intStart);
        return k < intLen ? s[intStart + size_t(k)] - '0' : s[fracStart + size_t(k - intLen)] - '0';
    };
    uint64_t mag = 0;
    constexpr uint64_t kLimit = uint64_t(std::numeric_limits<int64_t>::max());
    for (int64_t k = 0; k < keep; ++k) {
        const int d = k < totalDigits ? digitAt(k) : 0;
        if (mag == 0 && d == 0) continue;
        if (mag > (kLimit - uint64_t(d)) / 10) return false;
        mag = mag * 10 + uint64_t(d);
    }
    // Rounding: look at the dropped digits (ties to even).
    const int64_t firstDropped = keep < 0 ? 0 : keep;
    if (firstDropped < totalDigits) {
        int first = 0;
        bool restNonZero = false;
        if (keep >= 0) {
            first = digitAt(firstDropped);
            for (int64_t k = firstDropped + 1; k < totalDigits && !restNonZero; ++k)
                restNonZero = digitAt(k) != 0;
        } else {
            // Every digit lies below the half-nanosecond position: the value is < 0.5 ns... unless
            // keep == -0 handled above; here all digits are at least one place further right.
            first = 0;
            for (int64_t k = 0; k < totalDigits && !restNonZero; ++k) restNonZero = digitAt(k) != 0;
        }
        const bool roundUp = first > 5 || (first == 5 && (restNonZero || (mag & 1)));
        if (roundUp) {
            if (mag >= kLimit) return false;
            ++mag;
        }
    }
    *out = negative ? -int64_t(mag) : int64_t(mag);
    return true;
}

bool parseInt64(std::string_view text, int64_t* out) {
    std::string_view s = trim(text);
    size_t i = 0;
    bool negative = false;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) negative = s[i++] == '-';
    if (i == s.size()) return false;
    uint64_t mag = 0;
    const uint64_t limit = negative ? uint64_t(std::numeric_limits<int64_t>::max()) + 1
                                    : uint64_t(std::numeric_limits<int64_t>::max());
    for (; i < s.size(); ++i) {
        if (!isDigit(s[i])) return false;
        const uint64_t d = uint64_t(s[i] - '0');
        if (mag > (limit - d) / 10) return false;
        mag = mag * 10 + d;
    }
    *out = negative ? int64_t(0 - mag) : int64_t(mag);
    return true;
}

bool parseHexU64(std::string_view text, uint64_t* out) {
    std::string_view s = trim(text);
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
    if (s.empty() || s.size() > 16) return false;
    uint64_t v = 0;
    for (char c : s) {
        int d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (c >= 'a' && c <= 'f')
            d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            d = c - 'A' + 10;
        else
            return false;
        v = (v << 4) | uint64_t(d);
    }
    *out = v;
    return true;
}

} // namespace strata
