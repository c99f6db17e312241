#pragma once
// The string ids one half of the two-thread .strata load defines (strata_half_loader.h).
// Internal to the reader.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace strata::strata_reader {

// A bitmap from the first id the half defines on (a half that starts deep in a file starts at a
// high id). Writers number strings 1, 2, 3, ...: an id more than `maxGap` past the last one is
// damage (the sequential reader then says so), not a reason to allocate.
class StringIdSet {
public:
    explicit StringIdSet(size_t maxGap) : maxGap_(maxGap) {}

    bool has(uint32_t id) const {
        return id >= base_ && id - base_ < bits_.size() && bits_[id - base_];
    }
    // False when id was defined already or jumps far past the ones so far.
    bool add(uint32_t id) {
        if (bits_.empty()) base_ = id;
        if (id < base_ || id - base_ > bits_.size() + maxGap_) return false;
        if (id - base_ >= bits_.size()) bits_.resize(size_t(id - base_) + 1, 0);
        if (bits_[id - base_]) return false;
        bits_[id - base_] = 1;
        return true;
    }
    uint32_t first() const { return base_; }
    uint32_t end() const { return base_ + uint32_t(bits_.size()); }

private:
    size_t maxGap_;
    uint32_t base_ = 0;
    std::vector<uint8_t> bits_;
};

} // namespace strata::strata_reader
