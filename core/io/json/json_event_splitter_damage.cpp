// What JsonEventSplitter does with damage (io/json/json_event_splitter.h): the end of the input
// (a truncated file, a damaged gzip stream: what came before is kept), the events that can be
// salvaged from a broken item, the notes counted per kind of damage, and the resync after a
// broken event (refused after kMaxBrokenInARow in a row).
#include "io/json/json_event_repair.h"
#include "io/json/json_event_splitter.h"

namespace strata {

void JsonEventSplitter::onEof() {
    const uint64_t end = winBase_ + size_;
    endOffset_ = end;
    endLine_ = lineAt(end);
    if (in_.failed()) {
        // A damaged gzip stream: what came before the damage is kept, as after a truncation.
        if (eventsEmitted_ == 0) {
            fail(end, in_.error());
            return;
        }
        inputDamage_ = in_.error();
        truncated_ = true;
        state_ = State::Done;
        return;
    }
    switch (state_) {
    case State::Trailing:
    case State::AfterEnd:
    case State::Done:
        state_ = State::Done;
        return;
    case State::Start:
        fail(end, end == 0 ? "expected '{' or '[' (a Chrome trace), found an empty file"
                           : "expected '{' or '[' (a Chrome trace), found only whitespace");
        return;
    case State::Resync:
        note("broken JSON to the end of the file", resyncFrom_);
        state_ = State::Done;
        return;
    default:
        truncated_ = true;
        state_ = State::Done;
        return;
    }
}

size_t JsonEventSplitter::salvage(EventBatch& b, size_t end) {
    if (itemStart_ == SIZE_MAX) return 0;
    const std::string_view text(win_.get() + itemStart_, end - itemStart_);
    size_t last = 0;
    for (const auto& [from, to] : eventsInside(text)) {
        emitEvent(b, itemStart_ + from, itemStart_ + to);
        last = itemStart_ + to;
    }
    return last;
}

void JsonEventSplitter::note(const std::string& why, uint64_t absOffset) {
    SplitNote& n = notes_[why];
    if (n.count++ == 0) {
        n.offset = absOffset;
        n.line = lineAt(absOffset);
    }
}

void JsonEventSplitter::damaged(uint64_t absOffset, const std::string& why, size_t resumeAt) {
    if (badInARow_++ == 0) firstBadInARow_ = absOffset;
    if (badInARow_ > kMaxBrokenInARow) {
        fail(firstBadInARow_, "expected trace events, found broken JSON " +
                                  std::to_string(badInARow_) + " times in a row from here (" + why +
                                  ")");
        return;
    }
    note(why, absOffset);
    // Look for the next place an event starts: a '{' after a line break or a ',', then a key.
    state_ = State::Resync;
    resyncFrom_ = absOffset;
    sawBreak_ = false;
    itemStart_ = SIZE_MAX;
    pos_ = resumeAt;
}

} // namespace strata
