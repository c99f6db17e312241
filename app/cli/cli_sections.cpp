// strata-cli sections: statistics of in-kernel timer sections (core/analysis/section_stats.h)
// from a timer array (.npy, .csv, .json), the host helper's .sections file or a .strata
// recording with Sections records, as a table or (--json) one JSON object.
#include "cli_commands.h"
#include "cli_options.h"
#include "util/terminal_text.h"

#include "analysis/json/section_stats_json.h"
#include "analysis/sections/section_stats.h"
#include "analysis/sections/section_value_text.h"
#include "io/sections/sections_import.h"
#include "io/trace_loader.h"
#include "io/trace_reader.h"

#include <chrono>
#include <cstdio>
#include <map>
#include <string>

namespace {

using namespace strata;

const char* const kUsage =
    "usage: strata-cli sections [--json] [--names A,B,...] [--clock-hz F] [--kernel NAME] FILE\n"
    "\n"
    "  FILE            a timer array times[section][iteration] (.npy int64, int32, uint64 or\n"
    "                  uint32; .csv with a header row of names; .json {\"sections\",\n"
    "                  \"clock_hz\", \"times\"}), a .sections file of the host helper, or a\n"
    "                  .strata recording\n"
    "  --json          one JSON object: unit, sections [{name, count, total, mean, median,\n"
    "                  p95, max, share}], and the launches, blocks, lost records and warnings\n"
    "  --names A,B     the section names (a .npy has none)\n"
    "  --clock-hz F    the SM clock rate (e.g. 1.98e9): values become ns\n"
    "  --kernel NAME   the kernel whose launches to pool (when the file has several)\n";

std::vector<std::string> splitNames(const std::string& s) {
    std::vector<std::string> out;
    size_t at = 0;
    while (true) {
        const size_t c = s.find(',', at);
        out.push_back(s.substr(at, c == std::string::npos ? c : c - at));
        if (c == std::string::npos) break;
        at = c + 1;
    }
    return out;
}

// `text` right-aligned in `width` terminal columns (a UTF-8 character is one: "µ", thin spaces).
std::string padLeft(const std::string& text, size_t width) {
    size_t columns = 0;
    for (unsigned char c : text) columns += (c & 0xC0) != 0x80;
    return columns < width ? std::string(width - columns, ' ') + text : text;
}

} // namespace

namespace strata::cli {

int sections(const Args& args) {
    bool json = false;
    SectionsImportOptions options;
    std::string kernel;
    std::vector<std::string> files;
    CommandLine line("sections", kUsage);
    line.flag("--json", &json)
        .option("--names",
                [&options](const std::string& v) {
                    options.names = splitNames(v);
                    return std::string();
                })
        .option("--clock-hz",
                [&options](const std::string& v) -> std::string {
                    if (!parseSectionsNumber(v, &options.clockHz) || !(options.clockHz > 0) ||
                        options.clockHz > 1e15)
                        return "--clock-hz expects a positive number, e.g. 1980000000 or 1.98e9";
                    return {};
                })
        .option("--kernel", text(&kernel))
        .files(&files, 1, 1);
    if (const auto exit = line.parse(args)) return *exit;
    const std::string& file = files.front();

    // Any file Strata reads (io/trace_reader.h): a recording's sections, or a timer array's.
    LoadOptions load;
    load.sectionNames = options.names;
    load.clockHz = options.clockHz;
    const LoadResult loaded = loadForCli(file, load);
    if (!loaded.ok()) {
        std::fprintf(stderr, "strata-cli sections: %s\n",
                     terminalSafe(loaded.error ? loaded.error->toString() : file).c_str());
        return 1;
    }
    std::vector<const SectionSet*> sets;
    for (const SectionSet& s : loaded.trace->sections()) sets.push_back(&s);
    if (sets.empty()) {
        std::fprintf(stderr, "strata-cli sections: %s has no in-kernel sections\n",
                     terminalSafe(file).c_str());
        return 1;
    }
    // A timer array's warnings are about its sections; a recording's are about the trace.
    const TraceReader* reader = readerNamed(loaded.format);
    std::vector<std::string> warnings;
    if (reader && reader->kind == ReaderKind::Sections) warnings = loaded.trace->warnings();
    std::map<std::string, size_t> kernels;
    for (const SectionSet* s : sets) ++kernels[s->kernel];
    if (!kernel.empty()) {
        std::erase_if(sets, [&](const SectionSet* s) { return s->kernel != kernel; });
        if (sets.empty()) {
            std::string known;
            for (const auto& [name, n] : kernels) known += (known.empty() ? "" : ", ") + name;
            std::fprintf(stderr,
                         "strata-cli sections: no sections of kernel '%s' in %s (kernels: %s)\n",
                         terminalSafe(kernel).c_str(), terminalSafe(file).c_str(),
                         terminalSafe(known).c_str());
            return 1;
        }
    } else if (kernels.size() > 1) {
        std::string known;
        for (const auto& [name, n] : kernels)
            known += "\n  " + name + " (" + std::to_string(n) + " launches)";
        std::fprintf(stderr,
                     "strata-cli sections: %s has sections of %zu kernels; pick one with "
                     "--kernel NAME:%s\n",
                     terminalSafe(file).c_str(), kernels.size(), terminalSafe(known).c_str());
        return 2;
    }
    // A .strata file's clock rate is the recorded one unless --clock-hz overrides it.
    const auto t0 = std::chrono::steady_clock::now();
    SectionStats st = sectionStats(sets, options.clockHz);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    st.warnings.insert(st.warnings.begin(), warnings.begin(), warnings.end());
    if (json) {
        nlohmann::json j = sectionStatsToJson(st);
        j["kernel"] = sets.front()->kernel;
        j["analysis_ms"] = ms;
        printJson(j);
        return 0;
    }
    const SectionSet& first = *sets.front();
    if (!first.hasTimes && !st.sections.empty()) // an imported times[section][iteration] array
        std::printf("%s: a timer array of %llu iteration%s, values in %s",
                    terminalSafe(first.kernel).c_str(),
                    static_cast<unsigned long long>(st.sections.front().samples.count),
                    st.sections.front().samples.count == 1 ? "" : "s", st.unit());
    else
        std::printf(
            "%s: %llu launch%s, %llu block%s, values in %s", terminalSafe(first.kernel).c_str(),
            static_cast<unsigned long long>(st.launches), st.launches == 1 ? "" : "es",
            static_cast<unsigned long long>(st.blocks), st.blocks == 1 ? "" : "s", st.unit());
    if (st.clockHz > 0) std::printf(" (clock %.6g Hz)", st.clockHz);
    std::printf("\n");
    for (const std::string& w : st.warnings) std::printf("warning: %s\n", terminalSafe(w).c_str());
    // 4 significant digits, as the Sections dock shows them (--json has the exact values).
    std::printf("\n%-24s %10s %14s %14s %14s %14s %14s %7s\n", "section", "count", "total", "mean",
                "median", "p95", "max", "share");
    for (const SectionStat& s : st.sections) {
        std::printf("%-24s %10llu", terminalSafe(s.name).c_str(),
                    static_cast<unsigned long long>(s.samples.count));
        for (double v :
             {s.samples.total, s.samples.mean, s.samples.median, s.samples.p95, s.samples.max})
            std::printf(" %s", padLeft(formatSectionValue(v, st.ns), 14).c_str());
        std::printf(" %6.1f%%\n", 100.0 * s.share);
    }
    return 0;
}

} // namespace strata::cli
