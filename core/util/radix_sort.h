#pragma once
// Stable radix sort of plain values by an integer key, for the build-time
// indices (correlation ids, flow ids): keys are dense-ish counters, so (max - min) spans few
// 11-bit digits and two or three counting passes replace an O(n log n) comparison sort.
// Large inputs are first split by their top digit (one pass over the whole array), then each
// part is sorted by the lower digits while it stays in cache: the whole array is read and
// written once instead of once per digit. A stable sort has one result, so both ways agree.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace strata {

namespace radix_detail {

constexpr int kBits = 11;
constexpr size_t kBuckets = size_t(1) << kBits;
// Above this many bytes an input is split by its top digit first (about a core's L2 cache).
constexpr size_t kSplitBytes = size_t(1) << 20;
// Parts this small are sorted by insertion.
constexpr size_t kInsertionMax = 32;

using Counts = std::array<size_t, kBuckets>;

struct Buffer {
    std::unique_ptr<void, decltype(&std::free)> p{nullptr, &std::free};
    template <typename T> T* get(size_t n) {
        if (!p) {
            p.reset(std::malloc(std::max<size_t>(n, 1) * sizeof(T)));
            if (!p) throw std::bad_alloc();
        }
        return static_cast<T*>(p.get());
    }
};

// Sorts the n values at `src` by the digits [0, passes) of rank(v) (the key less the smallest
// key), stably, leaving them at `out`; `other` is scratch of n values. src may be out or other.
template <typename T, typename Rank>
void lsdPasses(T* src, T* out, T* other, size_t n, int passes, Rank rank) {
    if (n <= kInsertionMax) {
        if (src != out) std::copy(src, src + n, out);
        for (size_t i = 1; i < n; ++i) {
            const T v = out[i];
            const uint64_t k = rank(v);
            size_t j = i;
            for (; j > 0 && rank(out[j - 1]) > k; --j) out[j] = out[j - 1];
            out[j] = v;
        }
        return;
    }
    auto count = std::make_unique<Counts[]>(size_t(passes));
    for (size_t i = 0; i < n; ++i) {
        const uint64_t k = rank(src[i]);
        for (int p = 0; p < passes; ++p) ++count[p][(k >> (p * kBits)) & (kBuckets - 1)];
    }
    int needed = 0; // passes where the values fall in more than one bucket
    for (int p = 0; p < passes; ++p)
        needed += std::find(count[p].begin(), count[p].end(), n) == count[p].end();
    // Alternate between out and other so that the last pass writes to out.
    T* dst = (needed % 2 == 1) ? out : other;
    if (dst == src) dst = (dst == out) ? other : out;
    for (int p = 0; p < passes; ++p) {
        auto& c = count[p];
        if (std::find(c.begin(), c.end(), n) != c.end()) continue; // one bucket: order kept
        size_t sum = 0;
        for (auto& v : c) sum += std::exchange(v, sum);
        for (size_t i = 0; i < n; ++i)
            dst[c[(rank(src[i]) >> (p * kBits)) & (kBuckets - 1)]++] = src[i];
        src = dst;
        dst = (src == out) ? other : out;
    }
    if (src != out) std::copy(src, src + n, out);
}

} // namespace radix_detail

// Sorts [first, first + n) by key(value) (an int64_t or uint64_t), keeping the input order of
// equal keys. Returns false, sorting nothing, when the keys span more than maxPasses digits
// (the caller then uses a comparison sort).
template <typename T, typename KeyFn>
bool radixSortStable(T* first, size_t n, KeyFn key, int maxPasses = 4) {
    static_assert(std::is_trivially_copy_constructible_v<T> && std::is_trivially_destructible_v<T>);
    using namespace radix_detail;
    if (n < 2) return true;
    // Signed keys compare as unsigned after flipping the sign bit.
    constexpr bool kSigned = std::is_signed_v<decltype(key(*first))>;
    auto ukey = [&](const T& v) {
        const auto k = static_cast<uint64_t>(key(v));
        return kSigned ? k ^ (uint64_t(1) << 63) : k;
    };
    uint64_t lo = UINT64_MAX, hi = 0;
    bool sorted = true; // already in key order: nothing to do (and no scratch memory taken)
    for (size_t i = 0; i < n; ++i) {
        const uint64_t k = ukey(first[i]);
        sorted &= k >= hi || i == 0;
        lo = std::min(lo, k);
        hi = std::max(hi, k);
    }
    const uint64_t span = hi - lo;
    int passes = 0;
    while (passes * kBits < 64 && (span >> (passes * kBits)) != 0) ++passes;
    if (passes > maxPasses) return false;
    if (passes == 0 || sorted) return true; // all keys equal, or in order
    const auto rank = [&](const T& v) { return ukey(v) - lo; };

    Buffer scratch;
    if (passes == 1 || n * sizeof(T) <= kSplitBytes) {
        lsdPasses(first, first, scratch.get<T>(n), n, passes, rank);
        return true;
    }
    // Split by the top digit into scratch, then sort each part by the lower digits back into
    // its place in [first, first + n).
    const int shift = (passes - 1) * kBits;
    auto starts = std::make_unique<Counts>();
    Counts& at = *starts;
    at.fill(0);
    for (size_t i = 0; i < n; ++i) ++at[rank(first[i]) >> shift];
    size_t largest = 0, sum = 0;
    for (auto& v : at) {
        largest = std::max(largest, v);
        sum += std::exchange(v, sum);
    }
    Counts ends = at;
    T* const parts = scratch.get<T>(n);
    for (size_t i = 0; i < n; ++i) parts[ends[rank(first[i]) >> shift]++] = first[i];
    Buffer other;
    T* const tmp = other.get<T>(largest);
    for (size_t d = 0; d < kBuckets; ++d)
        if (const size_t m = ends[d] - at[d]; m > 0)
            lsdPasses(parts + at[d], first + at[d], tmp, m, passes - 1, rank);
    return true;
}

} // namespace strata
