#pragma once
// What a reader returns: the trace (with its warnings) or an error naming file, byte offset, line
// and what was expected.
#include "model/trace.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace strata {

struct LoadError {
    std::string file;
    uint64_t byteOffset = 0; // offset in the (decompressed) stream
    uint64_t line = 0;       // 1-based, 0 if unknown
    std::string message;     // what was expected / what went wrong
    std::string toString() const;
};

struct LoadResult {
    std::shared_ptr<const Trace> trace; // null on error
    std::optional<LoadError> error;
    bool ok() const { return trace != nullptr; }
};

struct LoadOptions {
    // Called now and then with the fraction of input consumed (0..1); return false to cancel.
    std::function<bool(double)> progress;
    // The .strata reader reads large files on two threads; true keeps it on the calling thread
    // (comparisons, machines shared with other work).
    bool oneThread = false;
};

} // namespace strata
