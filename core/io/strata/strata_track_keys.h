#pragma once
// The tracks one half of the two-thread .strata load writes to (strata_half_loader.h), named as
// its records name them (string ids as in the file, before the model's tracks exist): what the
// half counted for each in pass 1, and where it writes next in pass 2. Internal to the reader.
#include "model/build/trace_builder.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace strata::strata_reader {

// A track as one half's records name it.
enum class KeyKind : uint8_t { Thread, Gpu, Counter, Async };
struct TrackKey {
    KeyKind kind;
    int64_t a = 0, b = 0; // (pid, tid) | (device, stream) | (pid, name) | (pid, name)
    uint64_t c = 0;       // async id
    friend bool operator==(const TrackKey&, const TrackKey&) = default;
};

struct KeyState {
    TrackKey key;
    TraceBuilder::PrefillCounts n; // what this half holds
    TrackId track = UINT32_MAX;
    TraceBuilder::Prefilled out{};
    size_t slice = 0, edge = 0, counter = 0, instant = 0;             // where this half writes next
    size_t sliceEnd = 0, edgeEnd = 0, counterEnd = 0, instantEnd = 0; // and where it stops
    uint32_t seq = 0;                                                 // next seq (slices and B's)
    size_t backed = 0; // slice columns backed up to here (pass 2)
};

// Key -> index in the order keys were first seen: an open-addressing table, so that the usual
// hit costs one hash and one comparison, with no branch that depends on which key it is.
class KeyIndex {
public:
    template <typename Make> uint32_t get(const TrackKey& k, Make&& make) {
        const uint64_t h = (uint64_t(k.a) * 0x9E3779B97F4A7C15ull) ^
                           (uint64_t(k.b) * 0xC2B2AE3D27D4EB4Full) ^ (k.c * 0x165667B19E3779F9ull) ^
                           uint64_t(k.kind);
        for (size_t i = (h ^ (h >> 32)) & mask_;; i = (i + 1) & mask_) {
            Slot& s = slots_[i];
            if (s.index != kEmpty && s.key == k) return s.index;
            if (s.index == kEmpty) {
                s = Slot{k, make()};
                if (++used_ * 2 > slots_.size()) grow();
                return s.index;
            }
        }
    }

private:
    struct Slot {
        TrackKey key{};
        uint32_t index = kEmpty;
    };
    static constexpr uint32_t kEmpty = UINT32_MAX;
    std::vector<Slot> slots_ = std::vector<Slot>(64);
    size_t mask_ = 63;
    size_t used_ = 0;

    void grow() {
        std::vector<Slot> old = std::move(slots_);
        slots_.assign(old.size() * 2, Slot{});
        mask_ = slots_.size() - 1;
        used_ = 0;
        for (const Slot& s : old)
            if (s.index != kEmpty) get(s.key, [&] { return s.index; });
    }
};

} // namespace strata::strata_reader
