#pragma once
// Load-phase timings for performance work: with STRATA_LOAD_PHASES=1 in the environment, each
// mark() prints "strata: <phase> <ms>" (time since the previous mark) to stderr. Costs one
// getenv per timer otherwise. See docs/performance.md.
#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace strata {

class PhaseTimer {
public:
    PhaseTimer() : on_(std::getenv("STRATA_LOAD_PHASES") != nullptr) {}
    void mark(const char* phase) {
        if (!on_) return;
        const auto now = std::chrono::steady_clock::now();
        std::fprintf(stderr, "strata: %-18s %7.1f ms\n", phase,
                     std::chrono::duration<double, std::milli>(now - last_).count());
        last_ = now;
    }

private:
    bool on_;
    std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

} // namespace strata
