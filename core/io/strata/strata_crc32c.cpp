#include "io/strata/strata_crc32c.h"

#include <array>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace strata {
namespace {

constexpr uint32_t kPoly = 0x82F63B78u;

constexpr std::array<uint32_t, 256> makeTable() {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
        uint32_t c = i;
        for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ kPoly : c >> 1;
        t[i] = c;
    }
    return t;
}

constexpr std::array<uint32_t, 256> kTable = makeTable();

uint32_t crcSoftware(uint32_t crc, const uint8_t* p, size_t n) {
    for (size_t i = 0; i < n; ++i) crc = kTable[(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
    return crc;
}

// a * b modulo the polynomial, both in the reflected bit order of the CRC register (bit 31 is
// x^0): what a register becomes when zeros are appended is a product with a power of x.
uint32_t multiplyModP(uint32_t a, uint32_t b) {
    uint32_t product = 0;
    for (uint32_t m = 1u << 31; m != 0; m >>= 1) {
        if (a & m) product ^= b;
        b = (b & 1) ? (b >> 1) ^ kPoly : b >> 1;
    }
    return product;
}

// x^(8 * bytes) modulo the polynomial: the factor that moves a register past `bytes` zeros.
uint32_t shiftFactor(uint64_t bytes) {
    uint32_t result = 1u << 31;      // x^0
    uint32_t square = 1u << 31 >> 8; // x^8: one byte
    for (; bytes != 0; bytes >>= 1) {
        if (bytes & 1) result = multiplyModP(result, square);
        square = multiplyModP(square, square);
    }
    return result;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) uint64_t crcLane(uint64_t c, const uint8_t* p, size_t words) {
    for (size_t i = 0; i < words; ++i) {
        uint64_t v;
        std::memcpy(&v, p + 8 * i, 8);
        c = _mm_crc32_u64(c, v);
    }
    return c;
}

// Three independent streams (the crc32 instruction has a latency of three cycles and a
// throughput of one), joined by shifting the first two past the bytes after them.
__attribute__((target("sse4.2"))) uint32_t crcHardware(uint32_t crc, const uint8_t* p, size_t n) {
    constexpr size_t kMinThreeLanes = 3 * 1024;
    if (n >= kMinThreeLanes) {
        const size_t lane = n / 24 * 8; // bytes per stream, whole 8-byte words
        uint64_t a = crc, b = 0, c = 0;
        for (size_t i = 0; i < lane / 8; ++i) {
            uint64_t va, vb, vc;
            std::memcpy(&va, p + 8 * i, 8);
            std::memcpy(&vb, p + lane + 8 * i, 8);
            std::memcpy(&vc, p + 2 * lane + 8 * i, 8);
            a = _mm_crc32_u64(a, va);
            b = _mm_crc32_u64(b, vb);
            c = _mm_crc32_u64(c, vc);
        }
        const uint32_t k = shiftFactor(lane);
        crc = multiplyModP(multiplyModP(uint32_t(a), k) ^ uint32_t(b), k) ^ uint32_t(c);
        p += 3 * lane;
        n -= 3 * lane;
    }
    uint32_t c32 = uint32_t(crcLane(crc, p, n / 8));
    p += n / 8 * 8;
    for (n %= 8; n > 0; --n) c32 = _mm_crc32_u8(c32, *p++);
    return c32;
}

bool haveSse42() {
    static const bool have = __builtin_cpu_supports("sse4.2");
    return have;
}
#endif

} // namespace

uint32_t crc32c(uint32_t crc, const void* data, size_t size) {
    const auto* p = static_cast<const uint8_t*>(data);
    crc = ~crc;
#if defined(__x86_64__)
    if (haveSse42()) return ~crcHardware(crc, p, size);
#endif
    return ~crcSoftware(crc, p, size);
}

} // namespace strata
