#pragma once
// Splits a Chrome trace JSON stream into complete event objects without building a DOM.
//
// A small state machine walks the top level (object form {"traceEvents": [...], ...} or bare
// array form [...]) and, inside traceEvents, tracks strings, escapes and bracket depth to find
// where each event object ends. Complete events are copied into batches laid out as a JSON array
// "[ev,ev,...]" (with simdjson padding) for the parse thread. Other top-level values are kept as
// raw JSON text. Only the current window of input is held in memory.
#include "io/json/json_input.h"
#include "io/json/json_nesting_scanner.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace strata {

constexpr uint32_t kMaxBatchSlots = 4; // batches in flight between the threads

// Limits (bad input must not cost unbounded memory or time).
constexpr size_t kJsonMaxEventBytes = size_t(64) << 20; // one event object kept whole
constexpr uint64_t kMaxBrokenInARow = 1000; // broken places between good events, then it fails
constexpr size_t kJsonMaxTopLevelValue = size_t(16) << 20;    // a top-level value the reader uses
constexpr size_t kJsonMaxTopLevelMetadata = size_t(64) << 10; // any other top-level value

// How much of a top-level value (other than traceEvents) is kept: the ones the reader uses
// (deviceProperties, distributedInfo) up to kJsonMaxTopLevelValue, any other as metadata up to
// kJsonMaxTopLevelMetadata. Larger ones (catapult's systemTraceEvents, stackFrames, samples)
// are read past at scanning speed, not kept.
size_t topLevelKeepLimit(std::string_view key);

// What the splitter did to an event it kept: its args go (the reader counts them).
enum EventFlags : uint8_t {
    kEventArgsTooDeep = 1,  // args nested deeper than kJsonMaxDepth
    kEventArgsTooLarge = 2, // the event was larger than kJsonMaxEventBytes; its head kept
};

struct EventBatch {
    struct Pos {
        uint32_t inBatch;  // offset of the event's '{' in data
        uint64_t offset;   // byte offset of the event in the (decompressed) stream
        uint8_t flags = 0; // EventFlags
    };
    // "[ev,ev,...]"; capacity includes simdjson padding. The separators carry as many newlines as
    // the file had between the events, so lines can be counted inside the batch.
    std::string data;
    std::vector<Pos> events;
    uint64_t firstLine = 1; // line of the first event's '{'
    uint32_t slot = 0;      // which parser slot prepares it (see ChromeEventParser::prepare)
    void clear() {
        data.clear();
        events.clear();
    }
    // 1-based line in the stream of data[pos] (pos at or after the first event).
    uint64_t lineOf(size_t pos) const;
};

struct TopLevelValue {
    std::string key; // raw key text (without quotes)
    std::string raw; // raw JSON text of the value; empty if dropped for size
    uint64_t offset = 0;
    uint64_t line = 0;
    uint64_t size = 0; // bytes of the value in the file
};

// Input the splitter read past, counted by why (with where the first was).
struct SplitNote {
    uint64_t count = 0;
    uint64_t offset = 0;
    uint64_t line = 0;
};

// Bytes after the end of the top-level value, read past (the trace before them kept).
struct AfterEnd {
    uint64_t offset = 0, line = 0; // where they start
    uint64_t bytes = 0;            // how many (0: none)
    std::string found;             // the first, described ("'x'")
};

struct SplitError {
    uint64_t offset = 0;
    uint64_t line = 0;
    std::string message;
};

class JsonEventSplitter {
public:
    JsonEventSplitter(JsonInput& in, size_t batchBytes, size_t chunkBytes);
    ~JsonEventSplitter();

    // Fills `batch` with the next complete events. False when nothing is left (end of input,
    // truncation or error: see the accessors).
    bool next(EventBatch& batch);

    enum class Form { Unknown, Object, Array };
    Form form() const { return form_; }
    bool sawTraceEvents() const { return sawTraceEvents_; }
    bool truncated() const { return truncated_; }
    uint64_t endOffset() const { return endOffset_; }
    uint64_t endLine() const { return endLine_; }
    const SplitError* error() const { return failed_ ? &error_ : nullptr; }
    const std::vector<TopLevelValue>& topLevel() const { return topLevel_; }
    uint64_t eventsEmitted() const { return eventsEmitted_; }
    // Broken JSON read past inside traceEvents, by why.
    const std::map<std::string, SplitNote>& notes() const { return notes_; }
    // Why the input ended early (a damaged gzip stream), when it did.
    const std::string& inputDamage() const { return inputDamage_; }
    // What came after the end of the top-level value (bytes 0: nothing).
    const AfterEnd& afterEnd() const { return afterEnd_; }
    // Frees the read window once splitting is over (the accessors above stay valid).
    void releaseBuffers() {
        win_.reset();
        cap_ = size_ = pos_ = 0;
    }

private:
    enum class State {
        Start,
        ObjKeyOrEnd,
        ObjKey,
        InKey,
        ObjColon,
        ObjValue,
        InValueNested,
        InValueString,
        InValueScalar,
        ObjCommaOrEnd,
        EvFirst,
        EvNext,
        EvAfterComma,
        InEvent,
        SkipEvent, // an event too large to keep, read past
        Resync,    // after broken JSON, looking for where the next event starts
        Trailing,
        AfterEnd, // bytes after the top-level value, read past
        Done,
    };

    bool refill();
    void onEof();
    void step(EventBatch& b);
    void fail(uint64_t absOffset, std::string message);
    void failHere(const std::string& expected);
    uint64_t lineAt(uint64_t absOffset);
    void emitEvent(EventBatch& b, size_t start, size_t end, uint8_t flags = 0);
    void emitText(EventBatch& b, std::string_view text, uint64_t absOffset, uint8_t flags);
    void note(const std::string& why, uint64_t absOffset);
    // Emits the whole events inside the unclosed event at itemStart_ (up to window index end);
    // returns the window index after the last, 0 if none.
    size_t salvage(EventBatch& b, size_t end);
    // Broken JSON at absOffset: counted, and scanning resumes at window index resumeAt.
    void damaged(uint64_t absOffset, const std::string& why, size_t resumeAt);
    static std::string headWithoutArgs(std::string_view event);
    void finishValue(size_t end);
    void endOfEvents();

    JsonInput& in_;
    size_t batchBytes_;
    size_t chunkBytes_;
    std::unique_ptr<char[]> win_; // cap_ + kWindowSlack bytes
    size_t cap_ = 0;
    size_t size_ = 0;
    size_t pos_ = 0;
    uint64_t winBase_ = 0;        // stream offset of win_[0]
    size_t itemStart_ = SIZE_MAX; // window index of the item being read (kept on refill)
    bool eof_ = false;

    uint64_t lineCk_ = 0; // stream offset up to which newlines were counted
    uint64_t lineAtCk_ = 1;

    State state_ = State::Start;
    Form form_ = Form::Unknown;
    bool sawTraceEvents_ = false;
    bool truncated_ = false;
    bool failed_ = false;
    SplitError error_;
    uint64_t endOffset_ = 0;
    uint64_t endLine_ = 0;
    uint64_t eventsEmitted_ = 0;

    JsonNestingScanner scanner_; // where the event or value being read ends
    std::map<std::string, SplitNote> notes_;
    std::string inputDamage_;
    AfterEnd afterEnd_;
    uint64_t badInARow_ = 0, firstBadInARow_ = 0;
    uint64_t resyncFrom_ = 0;
    bool sawBreak_ = false;
    bool needMore_ = false; // step() stopped before the window's end to wait for input
    uint64_t bigStart_ = 0, bigHeadLine_ = 0;
    std::string bigHead_;
    uint32_t gapNewlines_ = 0; // newlines between the previous event and the next

    std::string key_;
    bool valueDropped_ = false;
    uint64_t valueStartAbs_ = 0;
    uint64_t valueLine_ = 0;
    std::vector<TopLevelValue> topLevel_;
};

} // namespace strata
