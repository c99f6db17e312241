#pragma once
// GPU activity values repeat (a loop launches the same kernels with the same configuration on
// the same stream): equal values are stored once. An open-addressing hash set over the store
// finds them; each slot keeps 32 bits of the hash, so a lookup reads a stored value only when
// it is almost surely the one.
#include "model/pod_vector.h"
#include "model/trace.h"

#include <vector>

namespace strata {

class GpuActivityCache {
public:
    // The index in `store` of a value equal to g, appending g when there is none. `store` is
    // the same vector on every call, and only this appends to it.
    uint32_t intern(const GpuActivity& g, PodVector<GpuActivity>& store) {
        const uint64_t h = hash(g);
        const auto tag = static_cast<uint32_t>(h >> 32);
        for (size_t i = h & mask_;; i = (i + 1) & mask_) {
            Slot& s = slots_[i];
            if (s.index == kEmpty) {
                store.push_back(g);
                s = Slot{static_cast<uint32_t>(store.size() - 1), tag};
                if (++used_ * 2 > slots_.size()) slots_.size() < kMaxSlots ? grow(store) : forget();
                return static_cast<uint32_t>(store.size() - 1);
            }
            if (s.tag == tag && store[s.index] == g) return s.index;
        }
    }

private:
    struct Slot {
        uint32_t index;
        uint32_t tag;
    };
    static constexpr uint32_t kEmpty = UINT32_MAX;
    // At most 64 Ki slots (512 KiB, in the core's cache): past 32 Ki distinct values the set
    // starts over, so a trace of mostly distinct values costs a bounded lookup, not a table
    // that outgrows the cache (it then stores a value again at most once per start-over).
    static constexpr size_t kMaxSlots = size_t(1) << 16;
    void forget() {
        std::fill(slots_.begin(), slots_.end(), Slot{kEmpty, 0});
        used_ = 0;
    }
    std::vector<Slot> slots_ = std::vector<Slot>(1024, Slot{kEmpty, 0});
    size_t mask_ = 1023;
    size_t used_ = 0;

    static uint64_t hash(const GpuActivity& g) {
        // Two independent multiply chains (they overlap in the pipeline), then mixed.
        uint64_t a = 0x243F6A8885A308D3ull, b = 0x13198A2E03707344ull;
        constexpr uint64_t kA = 0x9E3779B97F4A7C15ull, kB = 0xC2B2AE3D27D4EB4Full;
        auto both = [&](uint64_t x, uint64_t y) {
            a = (a ^ x) * kA;
            b = (b ^ y) * kB;
        };
        both(uint64_t(uint32_t(g.device)) | uint64_t(uint32_t(g.registersPerThread)) << 32,
             uint64_t(g.stream));
        both(uint64_t(g.context), uint64_t(uint32_t(g.grid[0])) | uint64_t(uint32_t(g.grid[1]))
                                                                      << 32);
        both(uint64_t(uint32_t(g.grid[2])) | uint64_t(uint32_t(g.block[0])) << 32,
             uint64_t(uint32_t(g.block[1])) | uint64_t(uint32_t(g.block[2])) << 32);
        both(uint64_t(uint32_t(g.staticSharedBytes)) | uint64_t(uint32_t(g.dynamicSharedBytes))
                                                           << 32,
             uint64_t(g.bytes));
        both(uint64_t(g.copyKind) | uint64_t(g.srcMemory) << 8 | uint64_t(g.dstMemory) << 16,
             uint64_t(g.graphId));
        both(uint64_t(g.graphNodeId), 0);
        const uint64_t h = a ^ (b >> 29) ^ (b << 35);
        return h ^ (h >> 31);
    }
    void grow(const PodVector<GpuActivity>& store) {
        std::vector<Slot> old = std::move(slots_);
        slots_.assign(old.size() * 2, Slot{kEmpty, 0});
        mask_ = slots_.size() - 1;
        for (const Slot& s : old) {
            if (s.index == kEmpty) continue;
            size_t i = hash(store[s.index]) & mask_;
            while (slots_[i].index != kEmpty) i = (i + 1) & mask_;
            slots_[i] = s;
        }
    }
};

} // namespace strata
