#pragma once
// In-kernel timer sections (kernels/include/strata/sections.cuh): for one kernel launch, each
// block's (or warp's) closed sections with their clock64() cycles, %globaltimer ns and SM; or an
// imported timer array (times[section][iteration] of clock deltas), whose samples have a
// duration and an iteration but no time and no SM. Plain std: the collector's writer includes it.
#include "strata/section_record.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace strata {

// The device record (strata/section_record.h: the one definition of its layout, shared with the
// device header), as it lies in device memory, in the helper's .sections file and in a .strata
// Sections record: 48 bytes, little-endian, no padding.
inline constexpr size_t kSectionRecordBytes = sizeof(SectionRecord);

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

// One device record from its bytes and back (kSectionRecordBytes; records in a file need not be
// aligned).
SectionRecord readSectionRecord(const uint8_t* record);
void writeSectionRecord(uint8_t* record, const SectionRecord& r);

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
