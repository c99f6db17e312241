#include "record/trace_info.h"

#include "model/trace.h"
#include "record/record_summary.h"
#include "util/json_text.h"
#include "util/shell_words.h"

#include <cstdio>

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

const char* traceFormatName(TraceFormat format) {
    switch (format) {
    case TraceFormat::Strata:
        return "strata";
    case TraceFormat::ChromeJson:
        return "chrome-json";
    case TraceFormat::ChromeJsonGzip:
        return "chrome-json-gzip";
    case TraceFormat::Unknown:
        break;
    }
    return "unknown";
}

TraceInfo traceInfo(const Trace& trace, const std::string& file, TraceFormat format) {
    TraceInfo info;
    info.file = file;
    info.format = traceFormatName(format);
    info.run = trace.run();
    info.metadata = trace.metadata();
    info.noGpuReason = explainMissingGpuActivity(trace);
    return info;
}

std::string traceInfoToJson(const TraceInfo& info) {
    std::string o = "{\"file\": ";
    appendJsonString(o, info.file);
    o += ", \"format\": ";
    appendJsonString(o, info.format);
    o += ", \"run\": ";
    o += info.run ? runInfoToJson(*info.run) : "null";
    o += ", \"metadata\": {";
    bool first = true;
    for (const auto& [k, v] : info.metadata) {
        if (!first) o += ", ";
        first = false;
        appendJsonString(o, k);
        o += ": ";
        appendJsonString(o, v);
    }
    o += "}, \"no_gpu_reason\": ";
    if (info.noGpuReason.empty())
        o += "null";
    else
        appendJsonString(o, info.noGpuReason);
    o += "}";
    return o;
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
    for (const auto& [k, v] : info.metadata) {
        // The launcher's copies of what the run record already says (a run-only trace).
        const bool repeated = info.run && (k == "command_line" || k == "host" || k == "pid" ||
                                           k == "no_trace_reason");
        if (!repeated) rows.emplace_back(k, v);
    }
    return rows;
}

} // namespace strata
