#pragma once
// The .strata on-disk layout (version 1.2). Plain std only: the collector includes it.
// Full description with examples: docs/strata-format.md.
//
//   file    := header chunk*                      (little-endian everywhere)
//   header  := "STRATA" u8 major u8 minor          8 bytes; sniffed by loadTrace
//   chunk   := chunkHeader payload
//   chunkHeader (20 bytes):
//       u32 magic "CHNK" | u32 sequence (0, 1, 2, ...) | u32 payloadBytes | u32 recordCount
//       | u32 crc32c(first 16 header bytes, then payload)
//   payload := record*                            exactly recordCount records, payloadBytes bytes
//   record  := u8 type | u32 bodyBytes | body     (bodyBytes lets a reader skip unknown types)
//
// A chunk is written whole (one fwrite + fflush) by StrataTraceWriter::flush(); a crash loses at
// most the chunk being filled. The last chunk of a cleanly closed file holds one EndOfFile record.
// Strings are interned: a String record (id, bytes) precedes the first record that uses the id,
// in the same or an earlier chunk. Id 0 is always "" and is never emitted.
// Fixed-width fields everywhere (no varints): the reader copies them with memcpy, no branches.
#include <cstddef>
#include <cstdint>

namespace strata::format {

inline constexpr char kMagic[6] = {'S', 'T', 'R', 'A', 'T', 'A'};
inline constexpr uint8_t kVersionMajor = 1; // a reader refuses other majors
inline constexpr uint8_t kVersionMinor = 2; // newer minors only add record types (skipped, counted)
inline constexpr size_t kFileHeaderBytes = 8;

inline constexpr uint32_t kChunkMagic = 0x4B4E4843; // "CHNK" read as little-endian u32
inline constexpr size_t kChunkHeaderBytes = 20;
inline constexpr size_t kRecordHeaderBytes = 5;         // u8 type + u32 body bytes
inline constexpr uint32_t kMaxChunkPayload = 64u << 20; // a longer length means a damaged header
inline constexpr uint32_t kMaxStringBytes = 1u << 20;   // longer strings are cut by the writer

// Record types and their bodies (field order as listed; i = signed, u = unsigned, f64 = double).
enum class RecordType : uint8_t {
    Invalid = 0,
    String = 1,     // u32 id | bytes (bodyBytes - 4)
    Metadata = 2,   // u32 keyString | bytes of value (bodyBytes - 4)
    Process = 3,    // i64 pid | u32 name
    Thread = 4,     // i64 pid | i64 tid | u32 name
    Device = 5,     // i32 id | u32 name | i32 smCount | i64 totalMemoryBytes | i32 computeMajor
                    // | i32 computeMinor | i64 clockRateKHz | i64 memoryClockRateKHz
    CpuSlice = 6,   // i64 pid | i64 tid | i64 start | i64 end | u32 name | u8 kind
                    // | i64 correlation | i32 returnCode
    CpuBegin = 7,   // i64 pid | i64 tid | i64 ts | u32 name | u8 kind
    CpuEnd = 8,     // i64 pid | i64 tid | i64 ts
    AsyncSlice = 9, // i64 pid | u64 id | i64 start | i64 end | u32 name
    Instant = 10,   // i64 pid | i64 tid | i64 ts | u32 name
    GpuOp = 11,     // i64 start | i64 end | u32 name | u8 kind | i64 correlation | GpuActivity
    Counter = 12,   // i64 pid | u32 name | i64 ts | f64 value
    Warning = 13,   // bytes
    EndOfFile = 14, // empty body; the writer closed the file cleanly
    // 1.1: consecutive slices of one track as columns (what StrataTraceWriter writes). Rows
    // are CpuSlice / GpuOp bodies without the fields the block header holds; a column holds
    // one field of every row, the columns follow each other in the order listed.
    CpuSliceBlock = 15, // i64 pid | i64 tid | u32 rows | i64 start[] | i64 end[] | u32 name[]
                        // | u8 kind[] | i64 correlation[] | i32 returnCode[]
    GpuOpBlock = 16,    // u32 rows | i64 start[] | i64 end[] | u32 name[] | u8 kind[]
                        // | i64 correlation[] | GpuActivity activity[]  (one stream's ops)
    // 1.2: the colour the program gave the slices of a name (NVTX event attributes).
    NameColor = 17, // u32 name | u32 argb
};

// GpuActivity as stored (83 bytes): i32 device | i64 stream | i64 context | i32 grid[3]
// | i32 block[3] | i32 registersPerThread | i32 staticSharedBytes | i32 dynamicSharedBytes
// | i64 bytes | u8 copyKind | u8 srcMemory | u8 dstMemory | i64 graphId | i64 graphNodeId
inline constexpr uint32_t kGpuActivityBytes = 4 + 8 + 8 + 12 + 12 + 4 + 4 + 4 + 8 + 3 + 8 + 8;

// Body sizes of the fixed-size records (a reader rejects a record of a known type whose
// bodyBytes differs: that is a damaged chunk).
inline constexpr uint32_t kProcessBody = 8 + 4;
inline constexpr uint32_t kThreadBody = 8 + 8 + 4;
inline constexpr uint32_t kDeviceBody = 4 + 4 + 4 + 8 + 4 + 4 + 8 + 8;
inline constexpr uint32_t kCpuSliceBody = 8 + 8 + 8 + 8 + 4 + 1 + 8 + 4;
inline constexpr uint32_t kCpuBeginBody = 8 + 8 + 8 + 4 + 1;
inline constexpr uint32_t kCpuEndBody = 8 + 8 + 8;
inline constexpr uint32_t kAsyncSliceBody = 8 + 8 + 8 + 8 + 4;
inline constexpr uint32_t kNameColorBody = 4 + 4;
inline constexpr uint32_t kInstantBody = 8 + 8 + 8 + 4;
inline constexpr uint32_t kGpuOpBody = 8 + 8 + 4 + 1 + 8 + kGpuActivityBytes;
inline constexpr uint32_t kCounterBody = 8 + 4 + 8 + 8;

// Blocks: a header, then `rows` rows of these many bytes (all columns together).
inline constexpr uint32_t kCpuSliceBlockHead = 8 + 8 + 4;
inline constexpr uint32_t kCpuSliceRow = 8 + 8 + 4 + 1 + 8 + 4;
inline constexpr uint32_t kGpuOpBlockHead = 4;
inline constexpr uint32_t kGpuOpRow = 8 + 8 + 4 + 1 + 8 + kGpuActivityBytes;

// The rows of a block record whose body has `bodyBytes` bytes, or UINT32_MAX when the body
// size does not match the rows its header announces (a damaged chunk).
inline uint32_t blockRows(const uint8_t* body, uint32_t bodyBytes, uint32_t head, uint32_t row) {
    if (bodyBytes < head) return UINT32_MAX;
    uint32_t rows;
    __builtin_memcpy(&rows, body + head - 4, 4);
    return uint64_t(head) + uint64_t(rows) * row == bodyBytes ? rows : UINT32_MAX;
}

// The body size of a fixed-size record type, or UINT32_MAX (variable size, or unknown).
constexpr uint32_t fixedBodyBytes(RecordType t) {
    switch (t) {
    case RecordType::Process:
        return kProcessBody;
    case RecordType::Thread:
        return kThreadBody;
    case RecordType::Device:
        return kDeviceBody;
    case RecordType::CpuSlice:
        return kCpuSliceBody;
    case RecordType::CpuBegin:
        return kCpuBeginBody;
    case RecordType::CpuEnd:
        return kCpuEndBody;
    case RecordType::AsyncSlice:
        return kAsyncSliceBody;
    case RecordType::Instant:
        return kInstantBody;
    case RecordType::GpuOp:
        return kGpuOpBody;
    case RecordType::Counter:
        return kCounterBody;
    case RecordType::NameColor:
        return kNameColorBody;
    case RecordType::EndOfFile:
        return 0;
    default:
        return UINT32_MAX;
    }
}

// Highest SliceKind value this version knows (SliceKind::Instant); larger values are damage.
inline constexpr uint8_t kMaxSliceKind = 12;

} // namespace strata::format
