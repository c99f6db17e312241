#pragma once
// The .strata on-disk layout (version 1.7: kVersionMajor.kVersionMinor below): the file header,
// chunks and record headers. The records' bodies are declared in io/strata/strata_records.h. Plain
// std only: the collector includes it. Full description with examples: docs/strata-format.md.
//
//   file    := header chunk*                      (little-endian everywhere)
//   header  := "STRATA" u8 major u8 minor          8 bytes; recognised by io/formats/strata_trace
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
// Every record of a known type has the body size its type's shape gives (strata_records.h).
#include <cstddef>
#include <cstdint>

namespace strata::format {

inline constexpr char kMagic[6] = {'S', 'T', 'R', 'A', 'T', 'A'};
inline constexpr uint8_t kVersionMajor = 1; // a reader refuses other majors
inline constexpr uint8_t kVersionMinor = 7; // newer minors only add record types (skipped, counted)
inline constexpr size_t kFileHeaderBytes = 8;

inline constexpr uint32_t kChunkMagic = 0x4B4E4843; // "CHNK" read as little-endian u32
inline constexpr size_t kChunkHeaderBytes = 20;
inline constexpr size_t kRecordHeaderBytes = 5;         // u8 type + u32 body bytes
inline constexpr uint32_t kMaxChunkPayload = 64u << 20; // a longer length means a damaged header
inline constexpr uint32_t kMaxStringBytes = 1u << 20;   // longer strings are cut by the writer

// Highest SliceKind value this version knows (SliceKind::Instant); larger values are damage.
inline constexpr uint8_t kMaxSliceKind = 12;

} // namespace strata::format
