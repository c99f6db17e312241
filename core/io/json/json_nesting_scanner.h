#pragma once
// Finds where a JSON value that opens with '{' or '[' (or a string) ends, without parsing it:
// tracks strings, escapes and bracket depth across buffer refills (the state survives between
// calls). 64 bytes at a time where it can (the technique of simdjson's stage 1). Used by the
// event splitter to cut events and top-level values out of the stream.
#include <cstddef>
#include <cstdint>
#include <string>

namespace strata {

constexpr int kJsonMaxDepth = 64;       // nesting an event keeps its args within
constexpr int kJsonMaxScanDepth = 1024; // nesting the scanner follows (and simdjson parses)

// Number of '\n' bytes in [begin, end) (SSE2, several GB/s).
uint64_t countNewlines(const char* begin, const char* end);

// "'x'" for a printable byte, "byte 0x1f" otherwise (for messages).
std::string describeByte(char c);

class JsonNestingScanner {
public:
    enum class Result { Done, NeedMore, Error };

    // Before a value that opens with a bracket (the bracket is the next byte scanned).
    void startNested() {
        depth_ = 0;
        deepest_ = 0;
        inString_ = false;
        escape_ = false;
    }
    // Just after the opening quote of a string.
    void startString() {
        inString_ = true;
        escape_ = false;
    }

    // Scans w[pos, size) for the bracket that closes the value: Done with pos after it,
    // NeedMore with pos == size, or Error with pos at the offending byte and error() set.
    Result scanNested(const char* w, size_t& pos, size_t size);
    // The same for the closing quote of a string (pos after it).
    Result scanString(const char* w, size_t& pos, size_t size);
    const std::string& error() const { return error_; }
    // The deepest nesting of the value scanned since startNested().
    int deepest() const { return deepest_; }

private:
    bool scanBlocks(const char* w, size_t& pos, size_t size); // 64-byte fast path
    bool open(const char* w, size_t at);                      // false: too deep
    bool close(const char* w, size_t at);                     // false: mismatched

    int depth_ = 0;
    int deepest_ = 0;
    uint64_t stack_[kJsonMaxScanDepth / 64] = {}; // bit i set: level i is an object
    bool inString_ = false;
    bool escape_ = false;
    bool failed_ = false;
    std::string error_;
};

} // namespace strata
