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
#include "analysis/trace_analysis.h"
#include "model/names/time_text.h"

#include <nlohmann/json.hpp>

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

double us(TimeNs ns) {
    return double(ns) / 1000.0;
}

nlohmann::json nameOrNull(const Trace& t, StringId id) {
    return id == kNoName ? nlohmann::json() : nlohmann::json(std::string(t.str(id)));
}

// Where the gap's time went (gap_breakdown.h): the totals per kind and the parts, each summing to
// the gap's length; null when the trace has no launch call for its op.
nlohmann::json breakdownJson(const Trace& t, const GapBreakdown& b) {
    if (!b.known) return nlohmann::json();
    nlohmann::json j;
    for (int k = 0; k < kGapPartKindCount; ++k)
        j[std::string(gapPartKindName(GapPartKind(k))) + "_us"] = us(b.byKind[size_t(k)]);
    nlohmann::json parts = nlohmann::json::array();
    for (const GapPart& p : b.parts) {
        nlohmann::json part = {{"kind", gapPartKindName(p.kind)},
                               {"name", nameOrNull(t, p.name)},
                               {"in", nameOrNull(t, p.context)},
                               {"us", us(p.time)}};
        if (p.kind == GapPartKind::Other) part["gathered"] = p.gathered;
        parts.push_back(part);
    }
    j["parts"] = parts;
    j["input_pipeline_us"] = us(b.inputPipeline);
    j["input_span"] = nameOrNull(t, b.inputSpan);
    return j;
}

nlohmann::json gapJson(const Trace& t, const ExplainedGap& e, TimeNs origin) {
    nlohmann::json g;
    g["device"] = e.gap.device;
    g["stream"] = e.gap.stream < 0 ? nlohmann::json() : nlohmann::json(e.gap.stream);
    g["start_us"] = us(e.gap.start - origin);
    g["dur_us"] = us(e.gap.duration());
    g["cause"] = gapCauseName(e.cause);
    g["cause_label"] = gapCauseLabel(e.cause);
    g["reason"] = gapReason(t, e);
    g["late_us"] = e.launchedLate ? nlohmann::json(us(e.late)) : nlohmann::json();
    g["breakdown"] = breakdownJson(t, e.breakdown);
    g["cpu_covered_share"] = e.breakdown.known ? nlohmann::json(e.tracedShare()) : nlohmann::json();
    const GapPart* dominant =
        e.cause == GapCause::LaunchBound ? e.breakdown.dominantCpu() : nullptr;
    g["dominant"] = dominant ? nlohmann::json({{"kind", gapPartKindName(dominant->kind)},
                                               {"name", nameOrNull(t, dominant->name)},
                                               {"in", nameOrNull(t, dominant->context)},
                                               {"us", us(dominant->time)}})
                             : nlohmann::json();
    g["input_pipeline"] = e.inputPipeline;
    g["blocking_call"] = e.blockingCall.valid()
                             ? nlohmann::json(std::string(t.name(e.blockingCall)))
                             : nlohmann::json();
    nlohmann::json waited;
    if (e.waitedOn.valid()) {
        const GpuActivity* a = t.gpu(e.waitedOn);
        waited = {{"name", std::string(t.name(e.waitedOn))},
                  {"kind", std::string(sliceKindName(t.kind(e.waitedOn)))},
                  {"stream", a ? nlohmann::json(a->stream) : nlohmann::json()},
                  {"end_us", us(t.start(e.waitedOn) + t.duration(e.waitedOn) - origin)}};
    }
    g["waited_on"] = waited;
    g["wait_call"] =
        e.waitCall.valid() ? nlohmann::json(std::string(t.name(e.waitCall))) : nlohmann::json();
    return g;
}

nlohmann::json clockJson(const ClockCheck& c) {
    return {{"kernels_launched", c.kernelsLaunched},
            {"start_before_launch", c.startBeforeLaunch},
            {"most_before_us", us(c.mostBefore)},
            {"idle_launches", c.idleLaunches},
            {"least_idle_delay_us", us(c.leastIdleDelay)},
            {"most_idle_delay_us", us(c.mostIdleDelay)},
            {"offset", c.offset()},
            {"suggested_gpu_shift_us", us(c.suggestedShift)}};
}

// The JSON of `strata-cli gaps --json` (without the threshold and the timings).
nlohmann::json gapsJson(const Trace& t, const GapCauses& g) {
    const TimeNs origin = t.bounds().start;
    nlohmann::json j;
    j["warnings"] = g.warnings;
    j["clock"] = clockJson(g.clock);
    nlohmann::json list = nlohmann::json::array();
    for (const ExplainedGap& e : g.deviceGaps) list.push_back(gapJson(t, e, origin));
    for (const ExplainedGap& e : g.streamGaps) list.push_back(gapJson(t, e, origin));
    j["gaps"] = list;
    // Per cause: count, idle and its share of the devices' spans (first op to last end).
    TimeNs span = 0;
    for (const DeviceGapStats& d : g.devices) span += d.lastEnd - d.firstStart;
    nlohmann::json by = nlohmann::json::object();
    for (int c = 0; c < kGapCauseCount; ++c)
        by[gapCauseName(GapCause(c))] = {
            {"count", g.byCause[size_t(c)].count},
            {"idle_us", us(g.byCause[size_t(c)].idle)},
            {"share_of_span", span > 0 ? double(g.byCause[size_t(c)].idle) / double(span) : 0.0}};
    j["by_cause"] = by;
    auto causes = [](const std::array<CauseTotals, kGapCauseCount>& c) {
        nlohmann::json o = nlohmann::json::object();
        for (int k = 0; k < kGapCauseCount; ++k)
            o[gapCauseName(GapCause(k))] = {{"count", c[size_t(k)].count},
                                            {"idle_us", us(c[size_t(k)].idle)}};
        return o;
    };
    nlohmann::json steps = nlohmann::json::array();
    for (const StepGaps& s : g.steps)
        steps.push_back(
            {{"name", s.step.name},
             {"device", s.device},
             {"start_us", us(s.step.start - origin)},
             {"dur_us", us(s.step.end - s.step.start)},
             {"idle_us", us(s.idle)},
             {"idle_share",
              s.step.end > s.step.start ? double(s.idle) / double(s.step.end - s.step.start) : 0.0},
             {"by_cause", causes(s.byCause)}});
    j["steps"] = steps;
    nlohmann::json edges = nlohmann::json::array();
    for (const EdgeIdle& e : g.edges)
        edges.push_back({{"device", e.device},
                         {"before_first_op_us", us(e.before)},
                         {"after_last_op_us", us(e.after)}});
    j["edges"] = edges;
    return j;
}

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
                    formatPreciseDuration(e->gap.start - origin).c_str(),
                    formatPreciseDuration(e->gap.duration()).c_str(), gapCauseLabel(e->cause));
        if (e->launchedLate && e->late > 0)
            std::printf(", launched %s late", formatPreciseDuration(e->late).c_str());
        std::printf("\n    %s\n", terminalSafe(gapReason(t, *e, 120)).c_str());
        for (const GapPart& p : e->breakdown.parts)
            std::printf("    %10s  %s\n", formatDuration(p.time).c_str(),
                        terminalSafe(gapPartText(t, p, 120)).c_str());
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
        nlohmann::json j = gapsJson(t, g);
        j["threshold_us"] = thresholdUs;
        j["load_ms"] = loadMs;
        j["analysis_ms"] = ms;
        std::printf("%s\n",
                    j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
        return 0;
    }
    std::printf("GPU idle gaps over %s (analysed in %.1f ms)\n",
                formatPreciseDuration(TimeNs(std::llround(thresholdUs * 1000))).c_str(), ms);
    printGaps(t, g);
    return 0;
}

} // namespace strata::cli
