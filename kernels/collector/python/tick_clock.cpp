#include "python/tick_clock.h"

#include "collector_instance.h"

#include <cstring>
#include <fstream>
#include <string>

namespace strata::python {

uint64_t clockNsNow() {
    return clockNs();
}

namespace {

bool tscIsSteady() {
#if defined(__x86_64__)
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line))
        if (line.rfind("flags", 0) == 0)
            return line.find(" constant_tsc") != std::string::npos &&
                   line.find(" nonstop_tsc") != std::string::npos;
#endif
    return false;
}

// Ticks and nanoseconds read together: the pair whose two reads are closest of three.
void readBoth(uint64_t* ticks, uint64_t* ns) {
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 3; ++i) {
        const uint64_t a = TickClock::now();
        const uint64_t n = clockNs();
        const uint64_t b = TickClock::now();
        if (b - a < best) best = b - a, *ticks = a + (b - a) / 2, *ns = n;
    }
}

} // namespace

void TickClock::start() {
    useTsc_ = tscIsSteady();
    readBoth(&ticks0_, &ns0_);
    if (!useTsc_) {
        ticks1_ = ticks0_, ns1_ = ns0_, rate_ = 1;
        return;
    }
    // The rate until the first drain: 200 us of both clocks.
    uint64_t t = 0, n = 0;
    do readBoth(&t, &n);
    while (n - ns0_ < 200'000);
    rate_ = double(n - ns0_) / double(t - ticks0_);
    ticks1_ = ticks0_, ns1_ = ns0_;
}

void TickClock::anchor() {
    if (!useTsc_) return;
    uint64_t t = 0, n = 0;
    readBoth(&t, &n);
    ticks0_ = ticks1_, ns0_ = ns1_;
    if (n - ns0_ >= 1'000'000 && t > ticks0_) {
        ticks1_ = t, ns1_ = n;
        rate_ = double(ns1_ - ns0_) / double(ticks1_ - ticks0_);
    } else {
        // Too close to the last anchor to measure the rate: the line goes on.
        ticks1_ = t, ns1_ = ns0_ + uint64_t(double(t - ticks0_) * rate_);
    }
}

uint64_t TickClock::ns(uint64_t ticks) const {
    if (!useTsc_) return ticks;
    const double d = double(int64_t(ticks - ticks0_)) * rate_;
    return uint64_t(int64_t(ns0_) + int64_t(d));
}

} // namespace strata::python
