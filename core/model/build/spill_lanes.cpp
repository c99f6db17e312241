#include "model/build/spill_lanes.h"

#include <limits>

namespace strata {

namespace {
constexpr TimeNs kFree = std::numeric_limits<TimeNs>::max(); // a lane with nothing open
constexpr TimeNs kFull = std::numeric_limits<TimeNs>::min(); // at the depth limit, or no lane
} // namespace

TimeNs SpillLanes::capacity(uint32_t lane) const {
    const std::vector<Open>& open = stacks_[lane];
    if (open.empty()) return kFree;
    if (open.size() >= maxDepth_) return kFull;
    return open.back().end;
}

void SpillLanes::update(uint32_t lane) {
    size_t node = leaves_ + lane;
    tree_[node] = capacity(lane);
    for (node /= 2; node >= 1; node /= 2)
        tree_[node] = std::max(tree_[2 * node], tree_[2 * node + 1]);
}

uint32_t SpillLanes::firstFitting(TimeNs end) const {
    if (leaves_ == 0 || tree_[1] < end) return uint32_t(stacks_.size());
    size_t node = 1;
    while (node < leaves_) node = tree_[2 * node] >= end ? 2 * node : 2 * node + 1;
    return uint32_t(node - leaves_);
}

uint32_t SpillLanes::addLane() {
    const auto lane = uint32_t(stacks_.size());
    stacks_.emplace_back();
    sizes_.push_back(0);
    if (stacks_.size() > leaves_) {
        leaves_ = leaves_ ? 2 * leaves_ : 1;
        tree_.assign(2 * leaves_, kFull);
        for (uint32_t l = 0; l < stacks_.size(); ++l) tree_[leaves_ + l] = capacity(l);
        for (size_t node = leaves_ - 1; node >= 1; --node)
            tree_[node] = std::max(tree_[2 * node], tree_[2 * node + 1]);
    } else {
        update(lane);
    }
    return lane;
}

void SpillLanes::closeUntil(TimeNs now) {
    // A lane's innermost open slice ends first (children end within their parents), so each
    // expiry that comes due closes that lane's innermost slices up to `now`.
    while (!expiries_.empty() && expiries_.top().end <= now) {
        const uint32_t lane = expiries_.top().lane;
        expiries_.pop();
        std::vector<Open>& open = stacks_[lane];
        bool closed = false;
        while (!open.empty() && open.back().end <= now) {
            open.pop_back();
            closed = true;
        }
        if (closed) update(lane);
    }
}

SpillLanes::Place SpillLanes::place(TimeNs start, TimeNs end) {
    closeUntil(start);
    uint32_t lane = firstFitting(end);
    if (lane == stacks_.size()) lane = addLane();
    return push(lane, end);
}

SpillLanes::Place SpillLanes::placeIn(uint32_t lane, TimeNs start, TimeNs end) {
    closeUntil(start);
    if (lane < stacks_.size() && capacity(lane) >= end) return push(lane, end);
    return place(start, end);
}

SpillLanes::Place SpillLanes::push(uint32_t lane, TimeNs end) {
    std::vector<Open>& open = stacks_[lane];
    const Place p{lane, open.empty() ? UINT32_MAX : open.back().index, uint16_t(open.size())};
    open.push_back({sizes_[lane]++, end});
    expiries_.push({end, lane});
    update(lane);
    return p;
}

} // namespace strata
