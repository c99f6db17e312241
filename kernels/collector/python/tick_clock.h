#pragma once
// The clock of the Python calls: read twice per call on the program's own thread, so as cheap
// as can be. The CPU's time-stamp counter (rdtsc, a few ns) where the CPU says it runs at a
// constant rate and never stops (/proc/cpuinfo: constant_tsc and nonstop_tsc), otherwise
// clockNs() itself. Ticks become CLOCK_MONOTONIC_RAW nanoseconds (the clock of every other
// record) on the flush thread: each drain takes an anchor (ticks, ns) read together, and the
// ticks read since the previous anchor map on the line through the two, so the mapping is
// continuous, follows the clock's rate as it is measured, and never runs backwards.
#include <cstdint>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace strata::python {

uint64_t clockNsNow(); // clockNs() (collector_instance.h), without its header

class TickClock {
public:
    // Decides the source and takes the first anchor (a 200 us calibration for the rate until
    // the second anchor).
    void start();
    static uint64_t now() {
#if defined(__x86_64__)
        if (useTsc_) return __rdtsc();
#endif
        return clockNsNow();
    }
    // Flush thread, before converting what it drained: a new anchor.
    void anchor();
    // Flush thread: `ticks` in nanoseconds.
    uint64_t ns(uint64_t ticks) const;

private:
    static inline bool useTsc_ = false;
    uint64_t ticks0_ = 0, ns0_ = 0; // the previous anchor
    uint64_t ticks1_ = 0, ns1_ = 0; // the current one
    double rate_ = 1;               // ns per tick, through the two
};

} // namespace strata::python
