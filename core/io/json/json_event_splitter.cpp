#include "io/json/json_event_splitter.h"

#include <algorithm>
#include <array>
#include <cstring>

#include <emmintrin.h>

namespace strata {
namespace {

constexpr size_t kPadding = 64;     // >= SIMDJSON_PADDING
constexpr size_t kWindowSlack = 64; // readable bytes after the window's end

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

// Byte classes for the nested scanner (outside strings).
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

bool isWs(char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}
bool isScalarChar(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' ||
           c == '+' || c == '.';
}

std::string describe(char c) {
    const unsigned char u = static_cast<unsigned char>(c);
    char buf[32];
    if (u >= 0x20 && u < 0x7f)
        std::snprintf(buf, sizeof buf, "'%c'", c);
    else
        std::snprintf(buf, sizeof buf, "byte 0x%02x", u);
    return buf;
}

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

JsonEventSplitter::JsonEventSplitter(JsonInput& in, size_t batchBytes, size_t chunkBytes)
    : in_(in), batchBytes_(batchBytes), chunkBytes_(chunkBytes) {
    cap_ = chunkBytes_ * 2;
    win_.reset(new char[cap_ + kWindowSlack]);
}

JsonEventSplitter::~JsonEventSplitter() = default;

uint64_t JsonEventSplitter::lineAt(uint64_t absOffset) {
    if (absOffset > lineCk_) {
        const char* b = win_.get() + (lineCk_ - winBase_);
        const char* e = win_.get() + (absOffset - winBase_);
        lineAtCk_ += countNewlines(b, e);
        lineCk_ = absOffset;
    }
    return lineAtCk_;
}

void JsonEventSplitter::fail(uint64_t absOffset, std::string message) {
    failed_ = true;
    error_.offset = absOffset;
    error_.line = lineAt(absOffset);
    error_.message = std::move(message);
    state_ = State::Done;
}

void JsonEventSplitter::failHere(const std::string& expected) {
    fail(winBase_ + pos_, "expected " + expected + ", found " + describe(win_[pos_]));
}

bool JsonEventSplitter::refill() {
    if (eof_) return false;
    // Drop what is no longer needed: everything before the item being read (or the scan position).
    const size_t keepFrom = std::min(itemStart_, pos_);
    if (keepFrom > 0) {
        lineAt(winBase_ + keepFrom);
        std::memmove(win_.get(), win_.get() + keepFrom, size_ - keepFrom);
        size_ -= keepFrom;
        pos_ -= keepFrom;
        if (itemStart_ != SIZE_MAX) itemStart_ -= keepFrom;
        winBase_ += keepFrom;
    }
    if (cap_ - size_ < chunkBytes_) {
        // An item longer than a chunk: grow (bounded by the event/value limits checked by step()).
        size_t newCap = cap_ * 2;
        while (newCap - size_ < chunkBytes_) newCap *= 2;
        std::unique_ptr<char[]> w(new char[newCap + kWindowSlack]);
        std::memcpy(w.get(), win_.get(), size_);
        win_ = std::move(w);
        cap_ = newCap;
    }
    const size_t n = in_.read(win_.get() + size_, chunkBytes_);
    if (n == 0) {
        eof_ = true;
        return false;
    }
    size_ += n;
    return true;
}

void JsonEventSplitter::onEof() {
    const uint64_t end = winBase_ + size_;
    endOffset_ = end;
    endLine_ = lineAt(end);
    if (in_.failed()) {
        fail(end, in_.error());
        return;
    }
    switch (state_) {
    case State::Trailing:
    case State::Done:
        state_ = State::Done;
        return;
    case State::Start:
        fail(end, end == 0 ? "expected '{' or '[' (a Chrome trace), found an empty file"
                           : "expected '{' or '[' (a Chrome trace), found only whitespace");
        return;
    default:
        truncated_ = true;
        state_ = State::Done;
        return;
    }
}

bool JsonEventSplitter::scanString() {
    const char* w = win_.get();
    while (pos_ < size_) {
        if (escape_) {
            escape_ = false;
            ++pos_;
            continue;
        }
        while (pos_ < size_ && !kStringSpecial[uint8_t(w[pos_])]) ++pos_;
        if (pos_ == size_) return false;
        if (w[pos_] == '\\') {
            escape_ = true;
            ++pos_;
            continue;
        }
        ++pos_; // closing quote
        inString_ = false;
        return true;
    }
    return false;
}

// Finds the structure 64 bytes at a time: masks of quotes, backslashes and brackets; escaped
// characters by the odd-backslash-run trick and string interiors by a prefix XOR of the real
// quotes (the technique of simdjson's stage 1, Langdale & Lemire 2019); then only the brackets
// outside strings are visited. Leaves pos_ at the first byte it did not account for.
bool JsonEventSplitter::scanBlocks() {
    const char* w = win_.get();
    uint64_t prevEscaped = escape_ ? 1 : 0;
    uint64_t prevInString = inString_ ? ~uint64_t(0) : 0;
    constexpr uint64_t kEven = 0x5555555555555555ull;
    while (size_ - pos_ >= 64) {
        __m128i v[4];
        for (int k = 0; k < 4; ++k)
            v[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(w + pos_ + 16 * k));
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
            const size_t at = pos_ + size_t(bit);
            const char c = w[at];
            if (c == '{' || c == '[') {
                if (depth_ >= kJsonMaxDepth) {
                    fail(winBase_ + at, "expected at most " + std::to_string(kJsonMaxDepth) +
                                            " levels of nesting, found deeper");
                    return false;
                }
                if (c == '{')
                    stack_ |= (uint64_t(1) << depth_);
                else
                    stack_ &= ~(uint64_t(1) << depth_);
                ++depth_;
                continue;
            }
            const bool isObj = c == '}';
            const bool openObj = depth_ > 0 && ((stack_ >> (depth_ - 1)) & 1);
            if (depth_ == 0 || isObj != openObj) {
                pos_ = at;
                failHere(depth_ == 0 ? std::string("a value")
                                     : std::string(openObj ? "'}' to close an object"
                                                           : "']' to close an array"));
                return false;
            }
            if (--depth_ == 0) {
                pos_ = at + 1;
                inString_ = false;
                escape_ = false;
                return true;
            }
        }
        prevEscaped = carry;
        prevInString = (inString >> 63) ? ~uint64_t(0) : 0;
        pos_ += 64;
    }
    inString_ = prevInString != 0;
    escape_ = prevEscaped != 0;
    return false;
}

bool JsonEventSplitter::scanNested() {
    const char* w = win_.get();
    if (scanBlocks()) return true;
    if (failed_) return false;
    while (pos_ < size_) {
        if (inString_) {
            if (!scanString()) return false;
            continue;
        }
        // Skip bytes that cannot change the structure.
        while (pos_ < size_ && kStruct[uint8_t(w[pos_])] == kBoring) ++pos_;
        if (pos_ == size_) return false;
        switch (kStruct[uint8_t(w[pos_])]) {
        case kQuote:
            inString_ = true;
            ++pos_;
            break;
        case kOpenObj:
        case kOpenArr:
            if (depth_ >= kJsonMaxDepth) {
                fail(winBase_ + pos_, "expected at most " + std::to_string(kJsonMaxDepth) +
                                          " levels of nesting, found deeper");
                return false;
            }
            if (w[pos_] == '{')
                stack_ |= (uint64_t(1) << depth_);
            else
                stack_ &= ~(uint64_t(1) << depth_);
            ++depth_;
            ++pos_;
            break;
        default: { // close
            const bool isObj = w[pos_] == '}';
            const bool openObj = depth_ > 0 && ((stack_ >> (depth_ - 1)) & 1);
            if (depth_ == 0 || isObj != openObj) {
                failHere(depth_ == 0 ? std::string("a value")
                                     : std::string(openObj ? "'}' to close an object"
                                                           : "']' to close an array"));
                return false;
            }
            --depth_;
            ++pos_;
            if (depth_ == 0) return true;
            break;
        }
        }
    }
    return false;
}

void JsonEventSplitter::emitEvent(EventBatch& b, size_t start, size_t end) {
    const uint64_t abs = winBase_ + start;
    if (b.data.empty()) {
        if (b.data.capacity() < batchBytes_ + kPadding) b.data.reserve(batchBytes_ + kPadding);
        b.data.push_back('[');
        b.firstLine = lineAt(abs);
    } else {
        b.data.push_back(',');
        b.data.append(gapNewlines_, '\n');
    }
    gapNewlines_ = 0;
    b.events.push_back({uint32_t(b.data.size()), abs});
    b.data.append(win_.get() + start, end - start);
    ++eventsEmitted_;
}

void JsonEventSplitter::finishValue(size_t end) {
    TopLevelValue v;
    v.key = key_;
    v.offset = valueStartAbs_;
    v.line = valueLine_;
    v.size = winBase_ + end - valueStartAbs_;
    if (!valueDropped_) v.raw.assign(win_.get() + itemStart_, end - itemStart_);
    topLevel_.push_back(std::move(v));
    itemStart_ = SIZE_MAX;
    state_ = State::ObjCommaOrEnd;
}

void JsonEventSplitter::endOfEvents() {
    state_ = form_ == Form::Object ? State::ObjCommaOrEnd : State::Trailing;
}

void JsonEventSplitter::step(EventBatch& b) {
    const char* w = win_.get();
    while (pos_ < size_ && state_ != State::Done) {
        switch (state_) {
        case State::Start:
            if (winBase_ + pos_ == 0 && size_ >= 3 && std::memcmp(w, "\xEF\xBB\xBF", 3) == 0) {
                pos_ = 3; // UTF-8 byte order mark
                continue;
            }
            if (isWs(w[pos_])) {
                ++pos_;
                continue;
            }
            if (w[pos_] == '{') {
                form_ = Form::Object;
                state_ = State::ObjKeyOrEnd;
            } else if (w[pos_] == '[') {
                form_ = Form::Array;
                state_ = State::EvFirst;
            } else {
                failHere("'{' or '[' (a Chrome trace)");
                return;
            }
            ++pos_;
            break;
        case State::ObjKeyOrEnd:
        case State::ObjKey:
            if (isWs(w[pos_])) {
                ++pos_;
                continue;
            }
            if (w[pos_] == '"') {
                itemStart_ = pos_++;
                inString_ = true;
                escape_ = false;
                state_ = State::InKey;
            } else if (w[pos_] == '}' && state_ == State::ObjKeyOrEnd) {
                ++pos_;
                state_ = State::Trailing;
            } else {
                failHere(state_ == State::ObjKey ? "a key string in the top-level object"
                                                 : "a key string or '}' in the top-level object");
                return;
            }
            break;
        case State::InKey:
            if (!scanString()) {
                if (pos_ - itemStart_ > kJsonMaxTopLevelValue) {
                    fail(winBase_ + itemStart_, "expected a key shorter than 16 MiB");
                    return;
                }
                return; // need more input
            }
            key_.assign(w + itemStart_ + 1, pos_ - itemStart_ - 2);
            itemStart_ = SIZE_MAX;
            state_ = State::ObjColon;
            break;
        case State::ObjColon:
            if (isWs(w[pos_])) {
                ++pos_;
                continue;
            }
            if (w[pos_] != ':') {
                failHere("':' after the key \"" + key_ + "\"");
                return;
            }
            ++pos_;
            state_ = State::ObjValue;
            break;
        case State::ObjValue:
            if (isWs(w[pos_])) {
                ++pos_;
                continue;
            }
            if (key_ == "traceEvents") {
                if (w[pos_] != '[') {
                    failHere("'[' (the traceEvents array)");
                    return;
                }
                if (sawTraceEvents_) {
                    fail(winBase_ + pos_, "expected one \"traceEvents\" key, found a second one");
                    return;
                }
                sawTraceEvents_ = true;
                ++pos_;
                state_ = State::EvFirst;
                break;
            }
            itemStart_ = pos_;
            valueStartAbs_ = winBase_ + pos_;
            valueLine_ = lineAt(valueStartAbs_);
            valueDropped_ = false;
            if (w[pos_] == '{' || w[pos_] == '[') {
                depth_ = 0;
                inString_ = false;
                escape_ = false;
                state_ = State::InValueNested;
            } else if (w[pos_] == '"') {
                ++pos_;
                inString_ = true;
                escape_ = false;
                state_ = State::InValueString;
            } else if (isScalarChar(w[pos_])) {
                state_ = State::InValueScalar;
            } else {
                failHere("a JSON value for the key \"" + key_ + "\"");
                return;
            }
            break;
        case State::InValueNested:
        case State::InValueString: {
            const bool done = state_ == State::InValueNested ? scanNested() : scanString();
            if (failed_) return;
            if (done) {
                finishValue(pos_);
                break;
            }
            if (!valueDropped_ && pos_ - itemStart_ > kJsonMaxTopLevelValue) {
                valueDropped_ = true; // keep scanning, stop keeping
            }
            if (valueDropped_) itemStart_ = SIZE_MAX;
            return;
        }
        case State::InValueScalar:
            while (pos_ < size_ && isScalarChar(w[pos_])) ++pos_;
            if (pos_ - itemStart_ > 4096) {
                fail(winBase_ + itemStart_, "expected a number or literal shorter than 4 KiB");
                return;
            }
            if (pos_ == size_) return;
            finishValue(pos_);
            break;
        case State::ObjCommaOrEnd:
            if (isWs(w[pos_])) {
                ++pos_;
                continue;
            }
            if (w[pos_] == ',')
                state_ = State::ObjKey;
            else if (w[pos_] == '}')
                state_ = State::Trailing;
            else {
                failHere("',' or '}' in the top-level object");
                return;
            }
            ++pos_;
            break;
        case State::EvFirst:
        case State::EvNext:
        case State::EvAfterComma: {
            // Fast whitespace skip between events (newlines counted for the batch's lines).
            while (pos_ < size_ && isWs(w[pos_])) gapNewlines_ += w[pos_++] == '\n';
            if (pos_ == size_) return;
            const char c = w[pos_];
            if (c == ']') {
                ++pos_;
                endOfEvents();
            } else if (c == ',' && state_ == State::EvNext) {
                ++pos_;
                state_ = State::EvAfterComma;
            } else if (c == '{' && state_ != State::EvNext) {
                itemStart_ = pos_;
                depth_ = 0;
                inString_ = false;
                escape_ = false;
                state_ = State::InEvent;
            } else {
                failHere(state_ == State::EvNext ? "',' or ']' after an event in traceEvents"
                                                 : "'{' (an event) or ']' in traceEvents");
                return;
            }
            break;
        }
        case State::InEvent:
            if (scanNested()) {
                emitEvent(b, itemStart_, pos_);
                itemStart_ = SIZE_MAX;
                state_ = State::EvNext;
                if (b.data.size() >= batchBytes_) return;
                break;
            }
            if (failed_) return;
            if (pos_ - itemStart_ > kJsonMaxEventBytes) {
                fail(winBase_ + itemStart_, "expected an event smaller than 64 MiB");
            }
            return;
        case State::Trailing:
            if (isWs(w[pos_])) {
                ++pos_;
                continue;
            }
            failHere("the end of the file after the top-level value");
            return;
        case State::Done:
            return;
        }
    }
}

uint64_t EventBatch::lineOf(size_t pos) const {
    if (events.empty() || pos <= events[0].inBatch) return firstLine;
    return firstLine + countNewlines(data.data() + events[0].inBatch, data.data() + pos);
}

bool JsonEventSplitter::next(EventBatch& b) {
    b.clear();
    for (;;) {
        if (state_ == State::Done) break;
        if (pos_ == size_ && !refill()) {
            onEof();
            break;
        }
        step(b);
        if (b.data.size() >= batchBytes_) break;
    }
    if (b.events.empty()) return false;
    b.data.push_back(']');
    if (b.data.capacity() < b.data.size() + kPadding) b.data.reserve(b.data.size() + kPadding);
    return true;
}

} // namespace strata
