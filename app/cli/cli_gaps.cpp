// strata-cli gaps: every GPU idle gap over the threshold with its cause (CPU-bound, launch
// overhead, synchronization, dependency, unattributed; core/analysis/gap_causes.h) and where its
// time went on the launching thread (gap_breakdown.h), per device and per stream, as a table or
// (--json) one JSON object; of several FILEs (the ranks of a job), a row per rank and their
// whole (cli_gaps_ranks.cpp).
#include "cli_commands.h"
#include "cli_options.h"
#include "cli_rank_rows.h"
#include "util/terminal_text.h"

#include "analysis/gaps/gap_text.h"
#include "analysis/json/gap_causes_json.h"
#include "analysis/trace_analysis.h"
#include "model/names/time_text.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

using namespace strata;

const std::string kUsage =
    std::string(
        "usage: strata-cli gaps [--json] [--gap-threshold-us N] [--step-name PREFIX]\n"
        "                       [--range-us START:END] FILE...\n"
        "\n"
        "  --json               one JSON object: threshold_us, load_ms, analysis_ms, warnings,\n"
        "                       clock, gaps (per device, stream null, then per stream, each\n"
        "                       with its cause and breakdown), by_cause, steps, edges\n"
        "Several FILEs (the ranks of a job): per rank the gaps by cause, then the whole; --json\n"
        "gives {threshold_us, ranks: [{rank, file, host, warnings, span_us, by_cause, steps}],\n"
        "whole: {span_us, by_cause}}\n") +
    cli::kAnalysisOptionsUsage;

// The tables of `strata-cli gaps`: by cause, per step, the edges, the longest device gaps.
void printGaps(const Trace& t, const GapCauses& g) {
    const TimeNs origin = t.bounds().start;
    for (const std::string& w : g.warnings) std::printf("warning: %s\n", terminalSafe(w).c_str());
    std::printf("\n%-16s %8s %14s\n", "cause", "gaps", "idle");
    for (int c = 0; c < kGapCauseCount; ++c)
        std::printf("%-16s %8llu %14s\n", gapCauseLabel(GapCause(c)),
                    static_cast<unsigned long long>(g.byCause[size_t(c)].count),
                    formatPreciseDuration(g.byCause[size_t(c)].idle).c_str());
    if (!g.steps.empty())
        std::printf("\n%-24s %6s %14s %14s %7s\n", "step", "device", "length", "idle", "idle%");
    for (const StepGaps& s : g.steps)
        std::printf("%-24s %6d %14s %14s %6.1f%%\n", terminalSafe(s.step.name).c_str(), s.device,
                    formatPreciseDuration(s.step.end - s.step.start).c_str(),
                    formatPreciseDuration(s.idle).c_str(),
                    s.step.end > s.step.start
                        ? 100.0 * double(s.idle) / double(s.step.end - s.step.start)
                        : 0.0);
    for (const EdgeIdle& e : g.edges)
        std::printf(
            "GPU %d: idle %s before its first op, %s after its last (not counted as gaps)\n",
            e.device, formatPreciseDuration(e.before).c_str(),
            formatPreciseDuration(e.after).c_str());
    std::vector<const ExplainedGap*> longest;
    for (const ExplainedGap& e : g.deviceGaps) longest.push_back(&e);
    std::sort(longest.begin(), longest.end(), [](const ExplainedGap* a, const ExplainedGap* b) {
        return a->gap.duration() > b->gap.duration();
    });
    if (longest.size() > 10) longest.resize(10);
    if (!longest.empty()) std::printf("\nlongest device gaps:\n");
    for (const ExplainedGap* e : longest) {
        std::printf("  GPU %d at %s: %s, %s", e->gap.device,
                    formatDuration(e->gap.start - origin).c_str(),
                    formatDuration(e->gap.duration()).c_str(), gapCauseLabel(e->cause));
        if (e->launchedLate && e->late > 0)
            std::printf(", launched %s late", formatDuration(e->late).c_str());
        std::printf("\n    %s\n", terminalSafe(gapReason(t, *e, 120)).c_str());
        for (const GapPart& p : e->breakdown.parts)
            std::printf("    %10s  %s\n", formatDuration(p.time).c_str(),
                        terminalSafe(gapPartText(t, p, 120)).c_str());
        for (const ThreadWait& w : e->otherThreads)
            std::printf("    meanwhile %s\n",
                        terminalSafe(threadWaitText(t, w, e->gap.duration(), 120)).c_str());
    }
}

} // namespace

namespace strata::cli {

int gaps(const Args& args) {
    bool json = false;
    AnalysisArgs analysisArgs;
    std::vector<std::string> files;
    CommandLine line("gaps", kUsage);
    line.flag("--json", &json).files(&files, 1, SIZE_MAX, "FILE...");
    analysisArgs.declare(line);
    if (const auto exit = line.parse(args)) return *exit;
    if (files.size() > 1) return gapsOfRanks(files, analysisArgs, json);
    double loadMs = 0;
    const std::shared_ptr<const Trace> trace =
        analysisArgs.shifted(loadTraceOrSay("gaps", files.front(), &loadMs));
    if (!trace) return 1;
    const Trace& t = *trace;
    const double thresholdUs = analysisArgs.thresholdUs();
    const auto t0 = std::chrono::steady_clock::now();
    const TraceAnalysis analysis(trace, analysisArgs.settings, analysisArgs.range(t));
    const GapCauses& g = analysis.gapCauses();
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (json) {
        nlohmann::json j = gapCausesToJson(t, g);
        j["threshold_us"] = thresholdUs;
        j["load_ms"] = loadMs;
        j["analysis_ms"] = ms;
        printJson(j);
        return 0;
    }
    std::printf("GPU idle gaps over %s (analysed in %.1f ms)\n",
                formatPreciseDuration(TimeNs(std::llround(thresholdUs * 1000))).c_str(), ms);
    printGaps(t, g);
    return 0;
}

} // namespace strata::cli
