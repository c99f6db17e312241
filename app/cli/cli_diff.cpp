// strata-cli diff: a baseline and a candidate compared (core/analysis/trace_diff.h): two traces,
// or two ranges or steps of one; kernels, CPU ops and copies matched by name, what changed past
// the noise rule, what was added or removed; GPU busy and idle by cause per device. Tables, or
// (--json) one JSON object. Exit code 0 whether or not anything changed.
#include "cli_commands.h"
#include "cli_options.h"
#include "util/terminal_text.h"

#include "analysis/compare/trace_diff.h"
#include "analysis/json/trace_diff_json.h"
#include "analysis/trace_analysis.h"
#include "analysis/trace_steps.h"

#include <chrono>
#include <cstdio>
#include <string>

namespace {

using namespace strata;

const std::string kUsage =
    std::string(
        "usage: strata-cli diff [--json] [--top N] [options] BASELINE [CANDIDATE]\n"
        "\n"
        "  --json                     one JSON object: analysis_ms, noise, devices, kernels, ops,\n"
        "                             copies\n"
        "  --top N                    rows per table in the text output (default 15)\n"
        "  --baseline-range-us A:B    the baseline's range (µs from its trace's start)\n"
        "  --candidate-range-us A:B   the candidate's range\n"
        "  --baseline-step NAME       the baseline is this step (e.g. ProfilerStep#3)\n"
        "  --candidate-step NAME      the candidate is this step\n"
        "With one file, the candidate is the same trace (give ranges or steps).\n") +
    cli::kAnalysisOptionsUsage;

double us(double ns) {
    return ns / 1000.0;
}

struct Side {
    std::string file;
    std::optional<std::pair<double, double>> rangeUs;
    std::string step;
};

// The range a side covers: its step, its range, or the common --range-us.
std::optional<TimeRange> sideRange(const Trace& t, const Side& s, const cli::AnalysisArgs& a) {
    if (!s.step.empty()) {
        for (const TraceStep& step : findSteps(t, a.settings.stepPrefix))
            if (step.name == s.step) return TimeRange{step.start, step.end};
        std::fprintf(stderr, "strata-cli diff: %s has no step named '%s'\n",
                     terminalSafe(s.file).c_str(), terminalSafe(s.step).c_str());
        return std::nullopt;
    }
    return s.rangeUs ? cli::rangeFromUs(t, s.rangeUs) : a.range(t);
}

// `gpu`: CPU op rows, with the GPU time each launched judged too (its own count and column).
void printRows(const char* title, const std::vector<DiffRow>& rows, uint64_t top,
               bool gpu = false) {
    size_t counts[4] = {0, 0, 0, 0}, gpuCounts[4] = {0, 0, 0, 0};
    for (const DiffRow& r : rows) {
        ++counts[size_t(r.status)];
        if (r.launchesGpu) ++gpuCounts[size_t(r.gpuStatus)];
    }
    std::printf("\n%s: %zu changed, %zu added, %zu removed, %zu the same (by effect on the "
                "total)\n",
                title, counts[size_t(DiffStatus::Changed)], counts[size_t(DiffStatus::Added)],
                counts[size_t(DiffStatus::Removed)], counts[size_t(DiffStatus::Same)]);
    if (gpu)
        std::printf("  the GPU time they launched: %zu changed, %zu added, %zu removed, %zu the "
                    "same\n",
                    gpuCounts[size_t(DiffStatus::Changed)], gpuCounts[size_t(DiffStatus::Added)],
                    gpuCounts[size_t(DiffStatus::Removed)], gpuCounts[size_t(DiffStatus::Same)]);
    std::printf("%-8s %12s %8s %8s %13s %8s %13s  %s%s\n", "status", "delta_us", "delta", "count",
                "baseline_us", "count", "candidate_us", gpu ? "gpu      gpu_delta_us  " : "",
                "name");
    auto moved = [gpu](const DiffRow& r) {
        return r.status != DiffStatus::Same ||
               (gpu && r.launchesGpu && r.gpuStatus != DiffStatus::Same);
    };
    uint64_t shown = 0, different = 0;
    for (const DiffRow& r : rows) {
        if (!moved(r)) continue;
        ++different;
        if (shown == top) continue;
        ++shown;
        const std::string share =
            r.baseline.total > 0 ? std::to_string(int(std::lround(100 * r.deltaShare()))) + " %"
                                 : std::string("new");
        char gpuText[64] = "";
        if (gpu && r.launchesGpu)
            std::snprintf(gpuText, sizeof gpuText, "%-8s %+13.3f  ", diffStatusName(r.gpuStatus),
                          us(double(r.deltaGpu())));
        else if (gpu)
            std::snprintf(gpuText, sizeof gpuText, "%-8s %13s  ", "-", "-");
        std::printf("%-8s %+12.3f %8s %8llu %13.3f %8llu %13.3f  %s%s\n", diffStatusName(r.status),
                    us(double(r.deltaTotal())), share.c_str(), (unsigned long long)r.baseline.count,
                    us(double(r.baseline.total)), (unsigned long long)r.candidate.count,
                    us(double(r.candidate.total)), gpuText,
                    terminalSafe(r.shownName()).c_str()); // full in --json
    }
    if (different > shown)
        std::printf("\u2026 and %llu more (--top N shows more, --json every row)\n",
                    (unsigned long long)(different - shown));
}

void printText(const TraceDiff& d, const Side& b, const Side& c, uint64_t top) {
    std::printf("baseline  %s%s\ncandidate %s%s\nnoise rule: %s\n", terminalSafe(b.file).c_str(),
                b.step.empty() ? "" : (" step " + terminalSafe(b.step)).c_str(),
                terminalSafe(c.file).c_str(),
                c.step.empty() ? "" : (" step " + terminalSafe(c.step)).c_str(),
                diffNoiseRule(d).c_str());
    std::printf("\n%-6s %14s %14s %14s %14s  idle over the threshold by cause (baseline -> "
                "candidate, µs)\n",
                "device", "busy_us", "->", "idle_us", "->");
    for (const DeviceDiff& dev : d.devices) {
        std::printf("%-6d %14.3f %14.3f %14.3f %14.3f ", dev.device, us(double(dev.baseline.busy)),
                    us(double(dev.candidate.busy)), us(double(dev.baseline.idle)),
                    us(double(dev.candidate.idle)));
        for (int k = 0; k < kGapCauseCount; ++k) {
            const TimeNs x = dev.baseline.idleByCause[size_t(k)];
            const TimeNs y = dev.candidate.idleByCause[size_t(k)];
            if (x || y)
                std::printf(" %s %.3f -> %.3f", gapCauseName(GapCause(k)), us(double(x)),
                            us(double(y)));
        }
        std::printf("\n");
    }
    if (!d.steps.empty()) {
        std::printf("\n%-6s %-22s %-22s %13s %13s %13s %13s\n", "device", "baseline step",
                    "candidate step", "length_us", "->", "idle_us", "->");
        for (const StepDiff& st : d.steps)
            std::printf("%-6d %-22s %-22s %13.3f %13.3f %13.3f %13.3f\n", st.device,
                        terminalSafe(st.baseline.step).c_str(),
                        terminalSafe(st.candidate.step).c_str(), us(double(st.baseline.length)),
                        us(double(st.candidate.length)), us(double(st.baseline.idle)),
                        us(double(st.candidate.idle)));
    }
    printRows("Kernels", d.kernels, top);
    printRows("CPU ops", d.ops, top, true);
    printRows("Copies", d.copies, top);
    if (!d.sections.empty())
        printRows(d.sectionsInNs ? "In-kernel sections"
                                 : "In-kernel sections (in kilocycles, not µs)",
                  d.sections, top);
}

} // namespace

namespace strata::cli {

int diff(const Args& args) {
    bool json = false;
    uint64_t top = 15;
    AnalysisArgs analysisArgs;
    Side base, cand;
    std::vector<std::string> files;
    CommandLine line("diff", kUsage);
    line.flag("--json", &json)
        .option("--top", wholeNumber("--top", 1'000'000, &top))
        .option("--baseline-range-us", rangeUs("--baseline-range-us", &base.rangeUs))
        .option("--candidate-range-us", rangeUs("--candidate-range-us", &cand.rangeUs))
        .option("--baseline-step",
                [&](const std::string& v) {
                    base.step = v;
                    return std::string();
                })
        .option("--candidate-step",
                [&](const std::string& v) {
                    cand.step = v;
                    return std::string();
                })
        .files(&files, 1, 2);
    analysisArgs.declare(line);
    if (const auto exit = line.parse(args)) return *exit;
    base.file = files.front();
    cand.file = files.back();
    // Both loaded at once, as a set (through the cache under --cache); the first that did not
    // load is said.
    const std::vector<LoadResult> loaded = loadAllForCli(files);
    for (size_t i = 0; i < loaded.size(); ++i)
        if (!loaded[i].ok()) {
            std::fprintf(
                stderr, "strata-cli diff: %s\n",
                terminalSafe(loaded[i].error ? loaded[i].error->toString() : files[i]).c_str());
            return 1;
        }
    const std::shared_ptr<const Trace> tb = analysisArgs.shifted(loaded.front().trace);
    const std::shared_ptr<const Trace> tc =
        files.size() == 1 ? tb : analysisArgs.shifted(loaded.back().trace);
    const std::optional<TimeRange> rb = sideRange(*tb, base, analysisArgs);
    const std::optional<TimeRange> rc = sideRange(*tc, cand, analysisArgs);
    if (!rb || !rc) return 1;
    const TraceAnalysis a(tb, analysisArgs.settings, *rb), b(tc, analysisArgs.settings, *rc);
    // Two parts of one trace: its steps measure the spread when the parts have too few.
    std::optional<TraceAnalysis> whole;
    if (files.size() == 1) whole.emplace(tb, analysisArgs.settings);
    const auto t0 = std::chrono::steady_clock::now();
    const TraceDiff d = diffTraces(a, b, whole ? &*whole : nullptr); // analyses included
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (!json) {
        printText(d, base, cand, std::max<uint64_t>(1, top));
        std::printf("\n(analysed in %.1f ms)\n", ms);
        return 0;
    }
    nlohmann::json head = traceDiffHeadToJson(d);
    head["analysis_ms"] = ms;
    head["baseline"] = {{"file", base.file}, {"step", base.step}};
    head["candidate"] = {{"file", cand.file}, {"step", cand.step}};
    writeTraceDiffJson(
        d, head, [](std::string_view text) { std::fwrite(text.data(), 1, text.size(), stdout); });
    return 0;
}

} // namespace strata::cli
