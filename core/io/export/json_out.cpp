#include "io/export/json_out.h"

#include "util/json_text.h"

#include <charconv>
#include <cmath>
#include <cstring>

namespace strata {
void JsonOut::str(std::string_view text) {
    appendJsonString(buf_, text, &replaced_);
    maybeFlush();
}

void JsonOut::i64(int64_t v) {
    char b[24];
    const auto r = std::to_chars(b, b + sizeof b, v);
    buf_.append(b, size_t(r.ptr - b));
}

void JsonOut::u64(uint64_t v) {
    char b[24];
    const auto r = std::to_chars(b, b + sizeof b, v);
    buf_.append(b, size_t(r.ptr - b));
}

void JsonOut::micros(TimeNs ns) {
    char b[32];
    char* p = b;
    uint64_t a;
    if (ns < 0) {
        *p++ = '-';
        a = uint64_t(0) - uint64_t(ns);
    } else {
        a = uint64_t(ns);
    }
    p = std::to_chars(p, b + sizeof b, a / 1000).ptr;
    unsigned frac = unsigned(a % 1000);
    if (frac) {
        *p++ = '.';
        *p++ = char('0' + frac / 100);
        frac %= 100;
        if (frac) {
            *p++ = char('0' + frac / 10);
            frac %= 10;
            if (frac) *p++ = char('0' + frac);
        }
    }
    buf_.append(b, size_t(p - b));
}

std::string plainNumber(double v) {
    char b[64];
    const auto r = std::to_chars(b, b + sizeof b, v); // shortest round trip
    std::string s(b, r.ptr);
    const size_t e = s.find_first_of("eE");
    if (e == std::string::npos) return s;
    // d.ddd e±X -> plain digits with the point moved X places.
    const int exp = std::atoi(s.c_str() + e + 1);
    std::string mant = s.substr(0, e);
    bool neg = false;
    if (!mant.empty() && mant[0] == '-') {
        neg = true;
        mant.erase(0, 1);
    }
    std::string digits;
    int pointAt = 0; // digits before the decimal point in `mant`
    bool seenPoint = false;
    for (char c : mant) {
        if (c == '.') {
            seenPoint = true;
            continue;
        }
        digits += c;
        if (!seenPoint) ++pointAt;
    }
    pointAt += exp;
    std::string out = neg ? "-" : "";
    if (pointAt <= 0) {
        out += "0.";
        out.append(size_t(-pointAt), '0');
        out += digits;
    } else if (size_t(pointAt) >= digits.size()) {
        out += digits;
        out.append(size_t(pointAt) - digits.size(), '0');
    } else {
        out += digits.substr(0, size_t(pointAt));
        out += '.';
        out += digits.substr(size_t(pointAt));
    }
    return out;
}

void JsonOut::dbl(double v) {
    if (!std::isfinite(v)) {
        buf_.append("null");
        ++nonFinite_;
        return;
    }
    const bool whole = v == std::trunc(v);
    if (whole && std::fabs(v) < 9.0e15) {
        i64(int64_t(v)); // -0 as 0
        return;
    }
    char b[64];
    const auto r = std::to_chars(b, b + sizeof b, v);
    if (std::memchr(b, 'e', size_t(r.ptr - b)) == nullptr)
        buf_.append(b, size_t(r.ptr - b));
    else
        buf_.append(plainNumber(v));
    // A whole number past 9e15 gets ".0": an integer literal past 64 bits is an error to readers
    // such as simdjson (Strata's own), a decimal is read as the double it is.
    if (whole) buf_.append(".0");
}

bool JsonOut::flush() {
    if (buf_.empty()) return !failed_;
    if (!failed_ && !sink_.write(buf_)) failed_ = true;
    written_ += buf_.size();
    buf_.clear();
    return !failed_;
}

} // namespace strata
