// strata-cli summary: kernels, GPU time, idle gaps and launch latency of one trace, as a table
// or (--json) as one JSON object (core/analysis/json/trace_summary_json.h); of several (the ranks
// of a job), a row per rank and their whole (core/analysis/ranks/rank_totals.h; the JSON:
// core/analysis/json/rank_totals_json.h).
#include "cli_commands.h"
#include "cli_rank_set.h"
#include "util/terminal_text.h"

#include "analysis/json/rank_totals_json.h"
#include "analysis/json/trace_summary_json.h"
#include "analysis/ranks/rank_totals.h"
#include "analysis/trace_analysis.h"
#include "cli_options.h"
#include "model/counter_units.h"
#include "model/names/time_text.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

using namespace strata;

const std::string kUsage =
    std::string("usage: strata-cli summary [--json] [--gap-threshold-us N] [--range-us START:END]\n"
                "                          [--top N] FILE...\n"
                "\n"
                "  --json               print one JSON object instead of tables\n"
                "  --top N              number of kernel names listed (default 10)\n"
                "Several FILEs (the ranks of a job): a row per rank and their whole; --json gives\n"
                "{\"ranks\": [{\"rank\", \"file\", \"host\", \"summary\"}], \"whole\": {...}}\n") +
    cli::kAnalysisOptionsUsage;

void printTables(const Trace& t, const TraceSummary& s, const std::string& file, double loadMs,
                 size_t top) {
    std::printf("file: %s\n", terminalSafe(file).c_str());
    std::printf("slices %zu, counter samples %zu, instants %zu, flows %zu (loaded in %s)\n",
                s.slices, s.counterSamples, s.instants, s.flows,
                formatDuration(TimeNs(loadMs * 1e6)).c_str());
    if (!s.warnings.empty()) {
        std::printf("warnings (%zu):\n", s.warnings.size());
        for (size_t i = 0; i < s.warnings.size() && i < 10; ++i)
            std::printf("  %s\n", terminalSafe(s.warnings[i]).c_str());
        if (s.warnings.size() > 10) std::printf("  ... %zu more\n", s.warnings.size() - 10);
    }
    const KernelStats& k = s.kernels;
    std::printf("\nGPU: %llu kernels, %llu memcpy, %llu memset; kernel time %s, busy %s\n",
                (unsigned long long)k.kernels, (unsigned long long)k.memcpys,
                (unsigned long long)k.memsets, formatDuration(k.kernelTime).c_str(),
                formatDuration(k.busyTime).c_str());
    if (k.offGpuTrack)
        std::printf("  (%llu GPU ops found outside GPU stream tracks)\n",
                    (unsigned long long)k.offGpuTrack);
    if (!k.byDevice.empty()) {
        std::printf("\n%6s %8s %8s %8s %14s %14s\n", "device", "kernels", "memcpy", "memset",
                    "kernel_us", "busy_us");
        for (const DeviceGpuTime& d : k.byDevice)
            std::printf("%6d %8llu %8llu %8llu %14.3f %14.3f\n", d.device,
                        (unsigned long long)d.kernels, (unsigned long long)d.memcpys,
                        (unsigned long long)d.memsets, toMicros(d.kernelTime),
                        toMicros(d.busyTime));
    }
    if (!k.byName.empty()) {
        std::printf("\nTop kernels by total time (%zu names):\n", k.byName.size());
        std::printf("%12s %7s %10s %10s %10s %10s %6s  %s\n", "total_us", "count", "mean_us",
                    "median_us", "p95_us", "max_us", "share", "name");
        for (size_t i = 0; i < k.byName.size() && i < top; ++i) {
            const KernelNameStats& n = k.byName[i];
            std::printf("%12.3f %7llu %10.3f %10.3f %10.3f %10.3f %5.1f%%  %s\n",
                        toMicros(n.time.total), (unsigned long long)n.time.count,
                        n.time.mean / 1000.0, toMicros(n.time.median), toMicros(n.time.p95),
                        toMicros(n.time.max), 100.0 * n.shareOfBusy,
                        terminalSafe(t.displayName(n.nameId)).c_str()); // short; JSON: in full
        }
    }
    const GpuGaps& g = s.gaps;
    if (!g.byStream.empty() || !g.byDevice.empty()) {
        std::printf("\nGPU idle gaps (threshold %.3f us):\n", toMicros(g.threshold));
        std::printf("%6s %8s %8s %8s %8s %14s %12s\n", "device", "stream", "kernels", "gaps",
                    ">thresh", "idle_us", "longest_us");
        for (const StreamGapStats& st : g.byStream)
            std::printf("%6d %8lld %8llu %8llu %8llu %14.3f %12.3f\n", st.device,
                        (long long)st.stream, (unsigned long long)st.kernels,
                        (unsigned long long)st.gaps, (unsigned long long)st.gapsOverThreshold,
                        toMicros(st.idle), toMicros(st.longest));
        for (const DeviceGapStats& d : g.byDevice)
            std::printf("%6d %8s %8llu %8llu %8llu %14.3f %12.3f\n", d.device, "all",
                        (unsigned long long)d.ops, (unsigned long long)d.gaps,
                        (unsigned long long)d.gapsOverThreshold, toMicros(d.idle),
                        toMicros(d.longest));
        std::printf("(per stream: kernels only; 'all': kernels, copies and sets of the device)\n");
    }
    const LaunchLatencyStats& l = s.launch;
    if (l.kernels > 0) {
        std::printf("\nLaunch latency (API call start -> kernel start): %llu matched, %llu "
                    "unmatched",
                    (unsigned long long)l.latency.count, (unsigned long long)l.unmatched);
        if (l.negative) std::printf(", %llu negative", (unsigned long long)l.negative);
        std::printf("\n");
        if (l.latency.count)
            std::printf("  mean %.3f us, median %.3f us, p95 %.3f us, min %.3f us, max %.3f us\n",
                        l.latency.mean / 1000.0, toMicros(l.latency.median),
                        toMicros(l.latency.p95), toMicros(l.latency.min), toMicros(l.latency.max));
    }
    if (!s.memory.empty()) std::printf("\nMemory allocated, peak:\n");
    for (const MemoryPeak& m : s.memory) {
        const std::string where = m.device < 0 ? "host" : "GPU " + std::to_string(m.device);
        std::printf("  %-8s %s at %s%s%s\n", where.c_str(),
                    formatCounterValue(double(m.bytes), CounterUnit::Bytes).c_str(),
                    formatDuration(m.at - t.bounds().start).c_str(),
                    m.recordedDevice != m.device
                        ? (" (recorded as device " + std::to_string(m.recordedDevice) + ")").c_str()
                        : "",
                    m.summed ? " (sum of the events' Bytes)" : "");
    }
}

void printTotalsRow(const std::string& label, const SummaryTotals& t, const std::string& file) {
    std::printf("%6s %8llu %8llu %8llu %14.3f %14.3f %9llu %14.3f  %s\n", label.c_str(),
                (unsigned long long)t.kernels, (unsigned long long)t.memcpys,
                (unsigned long long)t.memsets, toMicros(t.kernelTime), toMicros(t.busy),
                (unsigned long long)t.gapsOverThreshold, toMicros(t.idle),
                terminalSafe(file).c_str());
}

// Several FILEs: a row per rank (its summary's totals) and their whole.
int summarySet(const std::vector<std::string>& files, const cli::AnalysisArgs& analysisArgs,
               bool json, size_t top) {
    std::vector<RankIdentity> ids(files.size());
    std::vector<SummaryTotals> rows(files.size());
    std::vector<SummaryRankRow> docs(files.size());
    const bool ok = cli::forEachRankAnalysis(
        "summary", files, analysisArgs,
        [&](size_t i, const RankIdentity& id, const TraceAnalysis& a) {
            ids[i] = id;
            rows[i].add(a.summary());
            if (json) docs[i] = {id, files[i], summaryToJson(a.summary(), files[i], top)};
        });
    if (!ok) return 1;
    SummaryTotals whole;
    for (const SummaryTotals& r : rows) whole += r;
    if (json) {
        cli::printJson(summaryRanksToJson(docs, whole));
        return 0;
    }
    std::printf("%zu ranks (GPU idle gaps over %.3f us)\n\n", files.size(),
                analysisArgs.thresholdUs());
    std::printf("%6s %8s %8s %8s %14s %14s %9s %14s  %s\n", "rank", "kernels", "memcpy", "memset",
                "kernel_us", "busy_us", ">thresh", "idle_us", "file");
    for (size_t i : cli::byRank(ids))
        printTotalsRow(std::to_string(ids[i].rank), rows[i], files[i]);
    printTotalsRow("all", whole, "");
    std::printf("(busy and idle per device, summed; idle: the gaps between each device's first op "
                "and last end)\n");
    return 0;
}

} // namespace

int strata::cli::summary(const Args& args) {
    bool json = false;
    uint64_t top = 10;
    cli::AnalysisArgs analysisArgs;
    std::vector<std::string> files;
    cli::CommandLine line("summary", kUsage);
    line.flag("--json", &json)
        .option("--top", cli::wholeNumber("--top", 1'000'000, &top))
        .files(&files, 1, SIZE_MAX, "FILE...");
    analysisArgs.declare(line);
    if (const auto exit = line.parse(args)) return *exit;
    if (files.size() > 1) return summarySet(files, analysisArgs, json, top);
    const std::string& file = files.front();

    const auto t0 = std::chrono::steady_clock::now();
    const LoadResult loaded = loadForCli(file);
    const auto t1 = std::chrono::steady_clock::now();
    if (!loaded.ok()) {
        const std::string msg = loaded.error ? loaded.error->toString() : file + ": cannot load";
        std::fprintf(stderr, "strata-cli summary: %s\n", terminalSafe(msg).c_str());
        return 1;
    }
    const TraceAnalysis analysis(analysisArgs.shifted(loaded.trace), analysisArgs.settings,
                                 analysisArgs.range(*loaded.trace));
    const TraceSummary& s = analysis.summary();
    const auto t2 = std::chrono::steady_clock::now();
    const double loadMs = std::chrono::duration<double, std::milli>(t1 - t0).count();
    const double analysisMs = std::chrono::duration<double, std::milli>(t2 - t1).count();

    if (json) {
        nlohmann::json j = summaryToJson(s, file, top);
        j["load_ms"] = loadMs;
        j["analysis_ms"] = analysisMs;
        cli::printJson(j);
    } else {
        printTables(*loaded.trace, s, file, loadMs, top);
    }
    return 0;
}
