#pragma once
// A deterministic Strata recording of instrumented kernel launches, for the Sections view's
// screenshots, the benchmarks and tests where no GPU can record real ones: a tiled matrix
// multiply (sections "load tile", "compute", "store") on an H100-like device (132 SMs, 2
// resident blocks per SM, 1.755 GHz), blocks handed to the SM slot that frees first (as the
// hardware scheduler does, so the last wave shows a tail), one SM with slower loads (a hot
// memory channel), each launch with its cudaLaunchKernel call, its kernel and its Sections
// record. Written with the real writer (io/strata/strata_trace_writer.h).
#include <cstdint>
#include <string>

namespace strata {

struct SynthSectionsOptions {
    uint32_t launches = 3;
    uint32_t blocks = 1024; // per launch
    uint32_t tiles = 16;    // load/compute iterations per block
    uint32_t sms = 132;
    uint32_t slotsPerSm = 2;
    double clockHz = 1.755e9;
    uint64_t seed = 1;
};

struct SynthSectionsTotals {
    uint64_t records = 0;             // section records written (all launches)
    uint64_t cyclesBySection[3] = {}; // load tile, compute, store
};

// Writes the recording to `path`; false and *error when it cannot.
bool writeSyntheticSections(const std::string& path, const SynthSectionsOptions& o,
                            SynthSectionsTotals* totals, std::string* error);

} // namespace strata
