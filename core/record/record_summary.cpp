#include "record/record_summary.h"

#include "io/trace_loader.h"
#include "record/collector_env.h"

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
    return s;
}

std::string formatTraceFileSummary(const TraceFileSummary& s) {
    char buf[256];
    const double mb = double(s.bytes) / 1e6;
    std::string out = "  " + s.path;
    if (!s.loaded) {
        std::snprintf(buf, sizeof buf, "  %.1f MB  cannot load: ", mb);
        return out + buf + s.error + "\n";
    }
    std::snprintf(buf, sizeof buf,
                  "  %.1f MB  %" PRIu64 " slices, %" PRIu64 " kernels, %" PRIu64 " GPU ops\n", mb,
                  s.slices, s.kernels, s.gpuOps);
    out += buf;
    if (s.cudaInitialized == 0)
        out += "    the target never initialized CUDA (the trace keeps its CPU/process data)\n";
    if (!s.cuptiError.empty()) out += "    CUPTI could not be used: " + s.cuptiError + "\n";
    for (const auto& w : s.warnings) out += "    warning: " + w + "\n";
    return out;
}

} // namespace strata
