// strata-cli summary: kernels, GPU time, idle gaps and launch latency of one trace, as a table
// or (--json) as one JSON object (see core/analysis/trace_summary.h for its keys).
#include "cli_commands.h"
#include "util/terminal_text.h"

#include "analysis/trace_summary.h"
#include "io/trace_loader.h"
#include "model/time_text.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

using namespace strata;

const char* kUsage =
    "usage: strata-cli summary [--json] [--gap-threshold-us N] [--range-us START:END]\n"
    "                          [--top N] FILE\n"
    "\n"
    "  --json               print one JSON object instead of tables\n"
    "  --gap-threshold-us N count GPU idle gaps strictly longer than N microseconds (default 10)\n"
    "  --range-us START:END only GPU work that starts in [START, END), in microseconds from the\n"
    "                       trace's first timestamp\n"
    "  --top N              number of kernel names listed (default 10)\n";

int usageError(const std::string& message) {
    std::fprintf(stderr, "strata-cli summary: %s\n\n%s", message.c_str(), kUsage);
    return 2;
}

// A finite, non-negative decimal number; false otherwise.
bool parseMicros(const std::string& text, double* out) {
    if (text.empty()) return false;
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || !std::isfinite(v) || v < 0) return false;
    *out = v;
    return true;
}

TimeNs microsToNs(double us) {
    return static_cast<TimeNs>(std::llround(us * 1000.0));
}

// A name for a table cell: safe for the terminal, at most `max` bytes before the escaping.
std::string shorten(std::string_view s, size_t max) {
    if (s.size() <= max) return terminalSafe(s);
    return terminalSafe(s.substr(0, max - 3)) + "...";
}

void printTables(const TraceSummary& s, const std::string& file, double loadMs, size_t top) {
    std::printf("file: %s\n", terminalSafe(file).c_str());
    std::printf("slices %zu, counter samples %zu, instants %zu, flows %zu (loaded in %s)\n",
                s.slices, s.counterSamples, s.instants, s.flows,
                formatPreciseDuration(TimeNs(loadMs * 1e6)).c_str());
    if (!s.warnings.empty()) {
        std::printf("warnings (%zu):\n", s.warnings.size());
        for (size_t i = 0; i < s.warnings.size() && i < 10; ++i)
            std::printf("  %s\n", terminalSafe(s.warnings[i]).c_str());
        if (s.warnings.size() > 10) std::printf("  ... %zu more\n", s.warnings.size() - 10);
    }
    const KernelStats& k = s.kernels;
    std::printf("\nGPU: %llu kernels, %llu memcpy, %llu memset; kernel time %s, busy %s\n",
                (unsigned long long)k.kernels, (unsigned long long)k.memcpys,
                (unsigned long long)k.memsets, formatPreciseDuration(k.kernelTime).c_str(),
                formatPreciseDuration(k.busyTime).c_str());
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
                        toMicros(n.time.max), 100.0 * n.shareOfBusy, shorten(n.name, 90).c_str());
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
}

} // namespace

int strata::cli::summary(const Args& args) {
    bool json = false;
    double thresholdUs = 10.0;
    bool haveRange = false;
    double rangeStartUs = 0, rangeEndUs = 0;
    size_t top = 10;
    std::string file;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&](std::string* out) {
            if (i + 1 >= args.size()) return false;
            *out = args[++i];
            return true;
        };
        std::string v;
        if (a == "--help" || a == "-h") {
            std::fputs(kUsage, stdout);
            return 0;
        } else if (a == "--json") {
            json = true;
        } else if (a == "--gap-threshold-us") {
            if (!value(&v)) return usageError("--gap-threshold-us needs a value");
            if (!parseMicros(v, &thresholdUs))
                return usageError("--gap-threshold-us expects a non-negative number, got '" + v +
                                  "'");
        } else if (a == "--range-us") {
            if (!value(&v)) return usageError("--range-us needs START:END");
            const size_t colon = v.find(':');
            if (colon == std::string::npos || !parseMicros(v.substr(0, colon), &rangeStartUs) ||
                !parseMicros(v.substr(colon + 1), &rangeEndUs) || rangeEndUs <= rangeStartUs)
                return usageError("--range-us expects START:END with 0 <= START < END, got '" + v +
                                  "'");
            haveRange = true;
        } else if (a == "--top") {
            double n = 0;
            if (!value(&v) || !parseMicros(v, &n) || n != std::floor(n))
                return usageError("--top expects a whole number");
            top = static_cast<size_t>(n);
        } else if (!a.empty() && a[0] == '-' && a != "-") {
            return usageError("unknown option '" + a + "'");
        } else if (file.empty()) {
            file = a;
        } else {
            return usageError("only one FILE, got '" + file + "' and '" + a + "'");
        }
    }
    if (file.empty()) return usageError("missing FILE");

    const auto t0 = std::chrono::steady_clock::now();
    const LoadResult loaded = loadTrace(file);
    const auto t1 = std::chrono::steady_clock::now();
    if (!loaded.ok()) {
        const std::string msg = loaded.error ? loaded.error->toString() : file + ": cannot load";
        std::fprintf(stderr, "strata-cli summary: %s\n", terminalSafe(msg).c_str());
        return 1;
    }
    const Trace& trace = *loaded.trace;

    SummaryOptions options;
    options.gapThreshold = microsToNs(thresholdUs);
    if (haveRange) {
        const TimeNs origin = trace.bounds().start;
        options.range =
            TimeRange{origin + microsToNs(rangeStartUs), origin + microsToNs(rangeEndUs)};
    }
    const TraceSummary s = summarizeTrace(trace, options);
    const auto t2 = std::chrono::steady_clock::now();
    const double loadMs = std::chrono::duration<double, std::milli>(t1 - t0).count();
    const double analysisMs = std::chrono::duration<double, std::milli>(t2 - t1).count();

    if (json) {
        nlohmann::json j = summaryToJson(s, file, top);
        j["load_ms"] = loadMs;
        j["analysis_ms"] = analysisMs;
        std::printf("%s\n",
                    j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
    } else {
        printTables(s, file, loadMs, top);
    }
    return 0;
}
