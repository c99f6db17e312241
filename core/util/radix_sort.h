#pragma once
// Stable LSD radix sort of plain values by an integer key, for the build-time
// indices (correlation ids, flow ids): keys are dense-ish counters, so (max - min) spans few
// 11-bit digits and two or three counting passes replace an O(n log n) comparison sort.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace strata {

// Sorts [first, first + n) by key(value) (an int64_t or uint64_t), keeping the input order of
// equal keys. Returns false, sorting nothing, when the keys span more than maxPasses digits
// (the caller then uses a comparison sort).
template <typename T, typename KeyFn>
bool radixSortStable(T* first, size_t n, KeyFn key, int maxPasses = 4) {
    static_assert(std::is_trivially_copy_constructible_v<T> && std::is_trivially_destructible_v<T>);
    constexpr int kBits = 11;
    constexpr size_t kBuckets = size_t(1) << kBits;
    if (n < 2) return true;
    auto ukey = [&](const T& v) { return static_cast<uint64_t>(key(v)); };
    // Signed keys compare as unsigned after flipping the sign bit.
    constexpr bool kSigned = std::is_signed_v<decltype(key(*first))>;
    auto bias = [](uint64_t k) { return kSigned ? k ^ (uint64_t(1) << 63) : k; };
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < n; ++i) {
        const uint64_t k = bias(ukey(first[i]));
        lo = std::min(lo, k);
        hi = std::max(hi, k);
    }
    const uint64_t span = hi - lo;
    int passes = 0;
    while (passes * kBits < 64 && (span >> (passes * kBits)) != 0) ++passes;
    if (passes > maxPasses) return false;
    if (passes == 0) return true; // all keys equal

    auto count = std::make_unique<std::array<size_t, kBuckets>[]>(size_t(passes));
    for (size_t i = 0; i < n; ++i) {
        const uint64_t k = bias(ukey(first[i])) - lo;
        for (int p = 0; p < passes; ++p) ++count[p][(k >> (p * kBits)) & (kBuckets - 1)];
    }
    std::unique_ptr<T, decltype(&std::free)> scratch(static_cast<T*>(std::malloc(n * sizeof(T))),
                                                     &std::free);
    if (!scratch) throw std::bad_alloc();
    T* src = first;
    T* dst = scratch.get();
    for (int p = 0; p < passes; ++p) {
        auto& c = count[p];
        if (std::find(c.begin(), c.end(), n) != c.end()) continue; // one bucket: order kept
        size_t sum = 0;
        for (auto& v : c) sum += std::exchange(v, sum);
        for (size_t i = 0; i < n; ++i) {
            const uint64_t k = bias(ukey(src[i])) - lo;
            dst[c[(k >> (p * kBits)) & (kBuckets - 1)]++] = src[i];
        }
        std::swap(src, dst);
    }
    if (src != first) std::copy(src, src + n, first);
    return true;
}

} // namespace strata
