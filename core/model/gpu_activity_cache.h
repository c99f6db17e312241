#pragma once
// GPU activity values repeat (a loop launches the same kernels with the same configuration on
// the same stream): equal values are stored once, found through a ValueIndexSet.
#include "util/pod_vector.h"
#include "model/trace.h"
#include "util/value_index_set.h"

namespace strata {

class GpuActivityCache {
public:
    // The index in `store` of a value equal to g, appending g when there is none. `store` is
    // the same vector on every call, and only this appends to it.
    uint32_t intern(const GpuActivity& g, PodVector<GpuActivity>& store) {
        const uint64_t h = hash(g);
        uint32_t i = set_.find(h, [&](uint32_t k) { return store[k] == g; });
        if (i != ValueIndexSet::kNone) return i;
        store.push_back(g);
        i = static_cast<uint32_t>(store.size() - 1);
        set_.insert(h, i, [&](uint32_t k) { return hash(store[k]); });
        return i;
    }

private:
    ValueIndexSet set_;

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
};

} // namespace strata
