#pragma once
// The .strata load on two threads, for large files (used by strata_trace_reader.cpp).
//
// The chunks are split in two halves by bytes. Each thread first counts what its half holds,
// track by track, from the records' headers (slice blocks are not read row by row); the tracks'
// columns are then sized once, and each thread checks each chunk's CRC and sequence number and
// writes its records straight into them at known places, checking every row's kind and string
// reference as it goes: no intermediate copy, no growing arrays, and file order kept within
// every track. Pass 1 leaves the file pages it maps to pass 2, which hands them back as it goes
// while backing the columns just ahead of its writes: the resident set stays near the file's
// size. The rare records (strings, names, devices, metadata, warnings: RecordUse::FileOrder in
// io/strata/strata_records.h, and any type only the sink's RecordTable holds) are replayed in
// file order through the sequential RecordSink, so they mean exactly what they mean there.
// strata_half_loader.h holds the two passes of one half, this file's .cpp what runs between and
// after them.
//
// Anything the sequential load would report (a damaged chunk or record, a string used before
// its String record) — or would read differently (a string id defined twice) — makes this give
// up (while counting, or while writing): the caller drops the partial load and loads with the
// sequential reader, which keeps every good chunk and words the error. Internal to the reader.
#include "io/strata/read/strata_record_sink.h"
#include "io/strata/strata_chunks.h"

#include <functional>
#include <vector>

namespace strata::strata_reader {

enum class ParallelLoad { Loaded, NeedsSequential, Cancelled };

struct ParallelLoadHooks {
    std::function<bool(double)> progress;             // fraction done; false cancels
    std::function<void(size_t, size_t)> releaseBytes; // file bytes [from, to) read for now
    // The chunks before this one contribute their definitions, not their rows (rowsOnlyRecord:
    // a live picture of a long run, LoadOptions::growingRowsFrom); their CRCs are not checked.
    size_t rowsFromChunk = 0;
};

// Loads every chunk of `chunks` into `builder` through `sink` (both fresh). On NeedsSequential
// or Cancelled the builder holds a partial load and must be dropped.
ParallelLoad loadChunksInParallel(const uint8_t* data, const std::vector<ChunkSpan>& chunks,
                                  TraceBuilder& builder, RecordSink& sink,
                                  const ParallelLoadHooks& hooks);

} // namespace strata::strata_reader
