#pragma once
// In-kernel timer sections (kernels/include/strata/sections.cuh): for one kernel launch, each
// block's (or warp's) closed sections with their clock64() cycles, %globaltimer ns and SM; or an
// imported timer array (times[section][iteration] of clock deltas), whose samples have a
// duration and an iteration but no time and no SM. Plain std: the collector's writer includes it.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace strata {

// The device record of sections.cuh, as it lies in device memory, in the helper's .sections file
// and in a .strata Sections record: 48 bytes, little-endian, no padding.
inline constexpr size_t kSectionRecordBytes = 48;

// One closed section of one block (or warp).
struct SectionSample {
    int64_t startNs = 0;    // %globaltimer at its start (raw device ns; 0 when not recorded)
    int64_t endNs = 0;      // %globaltimer at its end
    int64_t cycles = 0;     // its length in clock64() cycles (an imported array's value)
    uint32_t block = 0;     // linear block index
    uint32_t warp = 0;      // warp in the block (0: one recorder per block)
    uint32_t iteration = 0; // how many times this block (warp) entered the section before
    uint16_t section = 0;   // index into SectionSet::names
    uint16_t sm = 0;        // %smid
};

// The sections of one kernel launch, or of one imported timer array.
struct SectionSet {
    std::string kernel;       // the kernel's name; an import: the file's name
    int64_t correlation = -1; // the launch's correlation id (CUPTI); -1: not attached
    int32_t device = -1;      // -1: unknown
    double clockHz = 0;       // SM clock rate, cycles per second; 0: unknown (values in cycles)
    bool hasTimes = false;    // startNs/endNs and sm recorded (the device header); not an import
    bool perWarp = false;     // one recorder per warp rather than per block
    uint64_t lost = 0;        // records the device buffer had no room for (overflow)
    std::string source;       // where it came from: a file, "collector", ...
    std::vector<std::string> names; // by section id
    std::vector<SectionSample> samples;

    // The name of section `id` ("section 7" for an id past the names given).
    std::string nameOf(uint16_t id) const;
    // Cycles as ns through clockHz (cycles when it is unknown).
    double toNs(double cycles) const { return clockHz > 0 ? cycles * 1e9 / clockHz : cycles; }
    uint32_t blockCount() const; // distinct blocks
};

// The fields of one device record, and their one encoding (offsets as in sections.cuh: u64
// start_clock 0, end_clock 8, start_ns 16, end_ns 24, u32 block 32, warp 36, u16 section 40,
// sm 42, u32 launch 44).
struct SectionRecordFields {
    uint64_t startClock = 0, endClock = 0, startNs = 0, endNs = 0;
    uint32_t block = 0, warp = 0;
    uint16_t section = 0, sm = 0;
    uint32_t launch = 0;
};
SectionRecordFields readSectionRecord(const uint8_t* record);
void writeSectionRecord(uint8_t* record, const SectionRecordFields& f); // kSectionRecordBytes

// Appends the `count` 48-byte device records at `records` to `set` (cycles = end - start; a
// record whose end precedes its start is counted in *bad and skipped). The records' launch field
// is not kept (a set is one launch).
void appendSectionRecords(SectionSet& set, const uint8_t* records, size_t count, size_t* bad);

// Numbers each sample's iteration (its rank among the samples of the same block, warp and
// section, in start order; imports keep theirs), leaving the samples ordered by (block, warp,
// section, start).
void finishSectionSet(SectionSet& set);

// Section names joined by '\n' (as the .strata record stores them) and back.
std::string joinSectionNames(std::span<const std::string> names);
std::vector<std::string> splitSectionNames(std::string_view joined);

} // namespace strata
