#pragma once
// Host side of Strata's in-kernel sections (strata/sections.cuh): allocates the device buffer,
// hands it to the kernel, and after the launch takes the records back and delivers them:
//   - to the Strata collector when the program runs under it (strata-cli record, the GUI's Launch
//     dialog): the records go into the trace, attached to that kernel launch (by CUPTI
//     correlation id), with the section names and the SM clock rate;
//   - otherwise to a small .sections file (STRATA_SECTIONS_FILE, or strata-<pid>.sections in the
//     working directory), one block per launch, which Strata opens on its own or beside a trace.
//
//     strata::SectionsRecorder rec({"load", "compute", "store"});
//     auto buf = rec.arm(stream);                 // before the launch: zeroes the counter
//     matmul<<<grid, block, 0, stream>>>(..., buf);
//     rec.collect("matmul", stream);              // right after it (same thread)
//
// Cost: arm() is one cudaMemsetAsync of 8 bytes; collect() synchronizes the stream and copies
// the counter and the records back (48 bytes each), so call it where a sync is acceptable (after
// the measured launch, not inside a pipelined loop). The collector notes launch correlation ids
// only after the first arm(). Header-only; needs the CUDA runtime and libdl.
#include "strata/sections.cuh"
#include "strata/sections_abi.h"

#include <cuda_runtime.h>
#include <dlfcn.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace strata {

namespace sections_detail {

// The collector is loaded by the CUDA driver from CUDA_INJECTION64_PATH with dlopen, and so with
// RTLD_LOCAL: its symbols are not in the global scope that RTLD_DEFAULT searches. The library is
// therefore looked up by that path (RTLD_NOLOAD: only if the driver already loaded it); a
// collector linked or preloaded into the program is found through RTLD_DEFAULT.
inline void* collectorLibrary() {
    static void* found =
        nullptr; // kept once found; looked up again until then (CUDA may start late)
    if (found) return found;
    const char* path = std::getenv("CUDA_INJECTION64_PATH");
    if (path && *path) found = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
    return found;
}

template <typename F> F collectorSymbol(const char* name) {
    if (void* library = collectorLibrary())
        if (void* symbol = dlsym(library, name)) return reinterpret_cast<F>(symbol);
    return reinterpret_cast<F>(dlsym(RTLD_DEFAULT, name));
}

inline int collectorArm() {
    auto f = collectorSymbol<int (*)()>("strata_collector_sections_arm");
    return f ? f() : 0;
}

inline int64_t collectorLastLaunch() {
    auto f = collectorSymbol<int64_t (*)()>("strata_collector_last_launch");
    return f ? f() : -1;
}

inline int collectorSubmit(const StrataSectionsSubmission& s) {
    auto f = collectorSymbol<int (*)(const StrataSectionsSubmission*)>(
        "strata_collector_sections_submit");
    return f ? f(&s) : 0;
}

inline std::string fallbackPath() {
    if (const char* p = std::getenv("STRATA_SECTIONS_FILE"); p && *p) return p;
    return "strata-" + std::to_string(getpid()) + ".sections";
}

// Appends one launch block (the layout of docs/sections.md) to `path`.
inline bool appendSectionsFile(const std::string& path, const StrataSectionsSubmission& s,
                               std::string* error) {
    std::FILE* f = std::fopen(path.c_str(), "ab");
    if (!f) {
        if (error) *error = "cannot open " + path + " for writing";
        return false;
    }
    std::vector<unsigned char> out;
    auto put = [&](const void* p, size_t n) {
        const auto* c = static_cast<const unsigned char*>(p);
        out.insert(out.end(), c, c + n);
    };
    auto putString = [&](const char* text) {
        const std::string t = text ? text : "";
        const uint32_t n = uint32_t(t.size());
        put(&n, 4);
        put(t.data(), n);
    };
    const uint32_t version = 1;
    put("STRSECT1", 8);
    put(&version, 4);
    put(&s.correlation, 8);
    put(&s.device, 4);
    put(&s.scope, 4);
    put(&s.clock_hz, 8);
    put(&s.attempted, 8);
    put(&s.record_count, 8);
    putString(s.kernel);
    put(&s.name_count, 4);
    for (uint32_t i = 0; i < s.name_count; ++i) putString(s.names[i]);
    bool ok = std::fwrite(out.data(), 1, out.size(), f) == out.size();
    const size_t bytes = size_t(s.record_count) * sizeof(SectionRecord);
    ok = ok && (bytes == 0 || std::fwrite(s.records, 1, bytes, f) == bytes);
    ok = std::fclose(f) == 0 && ok;
    if (!ok && error) *error = "cannot write " + path;
    return ok;
}

enum class Delivery { Collector, File, Failed };

// The records of one launch to the collector, or else to the fallback file.
inline Delivery deliver(const StrataSectionsSubmission& s, std::string* filePath,
                        std::string* error) {
    if (collectorSubmit(s)) return Delivery::Collector;
    const std::string path = fallbackPath();
    if (filePath) *filePath = path;
    return appendSectionsFile(path, s, error) ? Delivery::File : Delivery::Failed;
}

} // namespace sections_detail

using SectionsDelivery = sections_detail::Delivery;

class SectionsRecorder {
public:
    explicit SectionsRecorder(std::vector<std::string> names, uint32_t capacity = 1u << 16,
                              SectionsScope scope = kPerBlock)
        : names_(std::move(names)), capacity_(capacity), scope_(scope) {
        cudaGetDevice(&device_);
        int khz = 0;
        if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device_) == cudaSuccess)
            clockHz_ = double(khz) * 1000.0;
        if (cudaMalloc(&records_, size_t(capacity_) * sizeof(SectionRecord)) != cudaSuccess ||
            cudaMalloc(&count_, sizeof(SectionsU64)) != cudaSuccess)
            error_ = "cudaMalloc of the sections buffer failed";
        sections_detail::collectorArm();
    }
    ~SectionsRecorder() {
        cudaFree(records_);
        cudaFree(count_);
    }
    SectionsRecorder(const SectionsRecorder&) = delete;
    SectionsRecorder& operator=(const SectionsRecorder&) = delete;

    // The buffer for the next launch (its counter zeroed on `stream`).
    SectionsBuffer arm(cudaStream_t stream = 0) {
        cudaMemsetAsync(count_, 0, sizeof(SectionsU64), stream);
        return SectionsBuffer{records_, count_, capacity_, ++launch_};
    }

    // After the launch on `stream`, on the thread that launched it: waits for the stream, copies
    // the records back and delivers them (to the collector, or to the .sections file).
    SectionsDelivery collect(const char* kernelName, cudaStream_t stream = 0) {
        const int64_t correlation = sections_detail::collectorLastLaunch(); // before any CUDA call
        SectionsU64 attempted = 0;
        if (cudaStreamSynchronize(stream) != cudaSuccess ||
            cudaMemcpy(&attempted, count_, sizeof attempted, cudaMemcpyDeviceToHost) !=
                cudaSuccess) {
            error_ = "cannot read the sections buffer back";
            return SectionsDelivery::Failed;
        }
        const uint64_t n = attempted < capacity_ ? attempted : capacity_;
        host_.resize(size_t(n));
        if (n && cudaMemcpy(host_.data(), records_, size_t(n) * sizeof(SectionRecord),
                            cudaMemcpyDeviceToHost) != cudaSuccess) {
            error_ = "cannot copy the section records back";
            return SectionsDelivery::Failed;
        }
        std::vector<const char*> names;
        for (const std::string& s : names_) names.push_back(s.c_str());
        StrataSectionsSubmission s{};
        s.version = STRATA_SECTIONS_ABI_VERSION;
        s.scope = uint32_t(scope_);
        s.device = device_;
        s.name_count = uint32_t(names.size());
        s.names = names.data();
        s.kernel = kernelName;
        s.clock_hz = clockHz_;
        s.records = host_.data();
        s.record_count = n;
        s.attempted = attempted;
        s.correlation = correlation;
        lost_ = attempted - n;
        return sections_detail::deliver(s, &filePath_, &error_);
    }

    uint64_t lostLastLaunch() const { return lost_; } // records past the capacity
    double clockHz() const { return clockHz_; }
    const std::string& filePath() const { return filePath_; } // when delivered to a file
    const std::string& error() const { return error_; }

private:
    std::vector<std::string> names_;
    uint32_t capacity_;
    SectionsScope scope_;
    int device_ = 0;
    double clockHz_ = 0;
    SectionRecord* records_ = nullptr;
    SectionsU64* count_ = nullptr;
    SectionsU32 launch_ = 0;
    uint64_t lost_ = 0;
    std::vector<SectionRecord> host_;
    std::string filePath_, error_;
};

} // namespace strata
