// strata-cli roofline: the roofline of the kernels measured with per-kernel counters
// (analysis/ops/roofline.h; `strata-cli record --kernel-metrics`): each device's ceilings, and
// per kernel name its FLOPs, DRAM bytes, arithmetic intensity, achieved FLOP/s, its share of the
// roof at its intensity and whether it is memory- or compute-bound. A table, or (--json) one
// JSON object.
#include "cli_commands.h"
#include "cli_options.h"
#include "util/terminal_text.h"

#include "analysis/json/roofline_json.h"
#include "analysis/ops/gpu_ops.h"
#include "model/counter_units.h"
#include "model/names/time_text.h"
#include "model/trace.h"

#include <chrono>
#include <cstdio>
#include <string>

namespace {

using namespace strata;

const char* const kUsage =
    "usage: strata-cli roofline [--json] FILE\n"
    "\n"
    "  FILE    a trace whose kernels carry per-kernel counters (strata-cli record\n"
    "          --kernel-metrics REGEX): DRAM bytes read and written and the FMA/ADD/MUL\n"
    "          instruction counts per precision, named as Nsight Compute names them\n"
    "  --json  one JSON object: load_ms, analysis_ms (the ops gathered and the roofline),\n"
    "          launches_measured, launches_incomplete, devices [{device,\n"
    "          dram_bytes_per_s, flops_per_s {FP64, FP32, FP16}}], kernels [{name, device,\n"
    "          launches, flops {FP64, FP32, FP16}, bytes, time_us, precision, intensity,\n"
    "          achieved_flops_per_s, attainable_flops_per_s, roof_share, bound}]\n";

std::string si(const std::optional<double>& v, const char* unit) {
    return v ? formatSi(*v, unit) : std::string("-");
}

std::string number(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", v);
    return text;
}

const char* boundText(RooflineBound b) {
    return b == RooflineBound::Memory ? "memory" : b == RooflineBound::Compute ? "compute" : "-";
}

void printCeilings(const Roofline& r) {
    for (const RooflineCeilings& c : r.devices) {
        std::printf("GPU %d ceilings: DRAM %s", c.device, si(c.bytesPerSecond, "B/s").c_str());
        for (size_t p = 0; p < kFlopPrecisions; ++p)
            if (c.flopsPerSecond[p])
                std::printf(", %s %s", std::string(flopPrecisionName(FlopPrecision(p))).c_str(),
                            formatSi(*c.flopsPerSecond[p], "FLOP/s").c_str());
        if (!c.bytesPerSecond && !c.flopsPerSecond[0] && !c.flopsPerSecond[1] &&
            !c.flopsPerSecond[2])
            std::printf(" (not measured: the peak counters were not in the metric set)");
        std::printf("\n");
    }
}

void printTable(const Trace& t, const Roofline& r) {
    std::printf("%zu kernel launch%s measured", r.launches.size(),
                r.launches.size() == 1 ? "" : "es");
    if (r.incomplete)
        std::printf(", %llu without the roofline's counters (DRAM bytes and FLOP counts)",
                    static_cast<unsigned long long>(r.incomplete));
    std::printf("\n");
    if (r.launches.empty() && !r.incomplete) {
        std::printf("no kernel carries per-kernel counters: record with strata-cli record "
                    "--kernel-metrics REGEX\n");
        return;
    }
    printCeilings(r);
    std::printf("\n%3s %8s %11s %5s %12s %11s %11s %14s %6s %-8s %s\n", "GPU", "launches", "time",
                "prec", "FLOP", "DRAM", "FLOP/B", "achieved", "roof", "bound", "name");
    for (const RooflineKernel& k : r.kernels) {
        const std::optional<double> share = k.roofShare();
        const std::optional<double> ai = k.intensity();
        std::printf("%3d %8llu %11s %5s %12s %11s %11s %14s %6s %-8s %s\n", k.device,
                    static_cast<unsigned long long>(k.launches),
                    formatDuration(TimeNs(k.seconds * 1e9)).c_str(),
                    std::string(flopPrecisionName(k.precision)).c_str(),
                    formatSi(k.totalFlops(), "FLOP").c_str(), formatSi(k.bytes, "B").c_str(),
                    ai ? number(*ai).c_str() : "-", si(k.achieved(), "FLOP/s").c_str(),
                    share ? (std::to_string(int(*share * 100 + 0.5)) + " %").c_str() : "-",
                    boundText(k.bound), terminalSafe(std::string(t.displayName(k.nameId))).c_str());
    }
}

} // namespace

namespace strata::cli {

int roofline(const Args& args) {
    bool json = false;
    std::vector<std::string> files;
    CommandLine line("roofline", kUsage);
    line.flag("--json", &json).files(&files, 1, 1);
    if (const auto exit = line.parse(args)) return *exit;
    const std::string& file = files.front();
    double loadMs = 0;
    const std::shared_ptr<const Trace> trace = loadTraceOrSay("roofline", file, &loadMs);
    if (!trace) return 1;
    const auto t0 = std::chrono::steady_clock::now();
    const Roofline r = computeRoofline(*trace, collectGpuOps(*trace));
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (json) {
        nlohmann::json j = rooflineToJson(*trace, r);
        j["file"] = file;
        j["load_ms"] = loadMs;
        j["analysis_ms"] = ms;
        printJson(j);
        return 0;
    }
    std::printf("%s: ", terminalSafe(file).c_str());
    printTable(*trace, r);
    return 0;
}

} // namespace strata::cli
