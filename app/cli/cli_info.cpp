// strata-cli info: what a trace file says about itself — what was run to make it (the Run
// record), its top-level metadata and why it holds no GPU activity — as text or (--json) as one
// JSON object (core/analysis/trace_info.h; core/analysis/json/trace_info_json.h). The GUI's Trace
// Info panel shows the same rows.
#include "cli_commands.h"
#include "cli_options.h"
#include "util/terminal_text.h"

#include "analysis/json/trace_info_json.h"
#include "analysis/trace_info.h"
#include "model/trace.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace {

const char* const kUsage =
    "usage: strata-cli info [--json] FILE\n"
    "\n"
    "  --json   print one JSON object: {\"file\", \"format\", \"run\" (what was run,\n"
    "           or null), \"metadata\", \"no_gpu_reason\"}\n";

} // namespace

namespace strata::cli {

int info(const Args& args) {
    bool json = false;
    std::vector<std::string> files;
    CommandLine line("info", kUsage);
    line.flag("--json", &json).files(&files, 1, 1);
    if (const auto exit = line.parse(args)) return *exit;
    const std::string& file = files.front();
    const LoadResult loaded = loadForCli(file);
    if (!loaded.ok()) {
        const std::string msg = loaded.error ? loaded.error->toString() : file + ": cannot load";
        std::fprintf(stderr, "strata-cli info: %s\n", terminalSafe(msg).c_str());
        return 1;
    }
    const TraceInfo info = traceInfo(*loaded.trace, file, loaded.format);
    if (json) {
        std::printf("%s\n", traceInfoToJson(info).c_str());
        return 0;
    }
    size_t width = 0;
    const auto rows = traceInfoRows(info);
    for (const auto& [label, value] : rows) width = std::max(width, label.size());
    for (const auto& [label, value] : rows) {
        // Each line made safe on its own; continuation lines start under the first's value.
        std::string text;
        size_t from = 0;
        for (size_t nl; (nl = value.find('\n', from)) != std::string::npos; from = nl + 1)
            text +=
                terminalSafe(value.substr(from, nl - from)) + "\n" + std::string(width + 2, ' ');
        text += terminalSafe(value.substr(from));
        std::printf("%-*s  %s\n", int(width), terminalSafe(label).c_str(), text.c_str());
    }
    return 0;
}

} // namespace strata::cli
