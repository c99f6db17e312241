#include "model/run_info.h"

#include "util/json_text.h"

#include <nlohmann/json.hpp>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>

namespace strata {
namespace {

void appendStringArray(std::string& out, const std::vector<std::string>& v) {
    out += '[';
    for (size_t i = 0; i < v.size(); ++i) {
        if (i) out += ", ";
        appendJsonString(out, v[i]);
    }
    out += ']';
}

void appendKey(std::string& out, const char* key) {
    if (out.size() > 1) out += ", ";
    appendJsonString(out, key);
    out += ": ";
}

} // namespace

std::string formatUtcTime(int64_t unixNs) {
    const std::time_t secs = std::time_t(unixNs / 1'000'000'000);
    const int ms = int((unixNs % 1'000'000'000) / 1'000'000);
    std::tm tm{};
    gmtime_r(&secs, &tm);
    char buf[80]; // room for any int the format may print (-Wformat-truncation)
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                  tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ms < 0 ? 0 : ms);
    return buf;
}

std::string describeExit(const RunInfo& run) {
    if (run.signal) {
        const char* name = sigabbrev_np(*run.signal);
        return "was killed by signal " + std::to_string(*run.signal) +
               (name ? std::string(" (SIG") + name + ")" : std::string());
    }
    if (run.exitCode) return "exited with code " + std::to_string(*run.exitCode);
    return "is still running";
}

std::string runInfoToJson(const RunInfo& r) {
    std::string o = "{";
    appendKey(o, "argv");
    appendStringArray(o, r.argv);
    appendKey(o, "executable");
    appendJsonString(o, r.executable);
    appendKey(o, "cwd");
    appendJsonString(o, r.cwd);
    appendKey(o, "env_added");
    o += '{';
    for (size_t i = 0; i < r.envAdded.size(); ++i) {
        if (i) o += ", ";
        appendJsonString(o, r.envAdded[i].first);
        o += ": ";
        appendJsonString(o, r.envAdded[i].second);
    }
    o += '}';
    appendKey(o, "env_removed");
    appendStringArray(o, r.envRemoved);
    appendKey(o, "pid");
    o += std::to_string(r.pid);
    appendKey(o, "exit_code");
    o += r.exitCode ? std::to_string(*r.exitCode) : "null";
    appendKey(o, "signal");
    o += r.signal ? std::to_string(*r.signal) : "null";
    appendKey(o, "start_unix_ns");
    o += std::to_string(r.startUnixNs);
    appendKey(o, "start_time");
    appendJsonString(o, formatUtcTime(r.startUnixNs));
    appendKey(o, "duration_ns");
    o += std::to_string(r.durationNs);
    appendKey(o, "duration_s");
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.9f", double(r.durationNs) / 1e9);
    o += buf;
    appendKey(o, "host");
    appendJsonString(o, r.host);
    appendKey(o, "strata_version");
    appendJsonString(o, r.strataVersion);
    appendKey(o, "captured");
    o += r.captured ? "true" : "false";
    appendKey(o, "no_trace_reason");
    appendJsonString(o, r.noTraceReason);
    appendKey(o, "stop_signals");
    appendStringArray(o, r.stopSignals);
    o += '}';
    return o;
}

std::string runInfoFromJson(std::string_view text, RunInfo* run) {
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return "its JSON text is not valid JSON";
    if (!j.is_object()) return "its JSON text is not an object";
    std::string problem;
    auto wrong = [&](const char* key, const char* expected) {
        if (problem.empty()) problem = std::string("\"") + key + "\" is not " + expected;
    };
    auto str = [&](const char* key, std::string* out) {
        if (auto it = j.find(key); it != j.end()) {
            if (it->is_string())
                *out = it->get<std::string>();
            else
                wrong(key, "a string");
        }
    };
    auto strings = [&](const char* key, std::vector<std::string>* out) {
        if (auto it = j.find(key); it != j.end()) {
            if (!it->is_array()) return wrong(key, "an array of strings");
            out->clear();
            for (const auto& e : *it) {
                if (!e.is_string()) return wrong(key, "an array of strings");
                out->push_back(e.get<std::string>());
            }
        }
    };
    strings("argv", &run->argv);
    str("executable", &run->executable);
    str("cwd", &run->cwd);
    if (auto it = j.find("env_added"); it != j.end()) {
        if (!it->is_object()) {
            wrong("env_added", "an object of strings");
        } else {
            run->envAdded.clear();
            for (auto e = it->begin(); e != it->end(); ++e) {
                if (!e.value().is_string()) {
                    wrong("env_added", "an object of strings");
                    break;
                }
                run->envAdded.emplace_back(e.key(), e.value().get<std::string>());
            }
        }
    }
    strings("env_removed", &run->envRemoved);
    str("host", &run->host);
    str("strata_version", &run->strataVersion);
    str("no_trace_reason", &run->noTraceReason);
    strings("stop_signals", &run->stopSignals);
    if (auto it = j.find("captured"); it != j.end()) {
        if (it->is_boolean())
            run->captured = it->get<bool>();
        else
            wrong("captured", "true or false");
    }
    return problem;
}

} // namespace strata
