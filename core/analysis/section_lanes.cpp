#include "analysis/section_lanes.h"

#include <algorithm>
#include <numeric>

namespace strata {

SmLaneLayout layoutSmLanes(const std::vector<BlockSections>& blocks) {
    SmLaneLayout out;
    out.rowOfBlock.assign(blocks.size(), 0);
    if (blocks.empty()) return out;
    std::vector<uint32_t> order(blocks.size());
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        if (blocks[a].sm != blocks[b].sm) return blocks[a].sm < blocks[b].sm;
        if (blocks[a].startNs != blocks[b].startNs) return blocks[a].startNs < blocks[b].startNs;
        return blocks[a].block < blocks[b].block;
    });
    out.startNs = blocks[order[0]].startNs;
    out.endNs = blocks[order[0]].endNs;
    std::vector<uint16_t> slotOf(blocks.size(), 0);
    size_t i = 0;
    while (i < order.size()) {
        const uint16_t sm = blocks[order[i]].sm;
        std::vector<int64_t> slotEnds; // when each slot of this SM becomes free
        for (; i < order.size() && blocks[order[i]].sm == sm; ++i) {
            const BlockSections& b = blocks[order[i]];
            out.startNs = std::min(out.startNs, b.startNs);
            out.endNs = std::max(out.endNs, b.endNs);
            size_t slot = 0;
            while (slot < slotEnds.size() && slotEnds[slot] > b.startNs) ++slot;
            if (slot == slotEnds.size()) slotEnds.push_back(0);
            slotEnds[slot] = b.endNs;
            slotOf[order[i]] = uint16_t(std::min<size_t>(slot, UINT16_MAX));
        }
        out.sms.push_back(sm);
        out.firstRowOfSm.push_back(uint32_t(out.rows.size()));
        for (size_t s = 0; s < slotEnds.size(); ++s) out.rows.push_back({sm, uint16_t(s)});
    }
    for (size_t b = 0; b < blocks.size(); ++b) {
        const size_t k = size_t(std::lower_bound(out.sms.begin(), out.sms.end(), blocks[b].sm) -
                                out.sms.begin());
        out.rowOfBlock[b] = out.firstRowOfSm[k] + slotOf[b];
    }
    return out;
}

} // namespace strata
