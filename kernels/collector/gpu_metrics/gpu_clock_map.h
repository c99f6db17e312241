#pragma once
// How a PM sample's time becomes the trace's clock (the collector's CLOCK_MONOTONIC_RAW ns).
//
// CUPTI stamps each PM sample with the GPU's time in ns (CounterDataGetSampleInfo's start and end).
// CUPTI does not document which clock that is: its own pm_sampling sample pairs it with
// cuptiGetTimestamp (CUPTI's normalized time: CLOCK_REALTIME on Linux unless a timestamp callback
// is registered), and XLA puts the samples beside its CUPTI activity records unchanged. The GPU's
// global timer, which the driver keeps near CLOCK_REALTIME, would read the same. So three clocks
// are read together when sampling starts, and the first sample decides which one its times run
// on: the one whose reading is nearest its start (they are decades apart, the sample comes
// seconds after the reading). Each later sample then moves by that clock's offset to the
// collector's:
//   - the collector's own clock (CUPTI applied the registered timestamp callback): offset 0;
//   - CUPTI's timestamp (cuptiGetTimestamp), when it is neither of the other two: cupti -
//   collector;
//   - CLOCK_REALTIME: realtime - collector.
// Which was taken, and the offset, is written in the trace (metadata gpu_metrics); the GPU check
// (docs/gpu-validation.md) measures how well a kernel and its counters line up.
#include <cstdint>
#include <string>

namespace strata::gpu_metrics {

// The clocks as read together (ns), at cuptiPmSamplingStart.
struct ClockReadings {
    int64_t collectorNs = 0; // clockNs(): CLOCK_MONOTONIC_RAW
    int64_t cuptiNs = 0;     // cuptiGetTimestamp
    int64_t realtimeNs = 0;  // CLOCK_REALTIME
};

enum class ClockBase { Collector, Cupti, Realtime };

struct ClockMapping {
    ClockBase base = ClockBase::Collector;
    int64_t offsetNs = 0; // trace time = sample time - offsetNs
    int64_t toTrace(uint64_t sampleNs) const { return int64_t(sampleNs) - offsetNs; }
};

// The clock `firstSampleNs` runs on, as above. CUPTI's reading counts as a clock of its own only
// when it is more than a second from both others (otherwise it is one of them).
ClockMapping chooseClockMapping(const ClockReadings& at, uint64_t firstSampleNs);

// "CUPTI timestamp (trace = sample - 400000000000000000 ns)", for the metadata (a negative
// offset reads "sample + N ns").
std::string describeClockMapping(const ClockMapping& m);

} // namespace strata::gpu_metrics
