#include "io/export/json_out.h"

#include <charconv>
#include <cmath>
#include <cstring>

namespace strata {
namespace {

// Length of the valid UTF-8 sequence at s[i] (1..4), or 0 if it is not one.
size_t utf8Length(const unsigned char* s, size_t i, size_t n) {
    const unsigned char c = s[i];
    auto cont = [&](size_t k) { return i + k < n && (s[i + k] & 0xC0) == 0x80; };
    if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
    if (c == 0xE0) return i + 1 < n && s[i + 1] >= 0xA0 && s[i + 1] <= 0xBF && cont(2) ? 3 : 0;
    if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) return cont(1) && cont(2) ? 3 : 0;
    if (c == 0xED) return i + 1 < n && s[i + 1] >= 0x80 && s[i + 1] <= 0x9F && cont(2) ? 3 : 0;
    if (c == 0xF0)
        return i + 1 < n && s[i + 1] >= 0x90 && s[i + 1] <= 0xBF && cont(2) && cont(3) ? 4 : 0;
    if (c >= 0xF1 && c <= 0xF3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
    if (c == 0xF4)
        return i + 1 < n && s[i + 1] >= 0x80 && s[i + 1] <= 0x8F && cont(2) && cont(3) ? 4 : 0;
    return 0;
}

} // namespace

void JsonOut::str(std::string_view text) {
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    const size_t n = text.size();
    buf_.push_back('"');
    size_t run = 0; // start of the pending run of bytes that need no escaping
    for (size_t i = 0; i < n;) {
        const unsigned char c = s[i];
        if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
            ++i;
            continue;
        }
        if (c >= 0x80) {
            const size_t len = utf8Length(s, i, n);
            if (len) {
                i += len;
                continue;
            }
        }
        buf_.append(text.data() + run, i - run);
        switch (c) {
        case '"':
            buf_.append("\\\"");
            break;
        case '\\':
            buf_.append("\\\\");
            break;
        case '\n':
            buf_.append("\\n");
            break;
        case '\t':
            buf_.append("\\t");
            break;
        case '\r':
            buf_.append("\\r");
            break;
        case '\b':
            buf_.append("\\b");
            break;
        case '\f':
            buf_.append("\\f");
            break;
        default:
            if (c < 0x20) {
                static const char hex[] = "0123456789abcdef";
                const char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
                buf_.append(e, 6);
            } else {
                buf_.append("\xEF\xBF\xBD"); // U+FFFD for a byte that is not UTF-8
                ++replaced_;
            }
        }
        ++i;
        run = i;
    }
    buf_.append(text.data() + run, n - run);
    buf_.push_back('"');
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
    if (v == std::trunc(v) && std::fabs(v) < 9.0e15) {
        i64(int64_t(v));
        if (v == 0 && std::signbit(v)) return; // -0 as 0
        return;
    }
    char b[64];
    const auto r = std::to_chars(b, b + sizeof b, v);
    if (std::memchr(b, 'e', size_t(r.ptr - b)) == nullptr) {
        buf_.append(b, size_t(r.ptr - b));
        return;
    }
    buf_.append(plainNumber(v));
}

bool JsonOut::flush() {
    if (buf_.empty()) return !failed_;
    if (!failed_ && !sink_.write(buf_)) failed_ = true;
    written_ += buf_.size();
    buf_.clear();
    return !failed_;
}

} // namespace strata
