#pragma once
// The chunk layer of a .strata file (io/strata/strata_format.h), shared by the sequential and the
// parallel loads: where the chunks are, whether one is intact, and the walk over its records.
// Internal to the reader.
#include "io/strata/strata_format.h"
#include "io/strata/strata_records.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace strata::strata_reader {

// A chunk whose header and payload lie within the file (not yet checked: CRC, sequence).
struct ChunkSpan {
    size_t offset;    // of its header
    uint32_t payload; // bytes after the header
    uint32_t records;
    const uint8_t* body(const uint8_t* file) const {
        return file + offset + format::kChunkHeaderBytes;
    }
    size_t end() const { return offset + format::kChunkHeaderBytes + payload; }
};

struct ChunkScan {
    std::vector<ChunkSpan> chunks;
    // Why the scan stopped before the file's end (truncated or damaged header), or empty; the
    // reader words it with the chunk index (chunks.size()) and offset (stoppedAt).
    std::string stopReason;
    size_t stoppedAt = 0;
    // The stop is a chunk cut short at the end (its header or payload not all there): in a file
    // still being written, the chunk being written; anything else is damage.
    bool truncated = false;
};

// Follows the chunk headers from `from` (the end of the file header unless given): the cheap part
// of the checks (magic, length, truncation), no payload read.
ChunkScan scanChunks(const uint8_t* data, size_t size, size_t from = format::kFileHeaderBytes);

// The CRC32C (unless `crc` is false) and the sequence number of chunk `index`: empty, or what is
// wrong.
std::string checkChunk(const uint8_t* data, const ChunkSpan& chunk, uint32_t index,
                       bool crc = true);

// Calls f(type, body, bodyBytes) for each record of a chunk, in order; f returns an empty
// string or what is wrong with the record. Returns empty, or the problem with the record index
// and its byte offset in the file.
template <typename F> std::string forEachRecord(const uint8_t* data, const ChunkSpan& chunk, F&& f);

// A record a live picture leaves out of the chunks before its rows (LoadOptions::growingRowsFrom):
// one that adds rows (an NVTX begin or end excepted: a range open across the cut keeps its start),
// sampled stacks, sections and kernel metrics (their kernels are left out too).
inline bool rowsOnlyRecord(format::RecordType type) {
    using RT = format::RecordType;
    if (type == RT::CpuBegin || type == RT::CpuEnd) return false;
    return type == RT::StackSampleBlock || type == RT::Sections || type == RT::KernelMetrics ||
           format::recordUse(type) == format::RecordUse::TrackRows;
}

// printf into a std::string (messages of the reader).
std::string sprint(const char* f, ...) __attribute__((format(printf, 1, 2)));

// ---

template <typename F>
std::string forEachRecord(const uint8_t* data, const ChunkSpan& chunk, F&& f) {
    const uint8_t* body = chunk.body(data);
    const size_t payload = chunk.payload;
    size_t r = 0;
    uint32_t n = 0;
    std::string bad;
    for (; n < chunk.records; ++n) {
        if (payload - r < format::kRecordHeaderBytes) {
            bad = "record header runs past the chunk end";
            break;
        }
        uint32_t bodyBytes;
        __builtin_memcpy(&bodyBytes, body + r + 1, 4);
        if (payload - r - format::kRecordHeaderBytes < bodyBytes) {
            bad = sprint("record body of %u bytes runs past the chunk end", unsigned(bodyBytes));
            break;
        }
        bad = f(format::RecordType(body[r]), body + r + format::kRecordHeaderBytes, bodyBytes);
        if (!bad.empty()) break;
        r += format::kRecordHeaderBytes + bodyBytes;
    }
    if (bad.empty() && r != payload)
        bad = sprint("%zu bytes after the %u records the header announced", payload - r,
                     unsigned(chunk.records));
    if (bad.empty()) return bad;
    return sprint("record %u at byte %zu: ", unsigned(n),
                  chunk.offset + format::kChunkHeaderBytes + r) +
           bad;
}

} // namespace strata::strata_reader
