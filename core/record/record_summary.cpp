#include "record/record_summary.h"

#include "analysis/trace_info.h"
#include "contract/collector_env.h"
#include "io/trace_loader.h"
#include "util/terminal_text.h"

#include <cinttypes>
#include <cstdio>
#include <sys/stat.h>

namespace strata {

TraceFileSummary summarizeTraceFile(const std::string& path) {
    TraceFileSummary s;
    s.path = path;
    struct stat st {};
    if (stat(path.c_str(), &st) == 0) s.bytes = uint64_t(st.st_size);
    const LoadResult r = loadTrace(path);
    if (!r.ok()) {
        s.error = r.error ? r.error->toString() : "unknown load error";
        return s;
    }
    s.loaded = true;
    const Trace& t = *r.trace;
    s.slices = t.sliceCount();
    for (const Track& track : t.tracks()) {
        if (track.kind != TrackKind::GpuStream) continue;
        s.gpuOps += track.slices.size();
        for (SliceKind k : track.slices.kind) s.kernels += k == SliceKind::Kernel;
    }
    s.warnings = t.warnings();
    const auto& meta = t.metadata();
    if (auto it = meta.find(collector_env::kMetaCudaInitialized); it != meta.end())
        s.cudaInitialized = it->second == "0" ? 0 : 1;
    if (auto it = meta.find(collector_env::kMetaCuptiError); it != meta.end())
        s.cuptiError = it->second;
    s.noGpuReason = explainMissingGpuActivity(t);
    return s;
}

namespace {

std::string humanBytes(uint64_t n) {
    char buf[32];
    if (n < 10'000)
        std::snprintf(buf, sizeof buf, "%" PRIu64 " B", n);
    else if (n < 10'000'000)
        std::snprintf(buf, sizeof buf, "%.1f kB", double(n) / 1e3);
    else if (n < 10'000'000'000ull)
        std::snprintf(buf, sizeof buf, "%.1f MB", double(n) / 1e6);
    else
        std::snprintf(buf, sizeof buf, "%.2f GB", double(n) / 1e9);
    return buf;
}

} // namespace

std::string formatTraceFileSummary(const TraceFileSummary& s) {
    char buf[256];
    std::string out = "  " + terminalSafe(s.path) + "  " + humanBytes(s.bytes);
    if (!s.loaded) return out + "  cannot load: " + terminalSafe(s.error) + "\n";
    std::snprintf(buf, sizeof buf,
                  "  %" PRIu64 " slices, %" PRIu64 " kernels, %" PRIu64 " GPU ops\n", s.slices,
                  s.kernels, s.gpuOps);
    out += buf;
    if (s.cudaInitialized == 0)
        out += "    the target never initialized CUDA (the trace keeps its CPU/process data)\n";
    if (!s.cuptiError.empty())
        out += "    CUPTI could not be used: " + terminalSafe(s.cuptiError) + "\n";
    if (!s.noGpuReason.empty() && s.cudaInitialized != 0 && s.cuptiError.empty())
        out += "    " + terminalSafe(s.noGpuReason) + "\n";
    for (const auto& w : s.warnings) out += "    warning: " + terminalSafe(w) + "\n";
    return out;
}

} // namespace strata
