#pragma once
// The hash of a (pid, tid) pair (or any two int64 keys) for unordered maps: the thread tracks of
// a builder, the per-thread buffers of stack samples. Plain std (the writer includes it).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>

namespace strata {

struct PidTidHash {
    size_t operator()(const std::pair<int64_t, int64_t>& p) const noexcept {
        return std::hash<uint64_t>{}(uint64_t(p.first) * 1000003u ^ uint64_t(p.second));
    }
};

} // namespace strata
