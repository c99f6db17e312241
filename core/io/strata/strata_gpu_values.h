#pragma once
// The GPU activity values one half of the two-thread .strata load stores (strata_half_loader.h):
// equal values once, found by their bytes in the records. Internal to the reader.
#include "io/strata/strata_slice_rows.h"
#include "model/trace.h"
#include "util/pod_vector.h"
#include "util/value_index_set.h"

#include <cstdint>
#include <vector>

namespace strata::strata_reader {

// Equal GPU activity values stored once, found by their bytes in the record: hashed eight bytes
// at a time (independent multiplies), compared word by word, decoded only when new.
class GpuValuesByBytes {
public:
    static constexpr uint32_t kValueBytes = format::kGpuActivityBytes;

    // Interns the n values stored kValueBytes apart from `raw`, calling out(i, index): each
    // value's table slot is fetched a few values ahead, and the stored bytes it points to half
    // as far ahead, so the misses of several values overlap.
    template <typename Out>
    void internRun(const uint8_t* raw, uint32_t n, PodVector<GpuActivity>& store, Out&& out) {
        constexpr uint32_t kAhead = 8, kRing = 16;
        uint64_t h[kRing];
        auto valueAt = [&](uint32_t i) { return raw + size_t(i) * kValueBytes; };
        for (uint32_t i = 0; i < n + kAhead; ++i) {
            if (i < n) {
                h[i % kRing] = hash(valueAt(i));
                set_.prefetch(h[i % kRing]);
            }
            if (i >= kAhead / 2 && i - kAhead / 2 < n) {
                const uint32_t k = set_.firstAt(h[(i - kAhead / 2) % kRing]);
                if (k != ValueIndexSet::kNone) {
                    __builtin_prefetch(bytesOf(k));
                    __builtin_prefetch(bytesOf(k) + 64);
                }
            }
            if (i >= kAhead)
                out(i - kAhead, intern(valueAt(i - kAhead), h[(i - kAhead) % kRing], store));
        }
    }

private:
    ValueIndexSet set_;
    std::vector<uint8_t> bytes_; // the stored values' record bytes, kValueBytes each

    uint32_t intern(const uint8_t* raw, uint64_t h, PodVector<GpuActivity>& store) {
        const uint32_t i = set_.find(h, [&](uint32_t k) { return sameBytes(bytesOf(k), raw); });
        return i != ValueIndexSet::kNone ? i : add(raw, h, store);
    }
    // A value not stored yet: out of line, so that internRun's loop inlines only the lookup
    // (most values repeat).
    [[gnu::noinline]] uint32_t add(const uint8_t* raw, uint64_t h, PodVector<GpuActivity>& store) {
        store.push_back(format::Codec<GpuActivity>::read(raw));
        bytes_.insert(bytes_.end(), raw, raw + kValueBytes);
        const auto i = static_cast<uint32_t>(store.size() - 1);
        set_.insert(h, i, [&](uint32_t k) { return hash(bytesOf(k)); });
        return i;
    }
    const uint8_t* bytesOf(uint32_t index) const {
        return bytes_.data() + size_t(index) * kValueBytes;
    }
    static uint64_t word(const uint8_t* p, size_t offset) {
        return format::Codec<uint64_t>::read(p + offset);
    }
    // Whether two values' bytes are equal: word by word, the last word overlapping the one
    // before it (inline: the compare of one value costs less than a call).
    static bool sameBytes(const uint8_t* a, const uint8_t* b) {
        constexpr size_t kLast = kValueBytes - 8;
        uint64_t diff = word(a, kLast) ^ word(b, kLast);
        for (size_t w = 0; w < kLast; w += 8) diff |= word(a, w) ^ word(b, w);
        return diff == 0;
    }
    static uint64_t hash(const uint8_t* raw) {
        constexpr size_t kWords = kValueBytes / 8, kTail = kValueBytes % 8;
        static_assert(kTail > 0 && kWords > 0);
        static constexpr uint64_t kMul[12] = {
            0x9E3779B97F4A7C15ull, 0xC2B2AE3D27D4EB4Full, 0x165667B19E3779F9ull,
            0xD6E8FEB86659FD93ull, 0xFF51AFD7ED558CCDull, 0xC4CEB9FE1A85EC53ull,
            0x87C37B91114253D5ull, 0x4CF5AD432745937Full, 0x2545F4914F6CDD1Dull,
            0x94D049BB133111EBull, 0xBF58476D1CE4E5B9ull, 0xA0761D6478BD642Full};
        static_assert(kWords < 12);
        uint64_t h = 0;
        for (size_t w = 0; w < kWords; ++w) h += word(raw, w * 8) * kMul[w];
        // The last kTail bytes, from one load of the value's last eight (bytes assembled on the
        // stack and read back whole would stall store forwarding).
        const uint64_t tail = word(raw, kValueBytes - 8) >> (8 * (8 - kTail));
        h += tail * kMul[kWords];
        return h ^ (h >> 29) ^ (h >> 47);
    }
};

} // namespace strata::strata_reader
