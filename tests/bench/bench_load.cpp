// strata-bench load FILE [--one-thread] [--preview] [--live-rows MB]: loads a trace with
// loadTrace() (up to TraceBuilder::build() returning) and prints one JSON object. MB = 10^6 bytes;
// mb_per_s = file bytes / seconds / 10^6; peak RSS is getrusage(RUSAGE_SELF).ru_maxrss of the whole
// process (KiB, printed in MB of 10^6 bytes); cpu_s is the CPU time of all threads, steal_pct the
// machine's CPU time stolen by the host.
#include "bench_commands.h"
#include "cpu_steal.h"

#include "io/load_preview.h"
#include "io/trace_loader.h"

#include <sys/resource.h>
#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace {

std::string jsonEscape(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
        } else {
            out += c;
        }
    }
    return out;
}

} // namespace

int strata::bench::load(const Args& args) {
    LoadOptions options;
    bool oneThread = false, preview = false, bad = args.empty() || args[0] == "--help";
    double liveRowsMb = 0;
    for (size_t i = 1; i < args.size(); ++i) {
        if (args[i] == "--live-rows" && i + 1 < args.size()) {
            liveRowsMb = std::atof(args[++i].c_str());
            bad = bad || liveRowsMb <= 0;
            continue;
        }
        oneThread = oneThread || args[i] == "--one-thread";
        preview = preview || args[i] == "--preview";
        bad = bad || (args[i] != "--one-thread" && args[i] != "--preview");
    }
    if (bad) {
        std::fprintf(stderr, "usage: strata-bench load FILE [--one-thread] [--preview] "
                             "[--live-rows MB]\n"
                             "  --one-thread: .strata files read on the calling thread only\n"
                             "  --preview: ask for previews while loading (the GUI's first\n"
                             "             picture); prints when the first came and how many\n"
                             "  --live-rows MB: read as the live view reads a long run's file,\n"
                             "             the rows of its last MB only (LoadOptions::growing)\n");
        return 2;
    }
    options.oneThread = oneThread;
    // The time of the first preview after the start, and how many came (--preview).
    double firstPreviewS = -1;
    int previews = 0;
    const auto start = std::chrono::steady_clock::now();
    if (preview)
        options.preview = [&](const LoadPreview& p) {
            if (previews++ == 0 && !p.empty())
                firstPreviewS =
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        };
    const std::string path = args[0];
    std::error_code ec;
    const auto bytes = std::filesystem::file_size(path, ec);
    if (ec) {
        std::fprintf(stderr, "strata-bench load: %s: %s\n", path.c_str(), ec.message().c_str());
        return 1;
    }
    if (liveRowsMb > 0) {
        options.growing = true;
        const auto window = uint64_t(liveRowsMb * 1e6);
        options.growingRowsFrom = bytes > window ? bytes - window : 0;
    }
    const CpuSteal steal;
    timespec c0{}, c1{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    const auto t0 = std::chrono::steady_clock::now();
    const LoadResult r = loadTrace(path, options);
    const auto t1 = std::chrono::steady_clock::now();
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    const double cpuSeconds = double(c1.tv_sec - c0.tv_sec) + double(c1.tv_nsec - c0.tv_nsec) / 1e9;
    const double stealPct = steal.percent();
    if (!r.ok()) {
        std::fprintf(stderr, "strata-bench load: %s\n",
                     r.error ? r.error->toString().c_str() : "failed");
        return 1;
    }
    // Warnings go to stderr (the JSON on stdout stays one object).
    for (const auto& w : r.trace->warnings()) std::fprintf(stderr, "warning: %s\n", w.c_str());
    const double seconds = std::chrono::duration<double>(t1 - t0).count();
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    const double peakMb = double(ru.ru_maxrss) * 1024.0 / 1e6;
    const double fileMb = double(bytes) / 1e6;
    size_t flows = r.trace->flows().size();
    std::printf("{\"file\": \"%s\", \"bytes\": %llu, \"seconds\": %.3f, \"mb_per_s\": %.1f, "
                "\"peak_rss_mb\": %.1f, \"rss_ratio\": %.3f, \"slices\": %zu, \"counters\": %zu, "
                "\"flows\": %zu, \"gpu_values\": %zu, \"warnings\": %zu, \"cpu_s\": %.3f, "
                "\"steal_pct\": %.1f, \"first_preview_s\": %.3f, \"previews\": %d}\n",
                jsonEscape(path).c_str(), static_cast<unsigned long long>(bytes), seconds,
                fileMb / seconds, peakMb, peakMb / fileMb, r.trace->sliceCount(),
                r.trace->counterSampleCount(), flows, r.trace->gpuActivities().size(),
                r.trace->warnings().size(), cpuSeconds, stealPct, firstPreviewS, previews);
    return 0;
}
