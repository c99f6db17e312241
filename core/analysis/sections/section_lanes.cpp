#include "analysis/sections/section_lanes.h"

#include <algorithm>
#include <numeric>
#include <queue>

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
    std::vector<uint32_t> slotOf(blocks.size(), 0);
    size_t i = 0;
    using Busy = std::pair<int64_t, uint32_t>; // (end, slot)
    while (i < order.size()) {
        const uint16_t sm = blocks[order[i]].sm;
        // The lowest free slot in O(log n): free slots in a min-heap, busy ones by end.
        std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> free;
        std::priority_queue<Busy, std::vector<Busy>, std::greater<>> busy;
        uint32_t slots = 0;
        for (; i < order.size() && blocks[order[i]].sm == sm; ++i) {
            const BlockSections& b = blocks[order[i]];
            out.startNs = std::min(out.startNs, b.startNs);
            out.endNs = std::max(out.endNs, b.endNs);
            while (!busy.empty() && busy.top().first <= b.startNs) {
                free.push(busy.top().second);
                busy.pop();
            }
            uint32_t slot = slots;
            if (!free.empty()) {
                slot = free.top();
                free.pop();
            } else {
                ++slots;
            }
            busy.push({b.endNs, slot});
            slotOf[order[i]] = slot;
        }
        out.sms.push_back(sm);
        out.firstRowOfSm.push_back(uint32_t(out.rows.size()));
        for (uint32_t s = 0; s < slots; ++s)
            out.rows.push_back({sm, uint16_t(std::min<uint32_t>(s, UINT16_MAX))});
    }
    for (size_t b = 0; b < blocks.size(); ++b) {
        const size_t k = size_t(std::lower_bound(out.sms.begin(), out.sms.end(), blocks[b].sm) -
                                out.sms.begin());
        out.rowOfBlock[b] = out.firstRowOfSm[k] + slotOf[b];
    }
    return out;
}

} // namespace strata
