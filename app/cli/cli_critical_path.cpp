// strata-cli critical-path: the critical path of a window (a step, an annotation's instances, a
// range or the whole trace) under HTA's rule (core/analysis/critical_path/critical_path.h): its
// length, HTA's summary by bound, and each edge of the path with its delay.
#include "cli_commands.h"
#include "cli_options.h"
#include "util/terminal_text.h"

#include "analysis/json/critical_path_json.h"
#include "model/names/time_text.h"

#include <chrono>
#include <cstdio>
#include <string>

namespace {

using namespace strata;

const char* const kUsage =
    "usage: strata-cli critical-path [--json] [--annotation TEXT] [--instance N[:M]]\n"
    "                                [--range-us START:END] [--data-loading TEXT[,TEXT...]]\n"
    "                                [--hta-steps] [--hta-us] FILE...\n"
    "\n"
    "  --annotation TEXT   the window: the slices whose name contains TEXT (HTA's annotation,\n"
    "                      e.g. ProfilerStep), instance N (0 first, in start order; default 0)\n"
    "                      or N to M together: [their first start, their last end]\n"
    "  --range-us S:E      the window in µs from the trace start (default: the whole trace)\n"
    "  --data-loading T    slices whose name contains T are data loading (nodes of the graph,\n"
    "                      and their time data_loading in the summary; HTA's data_load_events)\n"
    "  --hta-steps         keep only the ops and CPU events HTA keeps when it loads a trace with\n"
    "                      two or more ProfilerStep#N (those before the last step starts)\n"
    "  --hta-us            times cut to whole µs as HTA loads them\n"
    "  --json              one JSON object: ok, error, window {start_us, end_us}, events,\n"
    "                      graph {nodes, edges, edges_by_type}, length_us, by_bound_us,\n"
    "                      summary_percent, path [{from, to, type, delay_us, bound,\n"
    "                      attributed}], rule, load_ms, analysis_ms (several FILEs: {traces:\n"
    "                      [{file, ...}]}; times from the trace start)\n"
    "The rule (docs/analysis.md, \"Critical path\"): HTA's graph of CPU ops, runtime calls and\n"
    "GPU ops (their spans, call stacks, the runtime lock, launch and kernel-kernel delays, sync\n"
    "edges) and its longest path.\n";

void printPath(const std::string& file, const Trace& trace, const CriticalPath& cp) {
    const TimeNs origin = trace.bounds().start;
    std::printf("%s: critical path of [%s, %s] (HTA's rule)\n", terminalSafe(file).c_str(),
                formatDuration(cp.window.start - origin).c_str(),
                formatDuration(cp.window.end - origin).c_str());
    if (!cp.ok) {
        std::printf("no critical path: %s\n", cp.error.c_str());
        return;
    }
    std::printf("length %s over %zu edges (%zu events; graph: %zu nodes, %zu edges)\n",
                formatDuration(cp.length).c_str(), cp.edges.size(), cp.pathEvents.size(),
                cp.graphNodes, cp.graphEdges);
    std::printf("%-28s %12s %8s\n", "bound", "time", "share");
    std::vector<bool> present(kCpBoundCount, false);
    for (const CpPathEdge& e : cp.edges) present[size_t(e.bound)] = true;
    for (size_t b = 0; b < kCpBoundCount; ++b) {
        if (!present[b]) continue;
        const char* name = cpBoundName(CpBound(b));
        std::printf("%-28s %12s %7.2f%%\n", *name ? name : "(dependency, sync)",
                    formatDuration(cp.byBound[b]).c_str(),
                    cp.boundTotal ? 100.0 * double(cp.byBound[b]) / double(cp.boundTotal) : 0.0);
    }
    std::printf("\n%12s  %-20s %-27s %s\n", "delay", "edge", "bound", "from -> to");
    for (const CpPathEdge& e : cp.edges) {
        const CpPoint& a = cp.points[e.from];
        const CpPoint& b = cp.points[e.to];
        std::printf(
            "%12s  %-20s %-27s %s (%s) -> %s (%s)\n", formatDuration(e.weight).c_str(),
            cpEdgeTypeName(e.type), cpBoundName(e.bound),
            terminalSafe(std::string(trace.name(a.event))).c_str(), a.isStart ? "start" : "end",
            terminalSafe(std::string(trace.name(b.event))).c_str(), b.isStart ? "start" : "end");
    }
}

// "N" or "N:M".
cli::TakeValue instances(size_t* first, size_t* last) {
    return [first, last](const std::string& v) -> std::string {
        const size_t colon = v.find(':');
        try {
            size_t used = 0;
            *first = std::stoul(v.substr(0, colon), &used);
            if (used != v.substr(0, colon).size()) return "N or N:M";
            *last = *first;
            if (colon != std::string::npos) {
                *last = std::stoul(v.substr(colon + 1), &used);
                if (used != v.size() - colon - 1 || *last < *first) return "N or N:M with N <= M";
            }
        } catch (...) {
            return "N or N:M";
        }
        return "";
    };
}

std::vector<std::string> splitCommas(const std::string& s) {
    std::vector<std::string> out;
    for (size_t b = 0; b <= s.size();) {
        const size_t e = std::min(s.find(',', b), s.size());
        if (e > b) out.push_back(s.substr(b, e - b));
        b = e + 1;
    }
    return out;
}

} // namespace

namespace strata::cli {

int criticalPath(const Args& args) {
    bool json = false, htaSteps = false, htaUs = false;
    std::string annotation, dataLoading;
    bool haveAnnotation = false;
    size_t first = 0, last = 0;
    std::optional<std::pair<double, double>> rangeUsText;
    std::vector<std::string> files;
    CommandLine line("critical-path", kUsage);
    line.flag("--json", &json)
        .flag("--hta-steps", &htaSteps)
        .flag("--hta-us", &htaUs)
        .option("--annotation",
                [&](const std::string& v) {
                    haveAnnotation = true;
                    annotation = v;
                    return std::string();
                })
        .option("--instance", instances(&first, &last))
        .option("--data-loading", text(&dataLoading))
        .option("--range-us", rangeUs("--range-us", &rangeUsText))
        .files(&files, 1, SIZE_MAX);
    if (const auto exit = line.parse(args)) return *exit;
    if (haveAnnotation && rangeUsText)
        return line.usageError("--annotation and --range-us both choose the window: give one");
    bool failed = false;
    const int status = forEachTrace(
        "critical-path", files, json,
        [&](const std::string& file, const Trace& trace, double) -> nlohmann::json {
            const auto t0 = std::chrono::steady_clock::now();
            CriticalPathOptions options;
            options.hta = {htaSteps, htaUs};
            options.dataLoading = splitCommas(dataLoading);
            std::string error;
            if (rangeUsText) {
                const TimeRange r = rangeFromUs(trace, rangeUsText);
                options.window = TimeRange{r.start, r.end};
            } else if (!criticalPathWindow(trace, haveAnnotation ? annotation : std::string(),
                                           first, last, options.hta, &options.window, &error)) {
                std::fprintf(stderr, "strata-cli critical-path: %s: %s\n",
                             terminalSafe(file).c_str(), error.c_str());
                failed = true;
                return {{"ok", false}, {"error", error}};
            }
            const CriticalPath cp = strata::criticalPath(trace, options);
            failed |= !cp.ok;
            const double ms =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                    .count();
            if (!json) {
                printPath(file, trace, cp);
                return nlohmann::json();
            }
            nlohmann::json j = criticalPathToJson(trace, cp);
            j["analysis_ms"] = ms;
            return j;
        });
    return failed ? 1 : status;
}

} // namespace strata::cli
