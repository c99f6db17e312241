#include "io/json/json_event_splitter.h"

#include <algorithm>
#include <array>
#include <cstring>

#include <emmintrin.h>

namespace strata {
namespace {

constexpr size_t kPadding = 64;     // >= SIMDJSON_PADDING
constexpr size_t kWindowSlack = 64; // readable bytes after the window's end

bool isWs(char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}
bool isScalarChar(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' ||
           c == '+' || c == '.';
}

} // namespace

size_t topLevelKeepLimit(std::string_view key) {
    return key == "deviceProperties" || key == "distributedInfo" || key == "stackFrames" ||
                   key == "samples"
               ? kJsonMaxTopLevelValue
               : kJsonMaxTopLevelMetadata;
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
    fail(winBase_ + pos_, "expected " + expected + ", found " + describeByte(win_[pos_]));
}

bool JsonEventSplitter::refill() {
    needMore_ = false;
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

void JsonEventSplitter::emitEvent(EventBatch& b, size_t start, size_t end, uint8_t flags) {
    emitText(b, std::string_view(win_.get() + start, end - start), winBase_ + start, flags);
}

void JsonEventSplitter::emitText(EventBatch& b, std::string_view text, uint64_t abs,
                                 uint8_t flags) {
    badInARow_ = 0;
    if (b.data.empty()) {
        if (b.data.capacity() < batchBytes_ + kPadding) b.data.reserve(batchBytes_ + kPadding);
        b.data.push_back('[');
        b.firstLine = lineAt(abs);
    } else {
        b.data.push_back(',');
        b.data.append(gapNewlines_, '\n');
    }
    gapNewlines_ = 0;
    b.events.push_back({uint32_t(b.data.size()), abs, flags});
    b.data.append(text);
    ++eventsEmitted_;
}

// The text of an event that is too large to keep, up to the value of its "args" (found at the
// event's top level), with empty args and the event closed; empty if there is no such key in
// the first MiB.
std::string JsonEventSplitter::headWithoutArgs(std::string_view e) {
    bool inString = false, escape = false;
    int depth = 0;
    size_t keyStart = 0;
    const size_t limit = std::min(e.size(), size_t(1) << 20);
    for (size_t i = 0; i < limit; ++i) {
        const char c = e[i];
        if (inString) {
            if (escape)
                escape = false;
            else if (c == '\\')
                escape = true;
            else if (c == '"') {
                inString = false;
                if (depth == 1 && e.substr(keyStart, i + 1 - keyStart) == "\"args\"") {
                    size_t j = i + 1;
                    while (j < e.size() && isWs(e[j])) ++j;
                    if (j < e.size() && e[j] == ':') return std::string(e.substr(0, j + 1)) + "{}}";
                }
            }
            continue;
        }
        if (c == '"') {
            inString = true;
            keyStart = i;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if (c == '}' || c == ']') {
            --depth;
        }
    }
    return {};
}

void JsonEventSplitter::finishValue(size_t end) {
    TopLevelValue v;
    v.key = key_;
    v.offset = valueStartAbs_;
    v.line = valueLine_;
    v.size = winBase_ + end - valueStartAbs_;
    if (!valueDropped_ && v.size <= topLevelKeepLimit(key_))
        v.raw.assign(win_.get() + itemStart_, end - itemStart_);
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
                scanner_.startString();
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
            if (scanner_.scanString(w, pos_, size_) != JsonNestingScanner::Result::Done) {
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
                scanner_.startNested();
                state_ = State::InValueNested;
            } else if (w[pos_] == '"') {
                ++pos_;
                scanner_.startString();
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
            const auto r = state_ == State::InValueNested ? scanner_.scanNested(w, pos_, size_)
                                                          : scanner_.scanString(w, pos_, size_);
            if (r == JsonNestingScanner::Result::Error) {
                fail(winBase_ + pos_, scanner_.error());
                return;
            }
            if (r == JsonNestingScanner::Result::Done) {
                finishValue(pos_);
                break;
            }
            if (!valueDropped_ && pos_ - itemStart_ > topLevelKeepLimit(key_)) {
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
                scanner_.startNested();
                state_ = State::InEvent;
            } else {
                // Resync from this byte: a '{' here (a missing ',') starts the next event.
                damaged(winBase_ + pos_,
                        std::string("broken JSON between events (expected ") +
                            (state_ == State::EvNext ? "',' or ']' after an event"
                                                     : "'{' (an event) or ']'") +
                            ", found " + describeByte(c) + ")",
                        pos_);
                sawBreak_ = true;
                if (failed_) return;
            }
            break;
        }
        case State::InEvent: {
            const auto r = scanner_.scanNested(w, pos_, size_);
            if (r == JsonNestingScanner::Result::Done) {
                if (pos_ - itemStart_ > kJsonMaxEventBytes) { // ended in the chunk past the limit
                    const std::string head =
                        headWithoutArgs(std::string_view(w + itemStart_, pos_ - itemStart_));
                    if (head.empty())
                        note("skipped events larger than 64 MiB", winBase_ + itemStart_);
                    else
                        emitText(b, head, winBase_ + itemStart_, kEventArgsTooLarge);
                    const size_t kept = head.empty() ? 0 : head.size() - 3; // without "{}}"
                    gapNewlines_ += uint32_t(countNewlines(w + itemStart_ + kept, w + pos_));
                } else {
                    // The event object is level 1, its args level 2: deeper than the limit
                    // inside args is dropped (the event kept).
                    emitEvent(b, itemStart_, pos_,
                              scanner_.deepest() > kJsonMaxDepth + 1 ? kEventArgsTooDeep : 0);
                }
                itemStart_ = SIZE_MAX;
                state_ = State::EvNext;
                if (b.data.size() >= batchBytes_) return;
                break;
            }
            if (r == JsonNestingScanner::Result::Error) {
                // Inside the broken event, the next events may start (a writer that died
                // mid-event and went on): look from just after its '{'.
                damaged(winBase_ + pos_, "broken JSON in an event (" + scanner_.error() + ")",
                        itemStart_ + 1);
                if (failed_) return;
                break;
            }
            if (pos_ - itemStart_ > kJsonMaxEventBytes) {
                // Whole events inside it: not one event but a broken one and what followed.
                if (const size_t end = salvage(b, pos_)) {
                    damaged(winBase_ + itemStart_, "broken JSON in an event (never closed)", end);
                    if (failed_) return;
                    break;
                }
                // Too large to keep: its head without args is kept, the rest read past.
                bigStart_ = winBase_ + itemStart_;
                bigHead_ = headWithoutArgs(std::string_view(w + itemStart_, pos_ - itemStart_));
                bigHeadLine_ = lineAt(bigStart_) +
                               countNewlines(bigHead_.data(), bigHead_.data() + bigHead_.size());
                itemStart_ = SIZE_MAX;
                state_ = State::SkipEvent;
                break;
            }
            return;
        }
        case State::SkipEvent: {
            const auto r = scanner_.scanNested(w, pos_, size_);
            if (r == JsonNestingScanner::Result::NeedMore) return;
            if (r == JsonNestingScanner::Result::Error) {
                bigHead_.clear();
                damaged(winBase_ + pos_, "broken JSON in an event (" + scanner_.error() + ")",
                        pos_ + 1);
                if (failed_) return;
                break;
            }
            state_ = State::EvNext;
            if (bigHead_.empty()) {
                note("skipped events larger than 64 MiB", bigStart_);
                break;
            }
            emitText(b, bigHead_, bigStart_, kEventArgsTooLarge);
            // The lines of the part read past, for the next events' line numbers.
            const uint64_t line = lineAt(winBase_ + pos_);
            gapNewlines_ = uint32_t(line > bigHeadLine_ ? line - bigHeadLine_ : 0);
            bigHead_.clear();
            if (b.data.size() >= batchBytes_) return;
            break;
        }
        case State::Resync:
            while (pos_ < size_) {
                const char c = w[pos_];
                if (c == '\n' || c == ',') {
                    sawBreak_ = true;
                } else if (c == '{' && sawBreak_) {
                    size_t q = pos_ + 1;
                    while (q < size_ && isWs(w[q])) ++q;
                    if (q == size_) {
                        itemStart_ = pos_; // keep the '{' while more input comes
                        needMore_ = true;
                        return;
                    }
                    if (w[q] == '"') {
                        itemStart_ = pos_;
                        scanner_.startNested();
                        state_ = State::InEvent;
                        break;
                    }
                    sawBreak_ = false;
                } else if (!isWs(c)) {
                    sawBreak_ = false;
                }
                ++pos_;
            }
            if (state_ == State::Resync) {
                itemStart_ = SIZE_MAX;
                return;
            }
            break;
        case State::Trailing:
            if (isWs(w[pos_])) {
                ++pos_;
                continue;
            }
            if (eventsEmitted_ == 0) { // nothing to keep: an error that says where
                failHere("the end of the file after the top-level value");
                return;
            }
            // Bytes after the trace (a second write appended, a crash's garbage): the trace is
            // kept, what follows it counted and ignored.
            afterEnd_.offset = winBase_ + pos_;
            afterEnd_.line = lineAt(afterEnd_.offset);
            afterEnd_.found = describeByte(w[pos_]);
            state_ = State::AfterEnd;
            break;
        case State::AfterEnd:
            afterEnd_.bytes += size_ - pos_;
            pos_ = size_;
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
        if ((pos_ == size_ || needMore_) && !refill()) {
            // The input ended inside an event: a writer that died mid-event may have gone on
            // writing whole events after it; those are kept.
            if (state_ == State::InEvent && salvage(b, size_)) {
                note("broken JSON in an event (never closed)", winBase_ + itemStart_);
                state_ = State::Trailing;
            }
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
