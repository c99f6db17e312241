#pragma once
// Build-time step: the extra lanes of one track. Slices come in nesting order (start ascending);
// one that does not nest on the base lane goes to the first extra lane where it nests (the lane
// is free, or its innermost open slice encloses it), else to a new lane. Lanes are reused as soon
// as their open slices end. O(log lanes) per slice: a heap of the open slices' ends closes
// them as time passes, and a max-tree over the lanes' innermost ends finds the first that fits.
#include "model/time.h"

#include <cstdint>
#include <queue>
#include <vector>

namespace strata {

class SpillLanes {
public:
    explicit SpillLanes(size_t maxDepth) : maxDepth_(maxDepth) {}

    struct Place {
        uint32_t lane;   // 0 = the first extra lane
        uint32_t parent; // index of the enclosing slice in that lane, UINT32_MAX at depth 0
        uint16_t depth;
    };
    // Places a slice [start, end); it is the laneSize(lane)-th slice of its lane (before the
    // call). Starts must not decrease between calls.
    Place place(TimeNs start, TimeNs end);
    // The same in `lane` when the slice nests there (what a frame moved to that lane called
    // follows it), else as place().
    Place placeIn(uint32_t lane, TimeNs start, TimeNs end);
    size_t laneCount() const { return stacks_.size(); }
    // Slices placed in a lane so far.
    uint32_t laneSize(uint32_t lane) const { return sizes_[lane]; }

private:
    struct Open {
        uint32_t index;
        TimeNs end;
    };
    struct Expiry {
        TimeNs end;
        uint32_t lane;
        bool operator>(const Expiry& o) const { return end > o.end; }
    };
    void closeUntil(TimeNs now);
    TimeNs capacity(uint32_t lane) const; // the latest end a slice may have to nest in `lane`
    void update(uint32_t lane);
    uint32_t firstFitting(TimeNs end) const; // laneCount() if none
    uint32_t addLane();
    Place push(uint32_t lane, TimeNs end);

    size_t maxDepth_;
    std::vector<std::vector<Open>> stacks_; // per lane, outermost first
    std::vector<uint32_t> sizes_;
    std::priority_queue<Expiry, std::vector<Expiry>, std::greater<>> expiries_;
    size_t leaves_ = 0;        // tree leaves (a power of two >= laneCount())
    std::vector<TimeNs> tree_; // max capacity per subtree, 2 * leaves_ nodes, root at 1
};

} // namespace strata
