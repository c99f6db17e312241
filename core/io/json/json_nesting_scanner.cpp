#include "io/json/json_nesting_scanner.h"

#include <algorithm>
#include <array>
#include <cstdio>

#include <emmintrin.h>

namespace strata {
namespace {

// Bit i set where block[i] == c, for 64 bytes.
inline uint64_t eqMask(const __m128i v[4], char c) {
    const __m128i cv = _mm_set1_epi8(c);
    uint64_t m = 0;
    for (int k = 0; k < 4; ++k)
        m |= uint64_t(uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(v[k], cv)))) << (16 * k);
    return m;
}

inline uint64_t prefixXor(uint64_t x) {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

// Byte classes outside strings.
enum : uint8_t { kBoring = 0, kQuote, kOpenObj, kOpenArr, kCloseObj, kCloseArr };
constexpr std::array<uint8_t, 256> makeStructTable() {
    std::array<uint8_t, 256> t{};
    t['"'] = kQuote;
    t['{'] = kOpenObj;
    t['['] = kOpenArr;
    t['}'] = kCloseObj;
    t[']'] = kCloseArr;
    return t;
}
constexpr std::array<uint8_t, 256> makeStringTable() {
    std::array<uint8_t, 256> t{};
    t['"'] = 1;
    t['\\'] = 1;
    return t;
}
constexpr auto kStruct = makeStructTable();
constexpr auto kStringSpecial = makeStringTable();

} // namespace

uint64_t countNewlines(const char* p, const char* end) {
    uint64_t n = 0;
    const __m128i nl = _mm_set1_epi8('\n');
    while (end - p >= 16 * 255) {
        // Up to 255 blocks: per-byte counters cannot overflow.
        __m128i acc = _mm_setzero_si128();
        for (int k = 0; k < 255; ++k, p += 16)
            acc = _mm_sub_epi8(
                acc, _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), nl));
        const __m128i sums = _mm_sad_epu8(acc, _mm_setzero_si128());
        n += uint64_t(_mm_cvtsi128_si64(sums)) + uint64_t(_mm_extract_epi16(sums, 4));
    }
    while (end - p >= 16) {
        n += uint64_t(__builtin_popcount(uint32_t(_mm_movemask_epi8(
            _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), nl)))));
        p += 16;
    }
    for (; p < end; ++p) n += *p == '\n';
    return n;
}

std::string describeByte(char c) {
    const unsigned char u = static_cast<unsigned char>(c);
    char buf[32];
    if (u >= 0x20 && u < 0x7f)
        std::snprintf(buf, sizeof buf, "'%c'", c);
    else
        std::snprintf(buf, sizeof buf, "byte 0x%02x", u);
    return buf;
}

bool JsonNestingScanner::open(const char* w, size_t at) {
    if (depth_ >= kJsonMaxScanDepth) {
        error_ = "expected at most " + std::to_string(kJsonMaxScanDepth) +
                 " levels of nesting, found deeper";
        return false;
    }
    uint64_t& word = stack_[depth_ / 64];
    const uint64_t bit = uint64_t(1) << (depth_ % 64);
    word = w[at] == '{' ? word | bit : word & ~bit;
    deepest_ = std::max(deepest_, ++depth_);
    return true;
}

bool JsonNestingScanner::close(const char* w, size_t at) {
    const bool isObj = w[at] == '}';
    const bool openObj = depth_ > 0 && ((stack_[(depth_ - 1) / 64] >> ((depth_ - 1) % 64)) & 1);
    if (depth_ == 0 || isObj != openObj) {
        error_ = "expected " +
                 (depth_ == 0
                      ? std::string("a value")
                      : std::string(openObj ? "'}' to close an object" : "']' to close an array")) +
                 ", found " + describeByte(w[at]);
        return false;
    }
    --depth_;
    return true;
}

JsonNestingScanner::Result JsonNestingScanner::scanString(const char* w, size_t& pos, size_t size) {
    while (pos < size) {
        if (escape_) {
            escape_ = false;
            ++pos;
            continue;
        }
        while (pos < size && !kStringSpecial[uint8_t(w[pos])]) ++pos;
        if (pos == size) return Result::NeedMore;
        if (w[pos] == '\\') {
            escape_ = true;
            ++pos;
            continue;
        }
        ++pos; // closing quote
        inString_ = false;
        return Result::Done;
    }
    return Result::NeedMore;
}

// Finds the structure 64 bytes at a time: masks of quotes, backslashes and brackets; escaped
// characters by the odd-backslash-run trick and string interiors by a prefix XOR of the real
// quotes (the technique of simdjson's stage 1, Langdale & Lemire 2019); then only the brackets
// outside strings are visited. Leaves pos at the first byte it did not account for; true when
// the value closed (pos after it), false otherwise (failed_ set on an error).
bool JsonNestingScanner::scanBlocks(const char* w, size_t& pos, size_t size) {
    uint64_t prevEscaped = escape_ ? 1 : 0;
    uint64_t prevInString = inString_ ? ~uint64_t(0) : 0;
    constexpr uint64_t kEven = 0x5555555555555555ull;
    while (size - pos >= 64) {
        __m128i v[4];
        for (int k = 0; k < 4; ++k)
            v[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(w + pos + 16 * k));
        uint64_t backslash = eqMask(v, '\\');
        backslash &= ~prevEscaped;
        const uint64_t followsEscape = backslash << 1 | prevEscaped;
        const uint64_t oddStarts = backslash & ~kEven & ~followsEscape;
        uint64_t evenStarts;
        const uint64_t carry = __builtin_add_overflow(oddStarts, backslash, &evenStarts) ? 1 : 0;
        const uint64_t escaped = (kEven ^ (evenStarts << 1)) & followsEscape;
        const uint64_t quotes = eqMask(v, '"') & ~escaped;
        const uint64_t inString = prefixXor(quotes) ^ prevInString;
        const uint64_t opens = eqMask(v, '{') | eqMask(v, '[');
        const uint64_t closes = eqMask(v, '}') | eqMask(v, ']');
        uint64_t structural = (opens | closes) & ~inString;
        while (structural) {
            const int bit = __builtin_ctzll(structural);
            structural &= structural - 1;
            const size_t at = pos + size_t(bit);
            const char c = w[at];
            if (c == '{' || c == '[' ? !open(w, at) : !close(w, at)) {
                pos = at;
                failed_ = true;
                return false;
            }
            if ((c == '}' || c == ']') && depth_ == 0) {
                pos = at + 1;
                inString_ = false;
                escape_ = false;
                return true;
            }
        }
        prevEscaped = carry;
        prevInString = (inString >> 63) ? ~uint64_t(0) : 0;
        pos += 64;
    }
    inString_ = prevInString != 0;
    escape_ = prevEscaped != 0;
    return false;
}

JsonNestingScanner::Result JsonNestingScanner::scanNested(const char* w, size_t& pos, size_t size) {
    failed_ = false;
    if (scanBlocks(w, pos, size)) return Result::Done;
    if (failed_) return Result::Error;
    while (pos < size) {
        if (inString_) {
            if (scanString(w, pos, size) == Result::NeedMore) return Result::NeedMore;
            continue;
        }
        // Skip bytes that cannot change the structure.
        while (pos < size && kStruct[uint8_t(w[pos])] == kBoring) ++pos;
        if (pos == size) return Result::NeedMore;
        switch (kStruct[uint8_t(w[pos])]) {
        case kQuote:
            inString_ = true;
            ++pos;
            break;
        case kOpenObj:
        case kOpenArr:
            if (!open(w, pos)) return Result::Error;
            ++pos;
            break;
        default: // close
            if (!close(w, pos)) return Result::Error;
            ++pos;
            if (depth_ == 0) return Result::Done;
            break;
        }
    }
    return Result::NeedMore;
}

} // namespace strata
