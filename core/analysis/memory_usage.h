#pragma once
// Memory in use over time, per device, from what the trace recorded (issue 28):
//   - the PyTorch profiler's `[memory]` instants (profile_memory=True): one per allocation or
//     free, with "Bytes" (negative for a free), "Addr", "Device Type" / "Device Id" and the
//     caching allocator's "Total Allocated" and "Total Reserved" after it;
//   - the collector's counters "GPU N memory allocated (bytes)" (CUPTI's memory records: the
//     allocated total after each cudaMalloc / cudaFree; no reserved figure).
// A series per device (device -1: host memory, Kineto's Device Type 0), its samples in time order
// and where its peak is. The timeline draws them as memory rows in each GPU's section; the
// allocation under the cursor is the last sample at or before it.
#include "model/trace.h"

#include <cstdint>
#include <vector>

namespace strata {

struct MemorySample {
    TimeNs ts = 0;
    int64_t allocated = 0; // bytes allocated after this event
    int64_t reserved = -1; // bytes reserved by the caching allocator after it, -1 unknown
    int64_t bytes = 0;     // this event: > 0 an allocation, < 0 a free (0 unknown)
    uint64_t addr = 0;     // its address, 0 unknown
};

struct MemorySeries {
    int32_t device = -1;               // -1: host memory
    std::vector<MemorySample> samples; // by time (ties: as recorded)
    size_t peak = 0;                   // first sample with the largest `allocated`
    size_t reservedPeak = 0;           // first sample with the largest `reserved`
    bool hasReserved = false;          // some sample carries a reserved figure
};

struct MemoryUsage {
    std::vector<MemorySeries> series; // by device, host (-1) first
    const MemorySeries* of(int32_t device) const;
};

MemoryUsage memoryUsage(const Trace& trace);

// The device of a collector memory counter ("GPU 3 memory allocated (bytes)" -> 3), else -1.
int32_t memoryCounterDevice(std::string_view counterName);

// The index of the last sample at or before t, or -1 when t is before the first.
ptrdiff_t sampleAt(const MemorySeries& s, TimeNs t);

} // namespace strata
