#pragma once
// A deterministic Kineto-style trace generator (strata-cli synth, tests, benchmarks): same options,
// byte-identical output. CPU threads (one per device) run python_function > cpu_op > cuda_runtime
// (cudaLaunchKernel / cudaMemcpyAsync / cudaMemsetAsync) nests; each launch produces a kernel,
// gpu_memcpy or gpu_memset on one of the device's streams (pid = device, tid = stream, Kineto
// style), linked by "correlation" and "External id" args and an ac2g flow (s on the runtime call,
// f with bp:e on the GPU op). All times are whole nanoseconds written as microseconds with three
// decimals, so a reader must recover them exactly.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace strata {

struct SynthOptions {
    uint64_t events = 1000; // total number of trace events (metadata events included)
    uint64_t seed = 1;
    int devices = 1;
    int streams = 1; // per device
};

// What the generator wrote, for checking a reader against.
struct SynthTotals {
    uint64_t events = 0; // trace events written (== options.events)
    uint64_t metadataEvents = 0;
    uint64_t cpuSlices = 0; // python_function + cpu_op + cuda_runtime X events
    uint64_t kernels = 0;
    uint64_t memcpys = 0;
    uint64_t memsets = 0;
    uint64_t flowPairs = 0; // ac2g s/f pairs (one per GPU op)
    std::vector<uint64_t> kernelsPerDevice;
    std::vector<int64_t> kernelTimeNsPerDevice; // sum of kernel durations
    int64_t firstNs = 0;                        // earliest event start (ns, as written)
    int64_t lastNs = 0;                         // latest event end
    uint64_t bytes = 0;                         // bytes written (uncompressed JSON)
};

// The smallest `events` the options allow (the metadata events come first).
uint64_t synthMinimumEvents(const SynthOptions& options);

// Streams the JSON text to `sink` in pieces. False (and `error`) if the options are invalid.
bool generateSyntheticTrace(const SynthOptions& options,
                            const std::function<void(const char*, size_t)>& sink,
                            SynthTotals* totals, std::string* error);

// Writes a file: gzip-compressed (zlib level 6) if the path ends in ".gz", plain JSON otherwise.
bool writeSyntheticTrace(const SynthOptions& options, const std::string& path, SynthTotals* totals,
                         std::string* error);

} // namespace strata
