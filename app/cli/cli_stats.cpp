// strata-cli stats: kernel and op statistics (core/analysis/op_stats.h) with the GPU overview
// (busy and idle per device and per step, core/analysis/gap_causes.h), as tables or (--json) one
// JSON object; of several FILEs (the ranks of a job), a row per rank and their whole
// (cli_stats_ranks.cpp).
#include "cli_commands.h"
#include "cli_options.h"
#include "cli_rank_rows.h"
#include "util/terminal_text.h"

#include "analysis/json/call_site_stats_json.h"
#include "analysis/json/gpu_annotations_json.h"
#include "analysis/json/gpu_metric_means_json.h"
#include "analysis/json/kernel_metrics_json.h"
#include "analysis/json/op_stats_json.h"
#include "analysis/trace_analysis.h"
#include "model/names/cupti_names.h"
#include "model/names/time_text.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

namespace {

using namespace strata;

const std::string kUsage =
    std::string(
        "usage: strata-cli stats [--json] [--group-by-op | --by name|op|call-site] [--top N]\n"
        "                        [--gap-threshold-us N] [--step-name PREFIX]\n"
        "                        [--range-us START:END] FILE...\n"
        "\n"
        "  --json               one JSON object: analysis_ms, devices, steps, categories,\n"
        "                       kernels (with tensor_cores, blocks_per_sm,\n"
        "                       achieved_occupancy_pct), kernel_metrics (SM efficiency,\n"
        "                       occupancy, tensor-core share per device), gpu_annotations\n"
        "                       (GPU time per gpu_user_annotation), gpu_metrics (per kernel\n"
        "                       name, the mean of each GPU metric row while it ran: [{name,\n"
        "                       runs, total_us, means: {METRIC: {mean, covered_us}}}]), cpu_ops,\n"
        "                       copies\n"
        "  --group-by-op        kernels per name and the CPU op / NVTX range that launched them\n"
        "  --by KEY             kernels per name (name), per name and launching op (op: as\n"
        "                       --group-by-op), or per Python call site (call-site: the\n"
        "                       innermost frame of the program's own code around the launch,\n"
        "                       file:line function; the sites and their kernels are listed, and\n"
        "                       --json adds call_sites: [{site, count, total_us, mean_us, share,\n"
        "                       kernels: [{name, count, total_us, mean_us}]}])\n"
        "  --top N              rows per table in the text output (default 15)\n"
        "Several FILEs (the ranks of a job): per rank its kernels, kernel time, busy and idle,\n"
        "then the whole (categories, kernels by name over all ranks); --json gives {ranks:\n"
        "[{rank, file, host, warnings, kernels, kernel_time_us, busy_us, idle_us, busy_share}],\n"
        "whole: {..., categories, kernels_by_name}}; --group-by-op and --by take one FILE\n") +
    cli::kAnalysisOptionsUsage;

double us(double ns) {
    return ns / 1000.0;
}

std::string copyLabel(const CopyRow& c) {
    std::string k(copyKindName(c.copyKind));
    if (k.empty()) k = "unknown";
    return k + (c.pageable ? " (pageable)" : "");
}

std::string orDash(const std::optional<double>& v, const char* format) {
    if (!v) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, format, *v);
    return buf;
}

// The TensorBoard plugin's GPU metrics per device and the tensor-core share (kernel_metrics.h).
void printKernelMetrics(const KernelMetrics& m) {
    if (m.byDevice.empty()) return;
    std::printf("\n%-8s %14s %14s %12s   (TensorBoard plugin's rules, over %s)\n", "device",
                "sm_efficiency", "occupancy%", "tensor_core%",
                formatDuration(std::max<TimeNs>(m.window.duration(), 0)).c_str());
    for (const DeviceKernelMetrics& d : m.byDevice) {
        const std::optional<double> sm =
            d.smEfficiency ? std::optional<double>(100.0 * *d.smEfficiency) : std::nullopt;
        std::printf("%-8d %14s %14s %11.1f%%\n", d.device, orDash(sm, "%.1f%%").c_str(),
                    orDash(d.occupancyPct, "%.1f").c_str(), 100.0 * d.tensorCoreShare);
    }
    std::printf("tensor cores: %.1f%% of kernel time (%s of %s)\n", 100.0 * m.tensorCoreShare,
                formatDuration(m.tensorCoreTime).c_str(), formatDuration(m.kernelTime).c_str());
}

// GPU time per gpu_user_annotation (gpu_annotations.h), where the trace has any.
void printGpuAnnotations(const Trace& t, const GpuAnnotations& a, uint64_t top) {
    if (a.rows.empty()) return;
    std::printf("\n%12s %7s %6s %14s %5s  %s\n", "gpu_us", "ops", "share", "annotated_us", "n",
                "gpu annotation");
    for (size_t i = 0; i < a.rows.size() && i < top; ++i) {
        const GpuAnnotationRow& r = a.rows[i];
        std::printf("%12.3f %7llu %5.1f%% %14.3f %5llu  %s\n", us(double(r.gpuTime)),
                    static_cast<unsigned long long>(r.ops), 100.0 * r.share,
                    us(double(r.annotatedTime)), static_cast<unsigned long long>(r.annotations),
                    terminalSafe(t.displayName(r.nameId)).c_str());
    }
    std::printf("%llu of %llu GPU ops under an annotation\n",
                static_cast<unsigned long long>(a.attributedOps),
                static_cast<unsigned long long>(a.ops));
}

// The tables of `strata-cli stats`: devices, categories, the top kernels and CPU ops, copies.
void printStats(const Trace& t, const OpStats& st, const GapCauses& gaps,
                const KernelMetrics& metrics, uint64_t top) {
    for (const std::string& w : gaps.warnings)
        std::printf("warning: %s\n", terminalSafe(w).c_str());
    std::printf("\n%-8s %16s %16s %8s\n", "device", "busy", "idle", "busy%");
    for (const DeviceGapStats& d : gaps.devices) {
        const TimeNs span = d.lastEnd - d.firstStart;
        std::printf("%-8d %16s %16s %7.1f%%\n", d.device, formatDuration(d.busy).c_str(),
                    formatDuration(d.idle).c_str(),
                    span > 0 ? 100.0 * double(d.busy) / double(span) : 0.0);
    }
    std::printf("\n%-16s %8s %16s %7s\n", "category", "count", "time", "share");
    for (const CategoryRow& c : st.categories)
        if (c.count)
            std::printf("%-16s %8llu %16s %6.1f%%\n", kernelCategoryName(c.category),
                        static_cast<unsigned long long>(c.count), formatDuration(c.time).c_str(),
                        100.0 * c.share);
    std::printf("\n%12s %7s %11s %11s %11s %6s %11s %6s %5s %2s  %s\n", "total_us", "count",
                "mean_us", "p95_us", "latency_us", "share", "category", "bl/SM", "occ%", "tc",
                "kernel");
    for (size_t i = 0; i < st.kernels.size() && i < top; ++i) {
        const KernelRow& k = st.kernels[i];
        // Short names (Trace::displayName; the JSON has them in full).
        std::string name(t.displayName(k.nameId));
        if (!k.launchedBy.empty()) name += "  <- " + std::string(t.displayName(k.launchedBy));
        const KernelNameMetrics* m = metrics.find(k.nameId);
        std::printf("%12.3f %7llu %11.3f %11.3f %11s %5.1f%% %11s %6s %5s %2s  %s\n",
                    us(double(k.time.total)), static_cast<unsigned long long>(k.time.count),
                    us(k.time.mean), us(double(k.time.p95)),
                    k.launched ? std::to_string(us(k.launchLatencyMean)).substr(0, 9).c_str() : "-",
                    100.0 * k.share, kernelCategoryName(k.category),
                    orDash(m ? m->blocksPerSm : std::nullopt, "%.2f").c_str(),
                    orDash(m ? m->occupancyPct : std::nullopt, "%.0f").c_str(),
                    m && m->tensorCores ? "TC" : "-", terminalSafe(name).c_str());
    }
    std::printf("\n%12s %12s %12s %7s  %s\n", "gpu_us", "total_us", "self_us", "count", "cpu op");
    for (size_t i = 0; i < st.cpuOps.size() && i < top; ++i) {
        const CpuOpRow& c = st.cpuOps[i];
        std::printf("%12.3f %12.3f %12.3f %7llu  %s\n", us(double(c.gpuTime)), us(double(c.total)),
                    us(double(c.self)), static_cast<unsigned long long>(c.count),
                    terminalSafe(t.displayName(c.name)).c_str());
    }
    if (!st.copies.empty()) {
        std::printf("\n%-22s %7s %14s %14s %9s\n", "copy", "count", "bytes", "time", "GB/s");
        for (const CopyRow& c : st.copies)
            std::printf("%-22s %7llu %14llu %14s %9.2f\n", copyLabel(c).c_str(),
                        static_cast<unsigned long long>(c.count),
                        static_cast<unsigned long long>(c.bytes), formatDuration(c.time).c_str(),
                        c.gbPerSecond);
    }
}

// The kernels per Python call site: each site's count and GPU time, its kernels below it.
void printCallSites(const Trace& t, const CallSiteStats& cs, uint64_t top) {
    std::printf("\n%12s %7s %11s %6s  %s\n", "total_us", "count", "mean_us", "share",
                "python call site / kernel");
    for (size_t i = 0; i < cs.sites.size() && i < top; ++i) {
        const CallSiteRow& r = cs.sites[i];
        std::printf("%12.3f %7llu %11.3f %5.1f%%  %s\n", us(double(r.total)),
                    static_cast<unsigned long long>(r.count), us(r.mean), 100.0 * r.share,
                    r.site.empty() ? "(no Python call site)" : terminalSafe(r.site).c_str());
        for (size_t k = 0; k < r.kernels.size() && k < top; ++k) {
            const CallSiteKernel& x = r.kernels[k];
            std::printf("%12.3f %7llu %11.3f %6s    %s\n", us(double(x.total)),
                        static_cast<unsigned long long>(x.count), us(x.mean), "",
                        terminalSafe(t.displayName(x.nameId)).c_str());
        }
        if (r.kernels.size() > top)
            std::printf("%40s... %zu more kernels\n", "", r.kernels.size() - top);
    }
}

// What the GPU's counters said while each kernel name ran: its mean of each metric.
void printKernelMetricMeans(const Trace& t, const std::vector<KernelMetricMeans>& kernels,
                            uint64_t top) {
    if (kernels.empty()) return;
    std::printf("\nGPU metrics while each kernel ran (time-weighted means over its runs)\n");
    for (size_t i = 0; i < kernels.size() && i < top; ++i) {
        const KernelMetricMeans& k = kernels[i];
        std::printf("%12.3f us %7llu runs  %s\n", us(double(k.totalNs)),
                    static_cast<unsigned long long>(k.runs),
                    terminalSafe(t.displayName(k.name)).c_str());
        if (k.means.empty()) std::printf("%26s(no metric sample while it ran)\n", "");
        for (const MetricMean& m : k.means)
            std::printf("%26s%-40s %12.4g  (%.0f%% of its time covered)\n", "",
                        terminalSafe(m.metric).c_str(), m.mean,
                        k.totalNs ? 100.0 * double(m.coveredNs) / double(k.totalNs) : 0.0);
    }
}

enum class Grouping { Name, Op, CallSite };

} // namespace

namespace strata::cli {

int stats(const Args& args) {
    bool json = false, groupByOp = false;
    Grouping by = Grouping::Name;
    uint64_t top = 15;
    AnalysisArgs analysisArgs;
    std::vector<std::string> files;
    CommandLine line("stats", kUsage);
    line.flag("--json", &json)
        .flag("--group-by-op", &groupByOp)
        .option("--by",
                [&by](const std::string& v) -> std::string {
                    if (v == "name")
                        by = Grouping::Name;
                    else if (v == "op")
                        by = Grouping::Op;
                    else if (v == "call-site")
                        by = Grouping::CallSite;
                    else
                        return "--by expects name, op or call-site, got '" + v + "'";
                    return {};
                })
        .option("--top", wholeNumber("--top", 1'000'000, &top))
        .files(&files, 1, SIZE_MAX, "FILE...");
    analysisArgs.declare(line);
    if (const auto exit = line.parse(args)) return *exit;
    if (groupByOp && by == Grouping::CallSite)
        return line.usageError("--group-by-op and --by call-site: one grouping at a time");
    if (groupByOp) by = Grouping::Op;
    if (files.size() > 1 && by != Grouping::Name)
        return line.usageError(std::string(groupByOp ? "--group-by-op" : "--by") +
                               " takes one FILE, not several");
    groupByOp = by == Grouping::Op;
    if (files.size() > 1)
        return statsOfRanks(files, analysisArgs, json, std::max<uint64_t>(1, top));
    double loadMs = 0;
    const std::shared_ptr<const Trace> trace =
        analysisArgs.shifted(loadTraceOrSay("stats", files.front(), &loadMs));
    if (!trace) return 1;
    const Trace& t = *trace;
    top = std::max<uint64_t>(1, top);
    const auto t0 = std::chrono::steady_clock::now();
    const TraceAnalysis analysis(trace, analysisArgs.settings, analysisArgs.range(t));
    const bool bySite = by == Grouping::CallSite;
    const OpStats& st = bySite ? analysis.opStatsByCallSite() : analysis.opStats(groupByOp);
    const CallSiteStats sites = bySite ? callSiteStats(st) : CallSiteStats{};
    const GapCauses& gaps = analysis.gapCauses();
    const GpuAnnotations& annotations = analysis.gpuAnnotations();
    const KernelMetrics& metrics = analysis.kernelMetrics();
    const std::vector<KernelMetricMeans>& gpuMetrics = analysis.gpuMetricMeans();
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();

    if (json) {
        nlohmann::json j = opStatsToJson(st, gaps, groupByOp || bySite);
        if (bySite) j["call_sites"] = callSiteStatsToJson(sites);
        addKernelMetricsToJson(j, st, metrics);
        j["gpu_annotations"] = gpuAnnotationsToJson(annotations);
        j["gpu_metrics"] = kernelMetricMeansToJson(gpuMetrics);
        j["load_ms"] = loadMs;
        j["analysis_ms"] = ms;
        printJson(j);
        return 0;
    }
    std::printf("Statistics of %s (analysed in %.1f ms)\n", terminalSafe(files.front()).c_str(),
                ms);
    printStats(t, st, gaps, metrics, top);
    printKernelMetrics(metrics);
    printGpuAnnotations(t, annotations, top);
    printKernelMetricMeans(t, gpuMetrics, top);
    if (bySite) printCallSites(t, sites, top);
    return 0;
}

} // namespace strata::cli
