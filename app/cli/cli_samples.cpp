// strata-cli samples: where the sampled stacks of a recording were (analysis/samples/), per
// function its self and total samples and their shares, as a table or (--json) one JSON object.
#include "cli_commands.h"
#include "cli_options.h"
#include "util/terminal_text.h"

#include "analysis/json/sample_profile_json.h"
#include "analysis/samples/sample_profile.h"
#include "model/names/time_text.h"
#include "model/trace.h"

#include <charconv>
#include <chrono>
#include <cstdio>
#include <string>

namespace {

using namespace strata;

const char* const kUsage =
    "usage: strata-cli samples [--json] [--thread TID] [--kind KIND] [--range START:END] [--top "
    "N]\n"
    "                          FILE\n"
    "\n"
    "  FILE              a recording with sampled stacks (strata-cli record --python sample,\n"
    "                    --cpu-sample)\n"
    "  --json            one JSON object: samples, empty_samples, threads, period_ns,\n"
    "                    functions [{name, self, total, self_share, total_share}]\n"
    "  --thread TID      only the samples of this thread (all threads otherwise)\n"
    "  --kind KIND       python or native: the stacks of that kind only (otherwise each\n"
    "                    thread's Python stacks where it has any, else its native ones)\n"
    "  --range START:END only the samples in this range, relative to the trace start: numbers\n"
    "                    with ns, us, ms or s (plain = us)\n"
    "  --top N           the N functions of most self samples only (the table; 0 = all)\n";

// A whole number (a tid may be negative), or nothing.
std::optional<int64_t> wholeOf(const std::string& s) {
    int64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
    return v;
}

void printTable(const Trace& trace, const std::string& file, const SampleProfile& p, uint64_t top) {
    std::printf("%s: %llu stack samples on %u thread%s", terminalSafe(file).c_str(),
                static_cast<unsigned long long>(p.samples), p.threads, p.threads == 1 ? "" : "s");
    if (p.emptySamples)
        std::printf(" (%llu with no frame)", static_cast<unsigned long long>(p.emptySamples));
    if (p.period > 0) std::printf(", one every %s", formatDuration(p.period).c_str());
    std::printf("\n\n%10s %7s %10s %7s  %s\n", "self", "self%", "total", "total%", "function");
    uint64_t shown = 0;
    for (const SampleFunction& f : p.functions) {
        if (top && shown++ == top) break;
        std::printf("%10llu %6.2f%% %10llu %6.2f%%  %s\n", static_cast<unsigned long long>(f.self),
                    100.0 * f.selfShare, static_cast<unsigned long long>(f.total),
                    100.0 * f.totalShare, terminalSafe(std::string(trace.str(f.frame))).c_str());
    }
}

} // namespace

namespace strata::cli {

int samples(const Args& args) {
    bool json = false;
    std::string threadText, rangeText, kindText;
    uint64_t top = 0;
    std::vector<std::string> files;
    CommandLine line("samples", kUsage);
    line.flag("--json", &json)
        .option("--thread", text(&threadText))
        .option("--kind", text(&kindText))
        .option("--range", text(&rangeText))
        .option("--top", wholeNumber("--top", UINT32_MAX, &top))
        .files(&files, 1, 1);
    if (const auto exit = line.parse(args)) return *exit;
    const std::string& file = files.front();
    SampleSelection selection;
    if (!threadText.empty()) {
        selection.tid = wholeOf(threadText);
        if (!selection.tid) return line.usageError("--thread expects a thread id, e.g. 4242");
    }
    if (kindText == "python") {
        selection.kind = uint8_t(StackKind::Python);
    } else if (kindText == "native") {
        selection.kind = uint8_t(StackKind::Native);
    } else if (!kindText.empty()) {
        return line.usageError("--kind expects python or native, got '" + kindText + "'");
    }
    std::optional<TimeRange> relative;
    if (!rangeText.empty()) {
        std::string error;
        relative = parseTimeRange(rangeText, &error);
        if (!relative) return line.usageError("--range: " + error);
    }
    double loadMs = 0;
    const std::shared_ptr<const Trace> trace = loadTraceOrSay("samples", file, &loadMs);
    if (!trace) return 1;
    const StackSamples& k = trace->stackSamples();
    if (k.empty()) {
        if (json) {
            nlohmann::json j = sampleProfileToJson(*trace, SampleProfile{});
            j["file"] = file;
            printJson(j);
        } else {
            std::printf("%s has no stack samples (record with --python sample or --cpu-sample to "
                        "take them)\n",
                        terminalSafe(file).c_str());
        }
        return 0;
    }
    if (selection.tid && !k.threadByTid(*selection.tid)) {
        std::string known;
        for (const SampleThread& t : k.threads)
            known += (known.empty() ? "" : ", ") + std::to_string(t.tid);
        std::fprintf(stderr, "strata-cli samples: %s has no samples of thread %s (threads: %s)\n",
                     terminalSafe(file).c_str(), threadText.c_str(), known.c_str());
        return 1;
    }
    if (relative) {
        const TimeNs origin = trace->bounds().start;
        selection.range = {origin + relative->start, origin + relative->end};
    }
    const auto t0 = std::chrono::steady_clock::now();
    const SampleProfile profile = sampleProfile(*trace, selection);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (!json) {
        printTable(*trace, file, profile, top);
        return 0;
    }
    nlohmann::json j = sampleProfileToJson(*trace, profile);
    j["file"] = file;
    j["thread"] = selection.tid ? nlohmann::json(*selection.tid) : nlohmann::json();
    j["kind"] = selection.kind ? nlohmann::json(stackKindName(*selection.kind)) : nlohmann::json();
    j["range_ns"] =
        relative ? nlohmann::json{selection.range.start, selection.range.end} : nlohmann::json();
    j["load_ms"] = loadMs;
    j["analysis_ms"] = ms;
    printJson(j);
    return 0;
}

} // namespace strata::cli
