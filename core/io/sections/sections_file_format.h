#pragma once
// The .sections file the host helper writes (kernels/include/strata/sections_host.h, which
// declares the same layout for the device side; docs/sections.md). One block per launch:
//   8 bytes  "STRSECT1"
//   u32      version (1)
//   i64      correlation id of the launch (-1: unknown)
//   i32      device
//   u32      scope: 0 one recorder per block, 1 per warp
//   f64      SM clock rate, Hz (0: unknown)
//   u64      records attempted on the device (the buffer's counter)
//   u64      records that follow (<= capacity)
//   u32 n, n bytes        the kernel's name
//   u32 k, then k times (u32 n, n bytes)   the section names, by id
//   records × 48 bytes    the device records (model/kernel_sections.h)
// All little-endian, no padding.
#include <cstdint>

namespace strata::sections_file {

inline constexpr char kMagic[8] = {'S', 'T', 'R', 'S', 'E', 'C', 'T', '1'};
inline constexpr uint32_t kVersion = 1;
inline constexpr const char* kExtension = ".sections";

struct Header {
    uint32_t version = 0;
    int64_t correlation = -1;
    int32_t device = -1;
    uint32_t scope = 0;
    double clockHz = 0;
    uint64_t attempted = 0;
    uint64_t records = 0;
};

} // namespace strata::sections_file
