#include "io/synthetic_trace.h"

#include "io/synthetic_sinks.h"

#include <zlib.h>

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

class Out {
public:
    explicit Out(const std::function<void(const char*, size_t)>& sink) : sink_(sink) {
        buf_.reserve(kFlush + 4096);
    }
    ~Out() { flush(); }
    Out& s(std::string_view v) {
        buf_.append(v);
        maybeFlush();
        return *this;
    }
    Out& i(int64_t v) {
        char tmp[24];
        auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
        buf_.append(tmp, size_t(r.ptr - tmp));
        return *this;
    }
    // Nanoseconds as microseconds with exactly three decimals (Kineto's format).
    Out& us(int64_t ns) {
        i(ns / 1000);
        char frac[5] = {'.', char('0' + (ns / 100) % 10), char('0' + (ns / 10) % 10),
                        char('0' + ns % 10), 0};
        buf_.append(frac, 4);
        return *this;
    }
    // A fixed-point decimal value/10^6 (deterministic "double-looking" args).
    Out& micro(int64_t v) {
        i(v / 1000000);
        char frac[24];
        std::snprintf(frac, sizeof frac, ".%06lld", static_cast<long long>(v % 1000000));
        buf_.append(frac);
        return *this;
    }
    uint64_t bytes() const { return written_ + buf_.size(); }
    void flush() {
        if (buf_.empty()) return;
        sink_(buf_.data(), buf_.size());
        written_ += buf_.size();
        buf_.clear();
    }

private:
    static constexpr size_t kFlush = size_t(1) << 20;
    void maybeFlush() {
        if (buf_.size() >= kFlush) flush();
    }
    const std::function<void(const char*, size_t)>& sink_;
    std::string buf_;
    uint64_t written_ = 0;
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

// Kineto JSON, written as the PyTorch profiler lays it out.
class JsonSink : public SynthSink {
public:
    explicit JsonSink(Out& out) : out(out) {}
    uint64_t metadataEvents = 0;

    void begin(const SynthOptions& o) override {
        out.s("{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [");
        for (int d = 0; d < o.devices; ++d) {
            out.s(d ? ",\n" : "\n").s("    {\n      \"id\": ").i(d);
            out.s(", \"name\": \"Strata Synthetic GPU\", \"totalGlobalMem\": 85899345920,\n"
                  "      \"computeMajor\": 9, \"computeMinor\": 0,\n"
                  "      \"maxThreadsPerBlock\": 1024, \"maxThreadsPerMultiprocessor\": 2048,\n"
                  "      \"regsPerBlock\": 65536, \"regsPerMultiprocessor\": 65536, "
                  "\"warpSize\": 32,\n"
                  "      \"sharedMemPerBlock\": 49152, \"sharedMemPerMultiprocessor\": 233472,\n"
                  "      \"numSms\": 132, \"sharedMemPerBlockOptin\": 232448\n    }");
        }
        out.s("\n  ],\n  \"traceEvents\": [");
        meta("process_name", kHostPid, 0, "name", "python3", true);
        for (int d = 0; d < o.devices; ++d) {
            meta("thread_name", kHostPid, kHostPid + 1 + d, "name",
                 "thread " + std::to_string(kHostPid + 1 + d) + " (python3)", true);
            meta("process_name", d, 0, "name", "python3", true);
            meta("process_labels", d, 0, "labels", "GPU " + std::to_string(d), true);
            meta("process_sort_index", d, 0, "sort_index", std::to_string(5000000 + d), false);
            for (int s = 0; s < o.streams; ++s)
                meta("thread_name", d, kFirstStream + s, "name",
                     "stream " + std::to_string(kFirstStream + s), true);
        }
    }

    void slice(const SynthSlice& e) override {
        switch (e.kind) {
        case K::Python:
            x("python_function", e.name, kHostPid, e.tid, e.start, e.dur);
            out.s("      \"Python parent id\": ").i(e.pythonId > 1 ? e.pythonId - 1 : 0);
            out.s(", \"Python id\": ").i(e.pythonId).s(", \"Python thread\": 0\n    }\n  }");
            break;
        case K::CpuOp:
            x("cpu_op", e.name, kHostPid, e.tid, e.start, e.dur);
            out.s("      \"External id\": ").i(e.externalId);
            if (e.name != "aten::empty")
                out.s(", \"Record function id\": 0, \"Ev Idx\": ").i(e.externalId - 1);
            out.s("\n    }\n  }");
            break;
        case K::Runtime:
            x("cuda_runtime", e.name, kHostPid, e.tid, e.start, e.dur);
            out.s("      \"External id\": ").i(e.externalId).s(", \"cbid\": ").i(e.cbid);
            out.s(", \"correlation\": ").i(e.correlation).s("\n    }\n  }");
            break;
        case K::Kernel:
            x("kernel", e.name, e.device, e.tid, e.start, e.dur);
            out.s("      \"External id\": ")
                .i(e.externalId)
                .s(",\n      \"queued\": 0, \"device\": ");
            out.i(e.device).s(", \"context\": 1,\n      \"stream\": ").i(e.tid);
            out.s(", \"correlation\": ").i(e.correlation).s(",\n      \"registers per thread\": ");
            out.i(e.registers).s(",\n      \"shared memory\": ").i(e.sharedBytes);
            out.s(",\n      \"blocks per SM\": ").micro(e.grid * 1000000 / 132);
            out.s(",\n      \"warps per SM\": ").micro(e.grid * (e.block / 32) * 1000000 / 132);
            out.s(",\n      \"grid\": [").i(e.grid).s(", 1, 1],\n      \"block\": [").i(e.block);
            out.s(", 1, 1],\n      \"est. achieved occupancy %\": ").i(e.occupancyPct);
            out.s("\n    }\n  }");
            break;
        case K::Memcpy:
        case K::Memset:
            x(e.kind == K::Memcpy ? "gpu_memcpy" : "gpu_memset", e.name, e.device, e.tid, e.start,
              e.dur);
            out.s("      \"External id\": ").i(e.externalId).s(",\n      \"device\": ").i(e.device);
            out.s(", \"context\": 1,\n      \"stream\": ").i(e.tid).s(", \"correlation\": ");
            out.i(e.correlation).s(",\n      \"bytes\": ").i(e.bytes);
            out.s(", \"memory bandwidth (GB/s)\": ");
            out.micro(e.bytes * 1000000 / e.dur).s("\n    }\n  }");
            break;
        }
    }

    void link(const SynthSlice& launch, const SynthSlice& op) override {
        flow('s', launch.correlation, kHostPid, launch.tid, launch.start);
        flow('f', launch.correlation, op.device, op.tid, op.start);
    }

    void end() override {
        out.s("\n  ],\n  \"traceName\": \"strata-synth\",\n  \"displayTimeUnit\": \"ms\",\n"
              "  \"baseTimeNanoseconds\": 1700000000000000000\n}\n");
        out.flush();
    }

private:
    Out& out;
    bool first = true;
    void open() {
        out.s(first ? "\n  {\n" : ",\n  {\n");
        first = false;
    }
    void meta(const char* name, int64_t pid, int64_t tid, const char* argKey, const std::string& v,
              bool isString) {
        open();
        out.s("    \"name\": \"").s(name).s("\", \"ph\": \"M\", \"ts\": 0.000, \"pid\": ").i(pid);
        out.s(", \"tid\": ").i(tid).s(",\n    \"args\": {\n      \"").s(argKey).s("\": ");
        if (isString)
            out.s("\"").s(v).s("\"");
        else
            out.s(v);
        out.s("\n    }\n  }");
        ++metadataEvents;
    }
    void x(const char* cat, std::string_view name, int64_t pid, int64_t tid, int64_t ts,
           int64_t dur) {
        open();
        out.s("    \"ph\": \"X\", \"cat\": \"").s(cat).s("\", \"name\": \"").s(name);
        out.s("\", \"pid\": ").i(pid).s(", \"tid\": ").i(tid).s(",\n    \"ts\": ").us(ts);
        out.s(", \"dur\": ").us(dur).s(",\n    \"args\": {\n");
    }
    void flow(char ph, int64_t id, int64_t pid, int64_t tid, int64_t ts) {
        open();
        out.s("    \"ph\": \"").s(std::string_view(&ph, 1)).s("\", \"id\": ").i(id);
        out.s(", \"pid\": ").i(pid).s(", \"tid\": ").i(tid).s(", \"ts\": ").us(ts);
        out.s(", \"cat\": \"ac2g\", \"name\": \"ac2g\"");
        if (ph == 'f') out.s(", \"bp\": \"e\"");
        out.s("\n  }");
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

bool generateSyntheticTrace(const SynthOptions& o,
                            const std::function<void(const char*, size_t)>& sink,
                            SynthTotals* totals, std::string* error) {
    Out out(sink);
    JsonSink json(out);
    SynthTotals t;
    if (!generateSynthetic(o, json, &t, error)) return false;
    t.bytes = out.bytes();
    if (totals) *totals = std::move(t);
    return true;
}

bool writeSyntheticTrace(const SynthOptions& o, const std::string& path, SynthTotals* totals,
                         std::string* error) {
    if (path.size() > 7 && path.compare(path.size() - 7, 7, ".strata") == 0)
        return writeSyntheticStrata(o, path, totals, error);
    const bool gz = path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
    bool ioFailed = false;
    if (gz) {
        gzFile f = gzopen(path.c_str(), "wb6");
        if (!f) {
            if (error) *error = path + ": cannot open for writing";
            return false;
        }
        gzbuffer(f, 1 << 20);
        const bool ok = generateSyntheticTrace(
            o,
            [&](const char* p, size_t n) {
                if (!ioFailed && gzwrite(f, p, unsigned(n)) != int(n)) ioFailed = true;
            },
            totals, error);
        if (gzclose(f) != Z_OK) ioFailed = true;
        if (ok && ioFailed && error) *error = path + ": write failed";
        return ok && !ioFailed;
    }
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) {
        if (error) *error = path + ": cannot open for writing";
        return false;
    }
    const bool ok = generateSyntheticTrace(
        o,
        [&](const char* p, size_t n) {
            if (!ioFailed && std::fwrite(p, 1, n, f) != n) ioFailed = true;
        },
        totals, error);
    if (std::fclose(f) != 0) ioFailed = true;
    if (ok && ioFailed && error) *error = path + ": write failed";
    return ok && !ioFailed;
}

} // namespace strata
