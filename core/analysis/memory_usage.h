#pragma once
// Memory in use over time, per device, from what the trace recorded (issue 28):
//   - the PyTorch profiler's `[memory]` instants (profile_memory=True): one per allocation or
//     free, with "Bytes" (negative for a free), "Addr", "Device Type" / "Device Id" and the
//     caching allocator's "Total Allocated" and "Total Reserved" after it;
//     The 2021 schema carries "Bytes" alone: what is allocated is then the running sum of the
//     events' Bytes in time order (exact from the capture's start; raised so that it never goes
//     below zero, frees of blocks allocated before the capture being counted as held at its
//     start);
//   - the collector's counters "GPU N memory allocated (bytes)" (CUPTI's memory records: the
//     allocated total after each cudaMalloc / cudaFree; no reserved figure).
// A GPU whose memory events name a device the kernels do not run on (a vLLM capture: memory on
// device 0, kernels on device 2) is drawn as the kernels' device when the trace's kernels run on
// one device alone; otherwise its series keeps its id and a warning names the ids.
// A series per device (device -1: host memory, Kineto's Device Type 0), its samples in time order
// and where its peak is. The timeline draws them as memory rows in each GPU's section; the
// allocation under the cursor is the last sample at or before it.
#include "model/trace.h"

#include <cstdint>
#include <string>
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
    int32_t recordedDevice = -1;       // the "Device Id" the events named (differs when mapped)
    bool summed = false;               // allocated: the running sum of the events' Bytes
    std::vector<MemorySample> samples; // by time (ties: as recorded)
    size_t peak = 0;                   // first sample with the largest `allocated`
    size_t reservedPeak = 0;           // first sample with the largest `reserved`
    bool hasReserved = false;          // some sample carries a reserved figure
};

struct MemoryUsage {
    std::vector<MemorySeries> series;  // by device, host (-1) first
    std::vector<std::string> warnings; // memory of a device no kernel runs on, not mapped
    const MemorySeries* of(int32_t device) const;
};

MemoryUsage memoryUsage(const Trace& trace);

// The most a series held over a range [start, end): what it held at the range's start (its last
// sample before) or after one of its samples in the range, and when (the first time it held it).
struct MemoryPeak {
    int32_t device = -1, recordedDevice = -1;
    bool summed = false;
    int64_t bytes = 0;
    TimeNs at = 0;
    int64_t reserved = -1; // the most reserved over the range, -1 unknown
    size_t samples = 0;    // the series' samples in the range
};
// One per series that held or recorded anything in the range, by device (host first).
std::vector<MemoryPeak> memoryPeaks(const MemoryUsage& usage, TimeRange range);

// The device of a collector memory counter ("GPU 3 memory allocated (bytes)" -> 3), else -1.
int32_t memoryCounterDevice(std::string_view counterName);

// The index of the last sample at or before t, or -1 when t is before the first.
ptrdiff_t sampleAt(const MemorySeries& s, TimeNs t);

} // namespace strata
