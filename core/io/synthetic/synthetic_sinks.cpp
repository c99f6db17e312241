#include "io/synthetic/synthetic_sinks.h"
#include "util/output_file.h"

#include "io/strata/strata_trace_writer.h"
#include "model/build/trace_builder.h"

#include <unordered_map>

namespace strata {
namespace {

using K = SynthSlice::Kind;

// The generator's names are JSON text ("nn.Module: \"quoted\"_2"); a trace holds the string.
std::string unescaped(std::string_view s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\\' && i + 1 < s.size()) ++i;
        out += s[i];
    }
    return out;
}

SliceKind sliceKind(K k) {
    switch (k) {
    case K::Python:
        return SliceKind::PythonFunction;
    case K::CpuOp:
        return SliceKind::CpuOp;
    case K::Runtime:
        return SliceKind::CudaRuntime;
    case K::Kernel:
        return SliceKind::Kernel;
    case K::Memcpy:
        return SliceKind::Memcpy;
    case K::Memset:
        return SliceKind::Memset;
    }
    return SliceKind::Generic;
}

bool isGpu(K k) {
    return k == K::Kernel || k == K::Memcpy || k == K::Memset;
}

GpuActivity gpuActivity(const SynthSlice& e) {
    GpuActivity g;
    g.device = e.device;
    g.stream = e.tid;
    g.context = 1;
    if (e.kind == K::Kernel) {
        g.grid = {int32_t(e.grid), 1, 1};
        g.block = {int32_t(e.block), 1, 1};
        g.registersPerThread = int32_t(e.registers);
        g.staticSharedBytes = int32_t(e.sharedBytes);
    } else {
        g.bytes = e.bytes;
        g.copyKind = e.kind == K::Memcpy ? 1 : 0;  // HtoD
        g.srcMemory = e.kind == K::Memcpy ? 1 : 0; // pageable
        g.dstMemory = 3;                           // device
    }
    return g;
}

void deviceInfo(int d, DeviceInfo* out) {
    out->id = d;
    out->name = "Strata Synthetic GPU";
    out->smCount = 132;
    out->totalMemoryBytes = 85899345920;
    out->computeMajor = 9;
    out->computeMinor = 0;
}

// As the collector records: CPU slices with their correlation ids, GPU ops with their
// activity; the launch -> op link is the shared correlation id.
class StrataSink : public SynthSink {
public:
    explicit StrataSink(StrataTraceWriter& w) : w_(w) {}
    void begin(const SynthOptions& o) override {
        w_.metadata("command_line", "strata-cli synth (synthetic)");
        w_.metadata("cuda_initialized", "1");
        w_.process(kSynthPid, "python3");
        for (int d = 0; d < o.devices; ++d) {
            const int64_t tid = kSynthPid + 1 + d;
            w_.thread(kSynthPid, tid, "thread " + std::to_string(tid) + " (python3)");
            DeviceInfo dev;
            deviceInfo(d, &dev);
            w_.device(dev);
        }
    }
    void slice(const SynthSlice& e) override {
        const uint32_t name = nameId(e.name);
        if (isGpu(e.kind))
            w_.gpuOp(e.start, e.start + e.dur, name, sliceKind(e.kind), gpuActivity(e),
                     e.correlation);
        else
            w_.cpuSlice(kSynthPid, e.tid, e.start, e.start + e.dur, name, sliceKind(e.kind),
                        e.correlation, 0);
    }
    void link(const SynthSlice&, const SynthSlice&) override {} // by correlation id
    void end() override {}

private:
    uint32_t nameId(std::string_view n) {
        auto it = names_.find(n);
        if (it == names_.end()) it = names_.emplace(n, w_.string(unescaped(n))).first;
        return it->second;
    }
    StrataTraceWriter& w_;
    std::unordered_map<std::string_view, uint32_t> names_;
};

// Straight into a builder, as the JSON reader would build the JSON form.
class BuilderSink : public SynthSink {
public:
    explicit BuilderSink(TraceBuilder& b) : b_(b) {}
    void begin(const SynthOptions& o) override {
        b_.setProcessName(kSynthPid, b_.intern("python3"));
        for (int d = 0; d < o.devices; ++d) {
            const int64_t tid = kSynthPid + 1 + d;
            b_.setThreadName(kSynthPid, tid,
                             b_.intern("thread " + std::to_string(tid) + " (python3)"));
            b_.setProcessName(d, b_.intern("python3"));
            b_.addProcessLabel(d, b_.intern("GPU " + std::to_string(d)));
            b_.setProcessSortIndex(d, 5000000 + d);
            DeviceInfo dev;
            deviceInfo(d, &dev);
            b_.addDevice(dev);
        }
        for (K k : {K::Python, K::CpuOp, K::Runtime, K::Kernel, K::Memcpy, K::Memset})
            category_[int(k)] = b_.intern(sliceKindName(sliceKind(k)));
    }
    void slice(const SynthSlice& e) override {
        SliceInput in;
        in.start = e.start;
        in.dur = e.dur;
        in.name = nameId(e.name);
        in.kind = sliceKind(e.kind);
        in.category = category_[int(e.kind)];
        in.correlation = e.correlation;
        in.externalId = e.externalId;
        if (isGpu(e.kind)) {
            const GpuActivity g = gpuActivity(e);
            in.gpu = &g;
            b_.addSlice(b_.gpuStreamTrack(e.device, e.tid, e.device, e.tid), in);
        } else {
            b_.addSlice(b_.threadTrack(kSynthPid, e.tid), in);
        }
    }
    void link(const SynthSlice&, const SynthSlice&) override {} // by correlation id
    void end() override {}

private:
    StringId nameId(std::string_view n) {
        auto it = names_.find(n);
        if (it == names_.end()) it = names_.emplace(n, b_.intern(unescaped(n))).first;
        return it->second;
    }
    TraceBuilder& b_;
    std::unordered_map<std::string_view, StringId> names_;
    StringId category_[6] = {};
};

} // namespace

bool writeSyntheticStrata(const SynthOptions& o, const std::string& path, SynthTotals* totals,
                          std::string* error) {
    // Written whole into a temporary beside `path`, renamed when complete (util/output_file.h).
    std::string why;
    const std::unique_ptr<OutputFile> file = OutputFile::open(path, &why);
    StrataTraceWriter w;
    if (!file || !w.openOn(fileno(file->stream()), path, &why)) {
        if (error) *error = why;
        return false;
    }
    StrataSink sink(w);
    SynthTotals t;
    if (!generateSynthetic(o, sink, &t, error)) return false;
    if (!w.close()) {
        if (error) *error = w.lastError();
        return false;
    }
    t.bytes = w.bytesWritten();
    if (!file->commit(&why)) {
        if (error) *error = why;
        return false;
    }
    if (totals) *totals = std::move(t);
    return true;
}

std::shared_ptr<const Trace> buildSyntheticTrace(const SynthOptions& o, std::string* error) {
    TraceBuilder b;
    BuilderSink sink(b);
    if (!generateSynthetic(o, sink, nullptr, error)) return nullptr;
    return b.build();
}

} // namespace strata
