#pragma once
// An open-addressing hash set of indices into a caller's array of values, for storing equal
// values once: the caller hashes and compares the values, the set keeps for each index 32 bits
// of its hash, so a lookup reads a stored value only when it is almost surely the one.
// Bounded at 64 Ki slots (512 KiB, in the core's cache): past 32 Ki indices it starts over, so
// data of mostly distinct values costs a bounded lookup, not a table that outgrows the cache
// (a value is then stored again at most once per start-over).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace strata {

class ValueIndexSet {
public:
    static constexpr uint32_t kNone = UINT32_MAX;

    // The index recorded under `hash` for which equal(index) holds, or kNone.
    template <typename Equal> uint32_t find(uint64_t hash, Equal&& equal) const {
        const auto tag = static_cast<uint32_t>(hash >> 32);
        for (size_t i = hash & mask_;; i = (i + 1) & mask_) {
            const Slot& s = slots_[i];
            if (s.index == kNone) return kNone;
            if (s.tag == tag && equal(s.index)) return s.index;
        }
    }
    // For prefetching ahead of find(): the slot `hash` starts at, and the index it holds when
    // its tag matches (else kNone).
    void prefetch(uint64_t hash) const { __builtin_prefetch(&slots_[hash & mask_]); }
    uint32_t firstAt(uint64_t hash) const {
        const Slot& s = slots_[hash & mask_];
        return s.tag == static_cast<uint32_t>(hash >> 32) ? s.index : kNone;
    }
    // Records `index` under `hash` (after find() missed); hashOf(i) hashes a recorded index's
    // value again when the table grows.
    template <typename HashOf> void insert(uint64_t hash, uint32_t index, HashOf&& hashOf) {
        place(hash, index);
        if (++used_ * 2 <= slots_.size()) return;
        if (slots_.size() >= kMaxSlots) {
            std::fill(slots_.begin(), slots_.end(), Slot{});
            used_ = 0;
            return;
        }
        std::vector<Slot> old = std::move(slots_);
        slots_.assign(old.size() * 2, Slot{});
        mask_ = slots_.size() - 1;
        for (const Slot& s : old)
            if (s.index != kNone) place(hashOf(s.index), s.index);
    }

private:
    struct Slot {
        uint32_t index = kNone;
        uint32_t tag = 0;
    };
    static constexpr size_t kMaxSlots = size_t(1) << 16;
    std::vector<Slot> slots_ = std::vector<Slot>(1024);
    size_t mask_ = 1023;
    size_t used_ = 0;

    void place(uint64_t hash, uint32_t index) {
        size_t i = hash & mask_;
        while (slots_[i].index != kNone) i = (i + 1) & mask_;
        slots_[i] = Slot{index, static_cast<uint32_t>(hash >> 32)};
    }
};

} // namespace strata
