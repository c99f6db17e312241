// strata-cli advise: the advisor's findings (core/analysis/advisor.h), each with its evidence and
// where to look, as text or (--json) one JSON object.
#include "cli_commands.h"
#include "cli_options.h"
#include "util/terminal_text.h"

#include "analysis/advisor.h"
#include "io/trace_loader.h"
#include "model/time_text.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <string>

namespace strata::cli {

int advise(const Args& args) {
    bool json = false;
    std::string file;
    for (const std::string& a : args) {
        if (a == "--help" || a == "-h") {
            std::printf(
                "usage: strata-cli advise [--json] FILE\n"
                "  Findings with their evidence: idle share and its main cause, runs of\n"
                "  short kernels a CUDA graph would replay, pageable copies, blocking calls\n"
                "  in the loop, low theoretical occupancy. --json: analysis_ms, warnings,\n"
                "  findings [{rule, severity, title, detail, evidence, where_us}].\n");
            return 0;
        }
        if (a == "--json")
            json = true;
        else if (a.size() > 1 && a[0] == '-') {
            std::fprintf(stderr, "strata-cli advise: unknown option '%s'\n", a.c_str());
            return 2;
        } else
            file = a;
    }
    if (file.empty()) {
        std::fprintf(stderr, "strata-cli advise: missing FILE\n");
        return 2;
    }
    const std::shared_ptr<const Trace> trace = loadTraceOrSay("advise", file);
    if (!trace) return 1;
    const Trace& t = *trace;
    const TimeNs origin = t.bounds().start;
    const auto t0 = std::chrono::steady_clock::now();
    const Advice a = adviseTrace(t);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (json) {
        nlohmann::json j;
        j["analysis_ms"] = ms;
        j["warnings"] = a.warnings;
        nlohmann::json list = nlohmann::json::array();
        for (const Finding& f : a.findings) {
            nlohmann::json ev = nlohmann::json::object();
            for (const auto& [k, v] : f.evidence) ev[k] = v;
            nlohmann::json where = nlohmann::json::array();
            for (const TimeRange& w : f.where)
                where.push_back({double(w.start - origin) / 1e3, double(w.end - origin) / 1e3});
            list.push_back({{"rule", f.rule},
                            {"severity", findingSeverityName(f.severity)},
                            {"title", f.title},
                            {"detail", f.detail},
                            {"evidence", ev},
                            {"where_us", where}});
        }
        j["findings"] = list;
        std::printf("%s\n",
                    j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
        return 0;
    }
    std::printf("Advice on %s (analysed in %.1f ms)\n", terminalSafe(file).c_str(), ms);
    for (const std::string& w : a.warnings) std::printf("warning: %s\n", terminalSafe(w).c_str());
    for (const Finding& f : a.findings) {
        std::printf("\n[%s] %s\n  %s\n", findingSeverityName(f.severity),
                    terminalSafe(f.title).c_str(), terminalSafe(f.detail).c_str());
        for (const TimeRange& w : f.where)
            std::printf("  at %s (%s)\n", formatPreciseDuration(w.start - origin).c_str(),
                        formatPreciseDuration(w.duration()).c_str());
    }
    if (a.findings.empty()) std::printf("\nNo findings.\n");
    return 0;
}

} // namespace strata::cli
