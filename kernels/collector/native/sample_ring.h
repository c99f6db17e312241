#pragma once
// One thread's native samples on their way from its signal handler (the one writer) to the
// sampler thread (the one reader): a fixed ring of fixed-size slots in memory of its own
// (mmap: a thread that is never sampled touches none of it). A full ring drops the sample and
// counts it. Nothing here allocates or locks: the writer runs in a signal handler.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <sys/mman.h>

namespace strata::native {

struct NativeSample {
    static constexpr int kMaxDepth = 126;
    uint64_t ts = 0;
    uint32_t depth = 0;
    // The periods of CPU it stands for: 1 and the timer's overruns (CPU timers are checked at
    // the kernel's tick, 4 ms at HZ=250: one signal then for 4 periods at 1 kHz).
    uint32_t periods = 1;
    uint32_t unwindNs = 0;    // how long the handler took to unwind it
    uintptr_t ips[kMaxDepth]; // innermost first
};

class SampleRing {
public:
    static constexpr uint32_t kSlots = 256; // 256 KiB: 200 ms at 1 kHz between two drains

    // A ring in memory of its own; null if there is none.
    static SampleRing* create() {
        void* p = mmap(nullptr, sizeof(SampleRing), PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        return p == MAP_FAILED ? nullptr : new (p) SampleRing;
    }
    // Only once its thread can no longer write (ended, or its timer deleted and drained).
    static void destroy(SampleRing* r) {
        r->~SampleRing();
        munmap(r, sizeof(SampleRing));
    }

    // The writer: the slot to fill, or null (full: counted as dropped); then commit().
    NativeSample* begin() {
        const uint32_t h = head_.load(std::memory_order_relaxed);
        if (h - tail_.load(std::memory_order_acquire) >= kSlots) {
            dropped_.fetch_add(1, std::memory_order_relaxed);
            return nullptr;
        }
        return &slots_[h % kSlots];
    }
    void commit() {
        head_.store(head_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
    }

    // The reader: each filled slot, oldest first, to `f`; their number.
    template <typename F> size_t drain(F&& f) {
        const uint32_t h = head_.load(std::memory_order_acquire);
        uint32_t t = tail_.load(std::memory_order_relaxed);
        size_t n = 0;
        for (; t != h; ++t, ++n) f(slots_[t % kSlots]);
        tail_.store(t, std::memory_order_release);
        return n;
    }
    uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }

private:
    SampleRing() = default;
    std::atomic<uint32_t> head_{0}, tail_{0};
    std::atomic<uint64_t> dropped_{0};
    NativeSample slots_[kSlots];
};

} // namespace strata::native
