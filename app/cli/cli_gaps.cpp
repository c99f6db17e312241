// strata-cli gaps: every GPU idle gap over the threshold with its cause (launch_bound,
// synchronization, dependency, unattributed; core/analysis/gap_causes.h), per device and per
// stream, as a table or (--json) one JSON object; of several FILEs (the ranks of a job), a row
// per rank and their whole (cli_gaps_ranks.cpp).
#include "cli_commands.h"
#include "cli_options.h"
#include "cli_rank_rows.h"
#include "util/terminal_text.h"

#include "analysis/trace_analysis.h"
#include "model/time_text.h"

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
        "  --json               one JSON object: threshold_us, analysis_ms, warnings, gaps\n"
        "                       (per device, stream null, then per stream), by_cause\n"
        "Several FILEs (the ranks of a job): per rank the gaps by cause, then the whole; --json\n"
        "gives {threshold_us, ranks: [{rank, file, host, warnings, span_us, by_cause, steps}],\n"
        "whole: {span_us, by_cause}}\n") +
    cli::kAnalysisOptionsUsage;

double us(TimeNs ns) {
    return double(ns) / 1000.0;
}

nlohmann::json gapJson(const Trace& t, const ExplainedGap& e, TimeNs origin) {
    nlohmann::json g;
    g["device"] = e.gap.device;
    g["stream"] = e.gap.stream < 0 ? nlohmann::json() : nlohmann::json(e.gap.stream);
    g["start_us"] = us(e.gap.start - origin);
    g["dur_us"] = us(e.gap.duration());
    g["cause"] = gapCauseName(e.cause);
    const bool late = e.cause == GapCause::LaunchBound || e.cause == GapCause::Synchronization;
    g["late_us"] = late ? nlohmann::json(us(e.late)) : nlohmann::json();
    nlohmann::json cpu = nlohmann::json::array();
    for (const CpuOverlap& c : e.cpu)
        cpu.push_back({{"name", std::string(t.str(c.name))}, {"us", us(c.overlap)}});
    g["cpu_slices"] = cpu;
    g["cpu_covered_share"] = late && e.gap.duration() > 0
                                 ? nlohmann::json(double(e.cpuCovered) / double(e.gap.duration()))
                                 : nlohmann::json();
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
    const std::shared_ptr<const Trace> trace = loadTraceOrSay("gaps", files.front());
    if (!trace) return 1;
    const Trace& t = *trace;
    const TimeNs origin = t.bounds().start;
    const double thresholdUs = analysisArgs.thresholdUs();
    const auto t0 = std::chrono::steady_clock::now();
    const TraceAnalysis analysis(trace, analysisArgs.settings, analysisArgs.range(t));
    const GapCauses& g = analysis.gapCauses();
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (json) {
        nlohmann::json j;
        j["threshold_us"] = thresholdUs;
        j["analysis_ms"] = ms;
        j["warnings"] = g.warnings;
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
                {"share_of_span",
                 span > 0 ? double(g.byCause[size_t(c)].idle) / double(span) : 0.0}};
        j["by_cause"] = by;
        auto causes = [](const std::array<CauseTotals, 4>& c) {
            nlohmann::json o = nlohmann::json::object();
            for (int k = 0; k < kGapCauseCount; ++k)
                o[gapCauseName(GapCause(k))] = {{"count", c[size_t(k)].count},
                                                {"idle_us", us(c[size_t(k)].idle)}};
            return o;
        };
        nlohmann::json steps = nlohmann::json::array();
        for (const StepGaps& s : g.steps)
            steps.push_back({{"name", s.step.name},
                             {"device", s.device},
                             {"start_us", us(s.step.start - origin)},
                             {"dur_us", us(s.step.end - s.step.start)},
                             {"idle_us", us(s.idle)},
                             {"idle_share", s.step.end > s.step.start
                                                ? double(s.idle) / double(s.step.end - s.step.start)
                                                : 0.0},
                             {"by_cause", causes(s.byCause)}});
        j["steps"] = steps;
        nlohmann::json edges = nlohmann::json::array();
        for (const EdgeIdle& e : g.edges)
            edges.push_back({{"device", e.device},
                             {"before_first_op_us", us(e.before)},
                             {"after_last_op_us", us(e.after)}});
        j["edges"] = edges;
        std::printf("%s\n",
                    j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
        return 0;
    }
    std::printf("GPU idle gaps over %s (analysed in %.1f ms)\n",
                formatPreciseDuration(TimeNs(std::llround(thresholdUs * 1000))).c_str(), ms);
    for (const std::string& w : g.warnings) std::printf("warning: %s\n", terminalSafe(w).c_str());
    std::printf("\n%-16s %8s %14s\n", "cause", "gaps", "idle");
    for (int c = 0; c < kGapCauseCount; ++c)
        std::printf("%-16s %8llu %14s\n", gapCauseName(GapCause(c)),
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
                    formatPreciseDuration(e->gap.duration()).c_str(), gapCauseName(e->cause));
        if (e->blockingCall.valid())
            std::printf(" (after %s)", terminalSafe(t.name(e->blockingCall)).c_str());
        if (e->cause == GapCause::LaunchBound || e->cause == GapCause::Synchronization)
            std::printf(", launched %s late", formatPreciseDuration(e->late).c_str());
        if (!e->cpu.empty())
            std::printf("; CPU busy in %s", terminalSafe(t.str(e->cpu.front().name)).c_str());
        std::printf("\n");
    }
    return 0;
}

} // namespace strata::cli
