#include "analysis/trace_info.h"

#include "contract/collector_env.h"
#include "model/trace.h"
#include "util/shell_words.h"

#include <cstdio>
#include <set>

namespace strata {
namespace {

std::string seconds(int64_t ns) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.3f s", double(ns) / 1e9);
    return buf;
}

std::string joined(const std::vector<std::string>& words, const char* sep) {
    std::string out;
    for (const auto& w : words) {
        if (!out.empty()) out += sep;
        out += w;
    }
    return out;
}

} // namespace

std::string explainMissingGpuActivity(const Trace& t) {
    for (const Track& track : t.tracks())
        if (track.kind == TrackKind::GpuStream && track.slices.size() != 0) return {};
    if (t.run() && !t.run()->noTraceReason.empty()) return t.run()->noTraceReason;
    const auto& meta = t.metadata();
    if (auto it = meta.find(collector_env::kMetaCuptiError); it != meta.end())
        return "CUPTI could not be used: " + it->second;
    if (auto it = meta.find(collector_env::kMetaCudaInitialized);
        it != meta.end() && it->second == "0")
        return "the program never initialised CUDA: no GPU activity was recorded";
    return "no GPU activity was recorded (no kernel, copy or set ran while capturing)";
}

TraceInfo traceInfo(const Trace& trace, const std::string& file, const std::string& format) {
    TraceInfo info;
    info.file = file;
    info.format = format.empty() ? "unknown" : format;
    info.run = trace.run();
    info.metadata = trace.metadata();
    info.noGpuReason = explainMissingGpuActivity(trace);
    std::set<std::string> kernels;
    for (const SectionSet& s : trace.sections()) {
        if (s.correlation < 0) {
            info.importedSections.push_back(s.source.empty() ? s.kernel : s.source);
            continue;
        }
        ++info.sectionLaunches;
        kernels.insert(s.kernel);
    }
    info.sectionKernels = kernels.size();
    info.stackSamples = trace.stackSamples().size();
    info.stackSampleThreads = trace.stackSamples().threads.size();
    return info;
}

std::vector<std::pair<std::string, std::string>> traceInfoRows(const TraceInfo& info) {
    std::vector<std::pair<std::string, std::string>> rows;
    rows.emplace_back("File", info.file);
    rows.emplace_back("Format", info.format);
    if (const auto& r = info.run) {
        rows.emplace_back("Command", joinShellWords(r->argv));
        if (!r->executable.empty() && (r->argv.empty() || r->executable != r->argv[0]))
            rows.emplace_back("Executable", r->executable);
        rows.emplace_back("Working directory", r->cwd);
        if (!r->envAdded.empty()) {
            std::vector<std::string> env;
            for (const auto& [k, v] : r->envAdded) env.push_back(k + "=" + v);
            rows.emplace_back("Environment added", joined(env, "\n"));
        }
        if (!r->envRemoved.empty())
            rows.emplace_back("Environment removed", joined(r->envRemoved, ", "));
        rows.emplace_back("Exit", "the program " + describeExit(*r));
        if (!r->stopSignals.empty())
            rows.emplace_back("Stopped from Strata with", joined(r->stopSignals, ", then "));
        rows.emplace_back("Started", formatUtcTime(r->startUnixNs));
        rows.emplace_back("Duration", seconds(r->durationNs));
        rows.emplace_back("Host", r->host);
        rows.emplace_back("Process id", std::to_string(r->pid));
        rows.emplace_back("Captured", r->captured ? "yes (CUPTI collector injected)"
                                                  : "no (run without the collector)");
        rows.emplace_back("Recorded by", "Strata " + r->strataVersion);
    } else {
        rows.emplace_back("Command", "— (not recorded: the file has no run record)");
    }
    if (!info.noGpuReason.empty()) rows.emplace_back("GPU activity", info.noGpuReason);
    if (info.sectionLaunches)
        rows.emplace_back("In-kernel sections", std::to_string(info.sectionLaunches) + " launch" +
                                                    (info.sectionLaunches == 1 ? "" : "es") +
                                                    " of " + std::to_string(info.sectionKernels) +
                                                    " kernel" +
                                                    (info.sectionKernels == 1 ? "" : "s"));
    if (!info.importedSections.empty())
        rows.emplace_back("Imported timer sections", joined(info.importedSections, "\n"));
    if (info.stackSamples)
        rows.emplace_back("Stack samples", std::to_string(info.stackSamples) + " on " +
                                               std::to_string(info.stackSampleThreads) + " thread" +
                                               (info.stackSampleThreads == 1 ? "" : "s"));
    for (const auto& [k, v] : info.metadata) {
        // The launcher's copies of what the run record already says (a run-only trace).
        const bool repeated = info.run && (k == "command_line" || k == "host" || k == "pid" ||
                                           k == "no_trace_reason");
        if (!repeated) rows.emplace_back(k, v);
    }
    return rows;
}

} // namespace strata
