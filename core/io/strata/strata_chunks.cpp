#include "io/strata/strata_chunks.h"
#include "io/strata/strata_crc32c.h"

#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstring>

namespace strata::strata_reader {

namespace fmt = format;

std::string sprint(const char* f, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, f);
    std::vsnprintf(buf, sizeof buf, f, ap);
    va_end(ap);
    return buf;
}

namespace {
uint32_t u32At(const uint8_t* p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}
} // namespace

ChunkScan scanChunks(const uint8_t* data, size_t size, size_t from) {
    ChunkScan scan;
    size_t pos = from;
    while (pos < size) {
        scan.stoppedAt = pos;
        if (size - pos < fmt::kChunkHeaderBytes) {
            scan.stopReason = sprint("truncated chunk header (%zu of %zu bytes)", size - pos,
                                     fmt::kChunkHeaderBytes);
            scan.truncated = true;
            return scan;
        }
        const uint32_t payload = u32At(data + pos + 8);
        if (u32At(data + pos) != fmt::kChunkMagic) {
            scan.stopReason = "expected the chunk magic \"CHNK\"";
            return scan;
        }
        if (payload > fmt::kMaxChunkPayload) {
            scan.stopReason = sprint("bad chunk length %" PRIu32 " (at most %" PRIu32 ")", payload,
                                     fmt::kMaxChunkPayload);
            return scan;
        }
        if (size - pos - fmt::kChunkHeaderBytes < payload) {
            scan.stopReason =
                sprint("truncated chunk: %" PRIu32 " payload bytes announced, %zu present", payload,
                       size - pos - fmt::kChunkHeaderBytes);
            scan.truncated = true;
            return scan;
        }
        scan.chunks.push_back(ChunkSpan{pos, payload, u32At(data + pos + 12)});
        pos = scan.chunks.back().end();
    }
    scan.stoppedAt = pos;
    return scan;
}

std::string checkChunk(const uint8_t* data, const ChunkSpan& chunk, uint32_t index, bool crc) {
    const uint8_t* header = data + chunk.offset;
    const uint32_t stored = u32At(header + 16);
    const uint32_t computed =
        crc ? crc32c(crc32c(0, header, 16), chunk.body(data), chunk.payload) : stored;
    if (computed != stored)
        return sprint("CRC mismatch (stored 0x%08" PRIx32 ", computed 0x%08" PRIx32 ")", stored,
                      computed);
    const uint32_t seq = u32At(header + 4);
    if (seq != index)
        return sprint("expected chunk sequence number %" PRIu32 ", found %" PRIu32, index, seq);
    return {};
}

} // namespace strata::strata_reader
