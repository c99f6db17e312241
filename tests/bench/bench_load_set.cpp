// strata-bench load-set [--threads N] [--release] FILE...: loads a set of traces (the ranks of a
// job) with io/set/trace_set_loader.h and prints one JSON object: wall seconds, CPU seconds of all
// threads, peak RSS (getrusage ru_maxrss of the process, MB of 10^6 bytes) and the machine's
// steal. --threads 1 loads them one after another; 0 (default) as many at once as there are
// cores. Every trace is kept until all are loaded (what a window of several ranks holds), unless
// --release: each is let go as soon as it is loaded (what strata-cli ranks does after its digest).
#include "bench_commands.h"
#include "cpu_steal.h"

#include "io/set/trace_set_loader.h"

#include <sys/resource.h>
#include <time.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>

namespace {

double cpuSeconds() {
    timespec c{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c);
    return double(c.tv_sec) + double(c.tv_nsec) / 1e9;
}

int usage() {
    std::fprintf(stderr, "usage: strata-bench load-set [--threads N] [--release] FILE...\n");
    return 2;
}

} // namespace

int strata::bench::loadSet(const Args& args) {
    TraceSetOptions options;
    bool release = false;
    std::vector<std::string> files;
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--threads" && i + 1 < args.size())
            options.threads = unsigned(std::stoul(args[++i]));
        else if (args[i] == "--release")
            release = true;
        else if (args[i].rfind("--", 0) == 0)
            return usage();
        else
            files.push_back(args[i]);
    }
    if (files.empty()) return usage();
    uint64_t bytes = 0;
    for (const std::string& f : files) {
        std::error_code ec;
        bytes += std::filesystem::file_size(f, ec);
        if (ec) {
            std::fprintf(stderr, "strata-bench load-set: %s: %s\n", f.c_str(),
                         ec.message().c_str());
            return 1;
        }
    }
    std::vector<LoadResult> kept(files.size());
    std::atomic<size_t> failed{0}, slices{0};
    const CpuSteal steal;
    const double c0 = cpuSeconds();
    const auto t0 = std::chrono::steady_clock::now();
    loadTraceSet(
        files,
        [&](size_t i, LoadResult& r) {
            if (!r.ok()) {
                ++failed;
                return;
            }
            slices += r.trace->sliceCount();
            if (!release) kept[i] = std::move(r);
        },
        options);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double cpu = cpuSeconds() - c0;
    if (failed) {
        std::fprintf(stderr, "strata-bench load-set: %zu file(s) failed to load\n", failed.load());
        return 1;
    }
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    std::printf("{\"files\": %zu, \"bytes\": %llu, \"threads\": %u, \"cores\": %u, "
                "\"release\": %s, \"seconds\": %.3f, \"mb_per_s\": %.1f, \"peak_rss_mb\": %.1f, "
                "\"slices\": %zu, \"cpu_s\": %.3f, \"steal_pct\": %.1f}\n",
                files.size(), static_cast<unsigned long long>(bytes), options.threads,
                std::thread::hardware_concurrency(), release ? "true" : "false", seconds,
                double(bytes) / 1e6 / seconds, double(ru.ru_maxrss) * 1024.0 / 1e6, slices.load(),
                cpu, steal.percent());
    return 0;
}
