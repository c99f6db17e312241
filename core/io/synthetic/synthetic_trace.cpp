// The synthetic program (synthetic_trace.h): the made-up CUDA program, run into a sink; its
// JSON form is synthetic_json.cpp, the .strata and in-memory forms synthetic_sinks.cpp.
#include "io/synthetic/synthetic_trace.h"

#include "io/synthetic/synthetic_sinks.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>

namespace strata {
namespace {

// splitmix64: small, fast and the same everywhere.
struct Rng {
    uint64_t s;
    uint64_t next() {
        uint64_t z = (s += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    int64_t range(int64_t lo, int64_t hi) { return lo + int64_t(next() % uint64_t(hi - lo + 1)); }
};

constexpr int64_t kHostPid = kSynthPid;
constexpr int64_t kFirstStream = kSynthFirstStream;
constexpr int64_t kStartNs = 1000000; // 1 ms after baseTimeNanoseconds

const char* const kKernelNames[] = {
    "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
    "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, "
    "at::detail::Array<char*, 3>)",
    "sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_"
    "segment_k_off_kernel__5x_cublas",
    "void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, "
    "at::native::(anonymous namespace)::SoftMaxForwardEpilogue>(float*, float const*, int)",
    "ampere_sgemm_128x64_tn",
    "void flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, "
    "cutlass::half_t> >(Flash_fwd_params)",
    "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, "
    "at::native::MeanOps<float, float, float, float>, unsigned int, float, 4> >(...)",
};
const char* const kOps[] = {
    "aten::linear", "aten::add", "aten::softmax", "aten::mm", "aten::scaled_dot_product_attention",
    "aten::mean"};
// As JSON text: the fifth holds escaped quotes (the JSON sink writes names as they are).
const char* const kModules[] = {
    "nn.Module: Linear_0",         "nn.Module: Attention_1",
    "model.py(42): forward",       "torch/nn/functional.py(1890): softmax",
    "nn.Module: \\\"quoted\\\"_2", "nn.Module: MLP_3"};

using K = SynthSlice::Kind;

// The program: slices in time order per thread, counted as JSON events.
struct Program {
    const SynthOptions& o;
    SynthTotals& t;
    SynthSink& sink;
    Rng rng;
    uint64_t written = 0;
    int64_t correlation = 1;
    int64_t externalId = 1;
    int64_t pythonId = 1;
    std::vector<int64_t> cpuNow;     // per device CPU thread cursor
    std::vector<int64_t> streamFree; // device * streams + stream
    std::vector<uint64_t> stepLeft;  // per device: launches until its step's sync (Paced)

    bool paced() const { return o.shape == SynthOptions::Shape::Paced; }

    // Paced: most kernels short, some long, as in a training step (mean about 18 us, about what
    // the CPU takes per launch: GPU-bound and CPU-bound stretches alternate).
    // Queued: the first generator's 1.5-150 us, which the CPU outruns without bound.
    int64_t kernelDuration() {
        if (!paced()) return rng.range(1500, 150000);
        const uint64_t r = rng.next() % 100;
        return r < 75   ? rng.range(2000, 12000)
               : r < 97 ? rng.range(12000, 60000)
                        : rng.range(60000, 300000);
    }

    // The latest time a stream of `device` is busy until.
    int64_t deviceFree(int device) const {
        int64_t last = 0;
        for (int k = 0; k < o.streams; ++k)
            last = std::max(last, streamFree[size_t(device * o.streams + k)]);
        return last;
    }

    // Paced: the end of a step — aten::item > cudaStreamSynchronize on the device's thread,
    // blocked until its streams drain (the loss read back each step). Two events.
    void stepSync(int device) {
        int64_t& now = cpuNow[size_t(device)];
        SynthSlice s;
        s.device = device;
        s.tid = kHostPid + 1 + device;
        s.kind = K::CpuOp;
        s.name = "aten::item";
        s.start = now;
        s.externalId = externalId++;
        SynthSlice sync = s;
        sync.kind = K::Runtime;
        sync.name = "cudaStreamSynchronize";
        sync.start = now + rng.range(500, 2000);
        sync.dur = std::max(deviceFree(device), sync.start) + rng.range(3000, 12000) - sync.start;
        sync.cbid = 131;
        sync.correlation = correlation++;
        s.dur = sync.start + sync.dur + rng.range(300, 1500) - s.start;
        emit(s);
        emit(sync);
        t.cpuSlices += 2;
        now = s.start + s.dur + rng.range(5000, 30000); // the optimizer step's host work
        stepLeft[size_t(device)] = uint64_t(rng.range(128, 384));
    }

    void emit(const SynthSlice& s) {
        if (t.firstNs == 0 || s.start < t.firstNs) t.firstNs = s.start;
        t.lastNs = std::max(t.lastNs, s.start + s.dur);
        ++written;
        sink.slice(s);
    }

    // One launch: [python_function >] cpu_op > cuda_runtime, then the GPU op and its link.
    // kind 0 kernel, 1 memcpy, 2 memset. Returns the number of events.
    static uint64_t unitEvents(int kind) { return kind == 0 ? 6 : 5; }

    void unit(int device, int kind) {
        if (paced() && stepLeft[size_t(device)]-- == 0) return stepSync(device);
        const int64_t tid = kHostPid + 1 + device;
        int64_t& now = cpuNow[size_t(device)];
        const int64_t ext = externalId++;
        const int64_t corr = correlation++;
        int64_t launchDur = rng.range(2500, 8000);
        const bool withPython = kind == 0;
        const int64_t pyStart = now;
        const int64_t opStart = pyStart + (withPython ? rng.range(500, 2000) : 0);
        const int64_t rtStart = opStart + rng.range(800, 3000);
        // Paced: a launch queue of at most kMaxLead of work; past it the call blocks until the
        // stream has room (cudaLaunchKernel waits for a free slot).
        // (Queued draws the stream later, as the first generator did: its output stays the same.)
        constexpr int64_t kMaxLead = 20'000'000;
        int64_t stream = -1;
        if (paced()) {
            stream = kFirstStream + int64_t(rng.next() % uint64_t(o.streams));
            const int64_t free = streamFree[size_t(device * o.streams + (stream - kFirstStream))];
            if (free - kMaxLead > rtStart + launchDur) launchDur = free - kMaxLead - rtStart;
        }
        const int64_t rtEnd = rtStart + launchDur;
        const int64_t opEnd = rtEnd + rng.range(300, 1500);
        const int64_t pyEnd = opEnd + (withPython ? rng.range(200, 1000) : 0);
        SynthSlice s;
        s.device = device;
        s.tid = tid;
        if (withPython) {
            s.kind = K::Python;
            s.name = kModules[rng.next() % 6];
            s.start = pyStart;
            s.dur = pyEnd - pyStart;
            s.pythonId = pythonId++;
            emit(s);
            ++t.cpuSlices;
        }
        s.kind = K::CpuOp;
        s.name = kind == 0 ? kOps[rng.next() % 6] : kind == 1 ? "aten::copy_" : "aten::zero_";
        s.start = opStart;
        s.dur = opEnd - opStart;
        s.externalId = ext;
        emit(s);
        SynthSlice launch = s;
        launch.kind = K::Runtime;
        launch.name = kind == 0   ? "cudaLaunchKernel"
                      : kind == 1 ? "cudaMemcpyAsync"
                                  : "cudaMemsetAsync";
        launch.start = rtStart;
        launch.dur = launchDur;
        launch.cbid = kind == 0 ? 211 : 41;
        launch.correlation = corr;
        emit(launch);
        t.cpuSlices += 2;

        if (stream < 0) stream = kFirstStream + int64_t(rng.next() % uint64_t(o.streams));
        int64_t& free = streamFree[size_t(device * o.streams + (stream - kFirstStream))];
        SynthSlice op;
        op.device = device;
        op.tid = stream;
        op.externalId = ext;
        op.correlation = corr;
        op.start = std::max(rtStart + rng.range(2000, 6000), free + rng.range(0, 3000));
        if (kind == 0) {
            // As in real programs, a kernel function has one register count and static shared
            // memory, and is launched with a few shapes (what the .strata reader's value
            // sharing sees in real recordings).
            const uint64_t k = rng.next() % 6, shape = rng.next() % 4;
            op.kind = K::Kernel;
            op.dur = kernelDuration();
            op.grid = int64_t(64 << (k % 3)) * int64_t(1 + shape);
            op.block = 128 << (shape % 2);
            op.name = kKernelNames[k];
            op.registers = 32 + 24 * int64_t(k);
            op.sharedBytes = 4096 * int64_t(k);
            op.occupancyPct = 25 + 10 * int64_t(shape);
            ++t.kernels;
            ++t.kernelsPerDevice[size_t(device)];
            t.kernelTimeNsPerDevice[size_t(device)] += op.dur;
        } else {
            op.kind = kind == 1 ? K::Memcpy : K::Memset;
            // Paced: 4 KiB to 4 MiB (an input batch, a parameter); Queued: up to 64 MiB.
            op.bytes = 4096 * rng.range(1, paced() ? 1024 : 16384);
            op.dur = 1000 + op.bytes / 20; // ~20 GB/s
            op.name = kind == 1 ? "Memcpy HtoD (Pageable -> Device)" : "Memset (Device)";
            ++(kind == 1 ? t.memcpys : t.memsets);
        }
        emit(op);
        free = op.start + op.dur;
        written += 2;
        sink.link(launch, op);
        ++t.flowPairs;
        // Launch gaps: usually short, now and then a long host stall.
        now = pyEnd + (rng.next() % 50 == 0 ? rng.range(50000, 500000) : rng.range(200, 4000));
    }

    void filler(int device) {
        int64_t& now = cpuNow[size_t(device)];
        SynthSlice s;
        s.kind = K::CpuOp;
        s.device = device;
        s.tid = kHostPid + 1 + device;
        s.name = "aten::empty";
        s.start = now;
        s.dur = rng.range(300, 2000);
        s.externalId = externalId++;
        emit(s);
        ++t.cpuSlices;
        now += s.dur + rng.range(100, 1000);
    }
};

} // namespace

uint64_t synthMinimumEvents(const SynthOptions& o) {
    // host process_name, per device: thread_name (CPU), process_name, process_labels,
    // process_sort_index, and one thread_name per stream.
    return 1 + uint64_t(o.devices) * (4 + uint64_t(o.streams));
}

bool generateSynthetic(const SynthOptions& o, SynthSink& sink, SynthTotals* totals,
                       std::string* error) {
    if (o.devices < 1 || o.devices > 1024 || o.streams < 1 || o.streams > 1024) {
        if (error) *error = "--devices and --streams must be between 1 and 1024";
        return false;
    }
    if (o.events < synthMinimumEvents(o)) {
        if (error)
            *error = "--events must be at least " + std::to_string(synthMinimumEvents(o)) +
                     " for these devices and streams (metadata events)";
        return false;
    }
    SynthTotals t;
    t.kernelsPerDevice.assign(size_t(o.devices), 0);
    t.kernelTimeNsPerDevice.assign(size_t(o.devices), 0);
    Program g{o, t, sink, Rng{o.seed}, 0, 1, 1, 1, {}, {}, {}};
    g.cpuNow.assign(size_t(o.devices), kStartNs);
    g.stepLeft.assign(size_t(o.devices), 256);
    g.streamFree.assign(size_t(o.devices * o.streams), 0);
    sink.begin(o);
    g.written = synthMinimumEvents(o);
    t.metadataEvents = g.written;
    uint64_t unitIndex = 0;
    while (g.written < o.events) {
        const uint64_t left = o.events - g.written;
        const int device = int(unitIndex++ % uint64_t(o.devices));
        const uint64_t r = g.rng.next() % 100;
        // Paced: a step's copies and sets are few (4 % each); Queued: 12 % and 8 %.
        const int kind = g.paced() ? (r < 92 ? 0 : r < 96 ? 1 : 2) : (r < 80 ? 0 : r < 92 ? 1 : 2);
        if (left >= Program::unitEvents(kind))
            g.unit(device, kind);
        else
            g.filler(device);
    }
    sink.end();
    t.events = g.written;
    if (totals) *totals = std::move(t);
    return true;
}

} // namespace strata
