#pragma once
// Where the blocks of a launch ran, for the SM timelines (the Sections view's and the main
// timeline's lanes under a kernel): one lane per SM, and within an SM one slot per block resident
// at the same time (a block takes the lowest slot free at its start), in %globaltimer ns. And
// where a launch's records lie on the trace's clock: the device's globaltimer and the trace's
// CPU clock differ by an offset, so a launch's sections are placed from its kernel's start.
#include "analysis/sections/section_stats.h"
#include "model/section_placement.h" // kernelOfSections, sectionTimeShift
#include "model/trace.h"

#include <cstdint>
#include <vector>

namespace strata {

struct SmLaneLayout {
    struct Row {
        uint16_t sm = 0;
        uint16_t slot = 0;
    };
    std::vector<Row> rows;              // by SM, then slot
    std::vector<uint32_t> rowOfBlock;   // parallel to the blocks given
    std::vector<uint16_t> sms;          // the SMs seen, ascending
    std::vector<uint32_t> firstRowOfSm; // parallel to sms
    int64_t startNs = 0, endNs = 0;     // earliest start, latest end (raw device ns)
};

// `blocks` as blockSections() gives them (startNs/endNs of each block's first and last record).
SmLaneLayout layoutSmLanes(const std::vector<BlockSections>& blocks);

} // namespace strata
