#pragma once
// What a reader returns: the trace (with its warnings) or an error naming file, byte offset, line
// and what was expected.
#include "io/cache/file_stamp.h"
#include "model/trace.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace strata {

struct LoadPreview; // io/load_preview.h
struct TraceReader; // io/trace_reader.h

struct LoadError {
    static constexpr uint64_t kInMessage = UINT64_MAX; // the message says where itself
    std::string file;
    uint64_t byteOffset = 0; // offset in the (decompressed) stream, or kInMessage
    uint64_t line = 0;       // 1-based, 0 if unknown
    std::string message;     // what was expected / what went wrong
    std::string toString() const;
};

struct LoadResult {
    std::shared_ptr<const Trace> trace; // null on error
    std::optional<LoadError> error;
    // Which reader read it (io/trace_reader.h: TraceReader::name; "chrome-json-gzip" for a gzip'd
    // Chrome JSON).
    std::string format;
    // Read from this cached .strata form of the file (io/cache/trace_cache.h); empty: read from
    // the file itself.
    std::string cacheFile;
    // Set by TraceCache::load when the trace may be kept in the cache: the file's stamp, the
    // same before and after it was read (format set).
    std::optional<SnapshotSource> cacheSource;
    // LoadOptions::growingRowsFrom left the rows of one chunk or more out.
    bool rowsLeftOut = false;
    bool ok() const { return trace != nullptr; }
};

struct LoadOptions {
    // Called now and then with the fraction of input consumed (0..1); return false to cancel.
    std::function<bool(double)> progress;
    // Called now and then, from the loading thread, with what has been read so far (the GPU
    // lanes' busy time: io/load_preview.h), for a first picture while a large file loads. Only
    // readers that take long call it (the JSON reader); the preview is not kept after the call.
    std::function<void(const LoadPreview&)> preview;
    // The .strata reader reads large files on two threads, the JSON reader splits a file on a
    // thread of its own; true keeps either on the calling thread (a process per core under MPI,
    // machines shared with other work).
    bool oneThread = false;
    // The file is still being written (a live run's .strata): a chunk cut short at its end is
    // the one being written and the missing end-of-file record is expected; neither is a
    // warning. Damage before the end still is.
    bool growing = false;
    // For a live picture of a long run (with `growing`): the rows of the chunks that end at or
    // before this byte offset (slices, GPU ops, counter samples, instants, sampled stacks,
    // sections) are left out, so that a picture costs the same however long the run; their
    // definitions (strings, processes, threads, devices, metadata) and NVTX begin/end edges are
    // still read, without their CRC (an earlier picture, which held their rows, checked it).
    // 0: every row.
    uint64_t growingRowsFrom = 0;
    // With rows left out: the time the run's trace starts at (its earlier pictures' start), kept
    // in the picture's bounds so that times still read from the run's start.
    std::optional<TimeNs> growingStart;
    // For timer arrays and .sections files: the section names (a .npy has none; given names
    // override the file's) and the SM clock rate in Hz (> 0 overrides the file's).
    std::vector<std::string> sectionNames;
    double clockHz = 0;
    // The reader that loads the file when the caller has recognised it already (a set's files
    // are told apart by one read of their heads: io/digest_reader.h); null: loadTrace recognises
    // it by its first bytes.
    const TraceReader* reader = nullptr;
};

} // namespace strata
