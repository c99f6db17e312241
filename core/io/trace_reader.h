#pragma once
// One format Strata reads, and the list of them. A format is one file in core/io/formats/ that
// defines its TraceReader: its name, the file names a dialog offers for it, how to recognise its
// files by their first bytes, and how to load one into a Trace; trace_readers.cpp lists them, one
// line each. loadTrace() (io/trace_loader.h) asks every reader how surely it reads a file and
// lets the surest load it; strata-cli, the GUI's Open, drag and drop and the command line all go
// through it. docs/adding-a-reader.md is the short guide.
#include "io/load_result.h"

#include <string>
#include <string_view>
#include <vector>

namespace strata {

// What a reader's files hold: a whole trace, or in-kernel timer sections alone (a timer array,
// the host helper's .sections file), which the GUI can also attach to a trace already open.
enum class ReaderKind { Trace, Sections };

// How surely a reader reads a file (TraceReader::recognise); the highest wins, ties go to the
// reader listed first.
enum Recognition : int {
    kNotMine = 0,
    kLastResort = 1, // nobody else's: loaded to say what was expected where
    kByName = 2,     // its name or a generic start ('{') says so
    kByContent = 3,  // its first bytes are this format's signature
};

struct TraceReader {
    std::string_view name;                    // stable: "chrome-json", "strata", "npy", ...
    std::string_view description;             // for people: "Chrome / Kineto trace JSON"
    std::vector<std::string_view> extensions; // what file dialogs offer: ".json", ".json.gz"
    ReaderKind kind = ReaderKind::Trace;
    // `head`: the file's first kSniffBytes (fewer when it is shorter); `path`: its name.
    Recognition (*recognise)(std::string_view head, std::string_view path) = nullptr;
    LoadResult (*load)(const std::string& path, const LoadOptions& options) = nullptr;
};
inline constexpr size_t kSniffBytes = 4096;

// Every format, in the order they are asked (trace_readers.cpp).
const std::vector<const TraceReader*>& traceReaders();
// The reader that loads `path` (its first bytes are read here), or null and *error when the file
// cannot be read.
const TraceReader* recogniseFile(const std::string& path, std::string* error = nullptr);
// The surest reader of a file that starts with `head` (never null: the last resort reader).
const TraceReader* recogniseBytes(std::string_view head, std::string_view path);
const TraceReader* readerNamed(std::string_view name); // null when none

// Helpers for the readers' recognise(): the extension in lower case (".json.gz" for a gzip'd
// JSON: the last two parts when the last is ".gz"), and the first byte after white space and a
// UTF-8 byte-order mark.
std::string lowerExtension(std::string_view path);
char firstNonSpace(std::string_view head);

} // namespace strata
