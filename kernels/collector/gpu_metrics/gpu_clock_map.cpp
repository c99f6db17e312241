#include "gpu_metrics/gpu_clock_map.h"

#include <cstdlib>

namespace strata::gpu_metrics {

namespace {

constexpr int64_t kSameClockNs = 1'000'000'000; // readings closer than this are one clock

uint64_t distance(uint64_t a, int64_t b) {
    const int64_t d = int64_t(a - uint64_t(b)); // wraps: both are ns counts far below 2^63
    return d < 0 ? uint64_t(-d) : uint64_t(d);
}

} // namespace

ClockMapping chooseClockMapping(const ClockReadings& at, uint64_t firstSampleNs) {
    struct Candidate {
        ClockBase base;
        int64_t reading;
    };
    Candidate candidates[3] = {{ClockBase::Collector, at.collectorNs},
                               {ClockBase::Realtime, at.realtimeNs},
                               {ClockBase::Cupti, at.cuptiNs}};
    const bool cuptiOwnClock = std::llabs(at.cuptiNs - at.collectorNs) > kSameClockNs &&
                               std::llabs(at.cuptiNs - at.realtimeNs) > kSameClockNs;
    const int count = cuptiOwnClock ? 3 : 2;
    const Candidate* best = &candidates[0];
    for (int i = 1; i < count; ++i)
        if (distance(firstSampleNs, candidates[i].reading) < distance(firstSampleNs, best->reading))
            best = &candidates[i];
    return ClockMapping{best->base, best->reading - at.collectorNs};
}

std::string describeClockMapping(const ClockMapping& m) {
    const char* base = m.base == ClockBase::Collector ? "the collector's clock"
                       : m.base == ClockBase::Cupti   ? "CUPTI timestamp"
                                                      : "CLOCK_REALTIME";
    const std::string shift =
        m.offsetNs >= 0 ? " - " + std::to_string(m.offsetNs) : " + " + std::to_string(-m.offsetNs);
    return std::string(base) + " (trace = sample" + shift + " ns)";
}

} // namespace strata::gpu_metrics
