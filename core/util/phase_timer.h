#pragma once
// Load-phase timings for performance work: with STRATA_LOAD_PHASES=1 in the environment, each
// mark() prints "strata: <phase> <ms>" (time since the previous mark) and the peak RSS so far to
// stderr. Costs one getenv per timer otherwise. See docs/performance.md.
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include <sys/resource.h>

namespace strata {

class PhaseTimer {
public:
    PhaseTimer() : on_(std::getenv("STRATA_LOAD_PHASES") != nullptr) {}
    void mark(const char* phase) {
        if (!on_) return;
        const auto now = std::chrono::steady_clock::now();
        rusage ru{};
        getrusage(RUSAGE_SELF, &ru);
        std::fprintf(stderr, "strata: %-18s %7.1f ms  peak RSS %.1f MB\n", phase,
                     std::chrono::duration<double, std::milli>(now - last_).count(),
                     double(ru.ru_maxrss) * 1024 / 1e6);
        last_ = now;
    }

private:
    bool on_;
    std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

} // namespace strata
