#pragma once
// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum of .strata chunks.
// Uses the SSE4.2 crc32 instruction where the CPU has it, a table otherwise. Plain std only.
#include <cstddef>
#include <cstdint>

namespace strata {

// Continues `crc` (0 to start) over `size` bytes. crc32c(0, "123456789", 9) == 0xE3069283.
uint32_t crc32c(uint32_t crc, const void* data, size_t size);

} // namespace strata
