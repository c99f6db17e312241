// strata-cli advise: the advisor's findings (core/analysis/advisor.h), each with its evidence and
// where to look, as text or (--json) one JSON object.
#include "cli_commands.h"
#include "cli_options.h"
#include "util/terminal_text.h"

#include "analysis/json/advice_json.h"
#include "analysis/trace_analysis.h"
#include "model/names/time_text.h"

#include <chrono>
#include <cstdio>
#include <string>

namespace {

const std::string kUsage =
    std::string("usage: strata-cli advise [--json] [--gap-threshold-us N] [--step-name PREFIX]\n"
                "                         [--range-us START:END] FILE\n"
                "  Findings ranked by the time they would save: the idle time of the gaps\n"
                "  by cause (input pipeline, CPU-bound, launch overhead, synchronization,\n"
                "  dependency), short gaps, runs of short kernels a CUDA graph would replay,\n"
                "  pageable copies, blocking calls in the loop, low theoretical occupancy.\n"
                "  --json               load_ms, analysis_ms, warnings, basis_us, basis,\n"
                "                       findings [{rule, severity, title, detail, saving_us,\n"
                "                       saving_share, evidence, where_us}]\n") +
    strata::cli::kAnalysisOptionsUsage;

} // namespace

namespace strata::cli {

int advise(const Args& args) {
    bool json = false;
    AnalysisArgs analysisArgs;
    std::vector<std::string> files;
    CommandLine line("advise", kUsage);
    line.flag("--json", &json).files(&files, 1, 1);
    analysisArgs.declare(line);
    if (const auto exit = line.parse(args)) return *exit;
    const std::string& file = files.front();
    double loadMs = 0;
    const std::shared_ptr<const Trace> trace =
        analysisArgs.shifted(loadTraceOrSay("advise", file, &loadMs));
    if (!trace) return 1;
    const Trace& t = *trace;
    const TimeNs origin = t.bounds().start;
    const auto t0 = std::chrono::steady_clock::now();
    const TraceAnalysis analysis(trace, analysisArgs.settings, analysisArgs.range(t));
    const Advice& a = analysis.advice();
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (json) {
        nlohmann::json j = adviceToJson(a, origin);
        j["load_ms"] = loadMs;
        j["analysis_ms"] = ms;
        printJson(j);
        return 0;
    }
    std::printf("Advice on %s (analysed in %.1f ms)\n", terminalSafe(file).c_str(), ms);
    for (const std::string& w : a.warnings) std::printf("warning: %s\n", terminalSafe(w).c_str());
    for (const Finding& f : a.findings) {
        std::printf("\n[%s] saves %s (%.1f %% of the %s) %s\n  %s\n",
                    findingSeverityName(f.severity), formatDuration(f.saving).c_str(),
                    100.0 * f.savingShare, a.basisIsSteps ? "steps" : "span",
                    terminalSafe(f.title).c_str(), terminalSafe(f.detail).c_str());
        for (const TimeRange& w : f.where)
            std::printf("  at %s (%s)\n", formatDuration(w.start - origin).c_str(),
                        formatDuration(w.duration()).c_str());
    }
    if (a.findings.empty()) std::printf("\nNo findings.\n");
    return 0;
}

} // namespace strata::cli
