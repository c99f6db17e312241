// collector_harness's live scenario: a program launching kernels at a steady rate for a while,
// its records stamped with the collector's clock as they are fed, so a live view can see them
// arrive (and how late) while the program runs.
#include "collector_harness_process.h"

#include "collector_harness_feed.h"

#include <algorithm>
#include <chrono>
#include <cstdint>

namespace {

long envLong(const char* name, long fallback) {
    const char* v = std::getenv(name);
    return v && *v ? std::atol(v) : fallback;
}

} // namespace

// HARNESS_RATE kernels a second (default 1000), each after its cudaLaunchKernel, busy for
// HARNESS_BUSY_PERCENT of its period (default 50), for HARNESS_SECONDS (default 2); with
// HARNESS_UNTIL=FILE, until FILE exists instead (60 s at most). The collector's own thread
// flushes. Prints kernels=N and the flushes so far (flushes=, forced_flushes=).
int pacedScenario() {
    const long rate = std::max(1L, envLong("HARNESS_RATE", 1000));
    const long busyPercent = std::clamp(envLong("HARNESS_BUSY_PERCENT", 50), 0L, 100L);
    const long seconds = envLong("HARNESS_SECONDS", 2);
    const char* until = std::getenv("HARNESS_UNTIL");
    InitializeInjection();
    const uint64_t period = uint64_t(1'000'000'000 / rate);
    const uint64_t busy = period * uint64_t(busyPercent) / 100;
    auto a = zeroed<CUpti_ActivityAPI>(CUPTI_ACTIVITY_KIND_RUNTIME);
    a.cbid = CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000;
    a.processId = uint32_t(getpid());
    a.threadId = tid();
    auto k = zeroed<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    k.name = "_Z5pacedv";
    k.contextId = 1;
    k.streamId = 7;
    k.gridX = k.gridY = k.gridZ = k.blockX = k.blockY = k.blockZ = 1;
    const uint64_t t0 = fake_cupti_now();
    const uint64_t limit = uint64_t(until ? 60 : seconds) * 1'000'000'000ull;
    uint64_t fed = 0;
    for (;;) {
        const uint64_t now = fake_cupti_now();
        if (now - t0 >= limit) break;
        if (until && access(until, F_OK) == 0) break;
        // The launches due by now, each stamped at its own time in the past millisecond.
        for (const uint64_t due = (now - t0) / period; fed < due; ++fed) {
            const uint64_t t = t0 + fed * period;
            a.start = t;
            a.end = t + period / 8;
            a.correlationId = k.correlationId = uint32_t(fed + 1);
            k.start = t + period / 8;
            k.end = k.start + busy;
            feed(a);
            feed(k);
        }
        usleep(1000);
    }
    // The flushes so far, and those that forced CUPTI's unfinished buffers out (a live run's).
    std::printf("kernels=%llu\nflushes=%d\nforced_flushes=%d\n", (unsigned long long)fed,
                fake_cupti_flush_calls(0), fake_cupti_flush_calls(1));
    std::fflush(stdout);
    return 0;
}
