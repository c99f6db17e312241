#pragma once
// The one synthetic trace generator (strata-cli synth, strata-cli record --synthetic-trace, the
// render benchmark, tests): a deterministic made-up CUDA program, written as Kineto JSON, as a
// .strata recording or straight into a TraceBuilder. Same options, same program, byte-identical
// output. CPU threads (one per device) run python_function > cpu_op > cuda_runtime
// (cudaLaunchKernel / cudaMemcpyAsync / cudaMemsetAsync) nests; each launch produces a kernel,
// gpu_memcpy or gpu_memset on one of the device's streams (in JSON: pid = device, tid = stream,
// Kineto style), linked by correlation and External ids (JSON: args and an ac2g flow, s on the
// runtime call, f with bp:e on the GPU op). All times are whole nanoseconds (JSON: microseconds
// with three decimals), so a reader must recover them exactly.
#include "model/time.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace strata {

class Trace;

struct SynthOptions {
    uint64_t events = 1000; // total number of trace events (metadata events included)
    uint64_t seed = 1;
    int devices = 1;
    int streams = 1; // per device
    // Paced (default): the GPU keeps pace with the CPU as in a real training loop — mostly short
    // kernels, a launch queue of at most 20 ms of work (a launch past it blocks), and a step
    // every 128-384 launches ending in aten::item > cudaStreamSynchronize that waits for the
    // device to drain. Queued: the first generator, whose GPU work queues up without bound
    // behind the CPU (kept to reproduce earlier figures).
    enum class Shape : uint8_t { Paced, Queued };
    Shape shape = Shape::Paced;
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

// One slice of the program. `events` counts the trace events of its JSON form: a slice is one,
// a launch -> GPU op link two (the flow's s and f), the metadata synthMinimumEvents().
struct SynthSlice {
    enum class Kind : uint8_t { Python, CpuOp, Runtime, Kernel, Memcpy, Memset };
    Kind kind = Kind::CpuOp;
    int device = 0;
    int64_t tid = 0; // CPU thread, or stream for a GPU op
    TimeNs start = 0, dur = 0;
    std::string_view name;
    int64_t externalId = -1, correlation = -1;
    int64_t pythonId = 0, cbid = 0;
    // A kernel's launch configuration, a copy's or a set's size.
    int64_t grid = 0, block = 0, registers = 0, sharedBytes = 0, occupancyPct = 0, bytes = 0;
};

// Where the program goes: one sink per output form.
class SynthSink {
public:
    virtual ~SynthSink() = default;
    virtual void begin(const SynthOptions& options) = 0; // processes, threads, devices
    virtual void slice(const SynthSlice& s) = 0;
    // The launch call -> GPU op link (the two slices came just before, launch first).
    virtual void link(const SynthSlice& launch, const SynthSlice& op) = 0;
    virtual void end() = 0;
};

// The pid the program's CPU side has; its threads are kSynthPid + 1 + device.
constexpr int64_t kSynthPid = 4242;
constexpr int64_t kSynthFirstStream = 7;

// The smallest `events` the options allow (the metadata events come first).
uint64_t synthMinimumEvents(const SynthOptions& options);

// Runs the program into `sink`. False (and `error`) if the options are invalid.
bool generateSynthetic(const SynthOptions& options, SynthSink& sink, SynthTotals* totals,
                       std::string* error);

// The program as Kineto JSON text, streamed to `sink` in pieces.
bool generateSyntheticTrace(const SynthOptions& options,
                            const std::function<void(const char*, size_t)>& sink,
                            SynthTotals* totals, std::string* error);

// Writes a file by its name: ".strata" a Strata recording (through StrataTraceWriter, as the
// collector writes one), ".gz" gzip-compressed JSON (zlib level 6), anything else plain JSON.
bool writeSyntheticTrace(const SynthOptions& options, const std::string& path, SynthTotals* totals,
                         std::string* error);

// The program built straight into a Trace (the render benchmark); null on bad options.
std::shared_ptr<const Trace> buildSyntheticTrace(const SynthOptions& options,
                                                 std::string* error = nullptr);

} // namespace strata
