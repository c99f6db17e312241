// The synthetic program as Kineto JSON (synthetic_trace.h): its sink, streamed in pieces, and
// the file writer that picks the form by the file's name.
#include "io/synthetic/synthetic_sinks.h"
#include "io/synthetic/synthetic_trace.h"
#include "util/output_file.h"

#include <zlib.h>

#include <charconv>
#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace strata {
namespace {

constexpr int64_t kHostPid = kSynthPid;
constexpr int64_t kFirstStream = kSynthFirstStream;
using K = SynthSlice::Kind;

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
    std::string why;
    const std::unique_ptr<OutputFile> file = OutputFile::open(path, &why);
    if (!file) {
        if (error) *error = why;
        return false;
    }
    bool ioFailed = false;
    gzFile z = nullptr;
    if (gz) {
        const int fd = ::dup(fileno(file->stream())); // gzclose closes its own
        z = fd < 0 ? nullptr : gzdopen(fd, "wb6");
        if (!z) {
            if (fd >= 0) ::close(fd);
            if (error) *error = path + ": cannot start a gzip stream";
            return false;
        }
        gzbuffer(z, 1 << 20);
    }
    std::FILE* f = file->stream();
    const bool ok = generateSyntheticTrace(
        o,
        [&](const char* p, size_t n) {
            if (ioFailed) return;
            ioFailed = z ? gzwrite(z, p, unsigned(n)) != int(n) : std::fwrite(p, 1, n, f) != n;
        },
        totals, error);
    if (z && gzclose(z) != Z_OK) ioFailed = true;
    if (!ok) return false; // the temporary removed: nothing left under the name
    if (ioFailed) {
        if (error) *error = path + ": write failed";
        return false;
    }
    return file->commit(error ? error : &why);
}

} // namespace strata
