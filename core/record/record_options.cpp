#include "record/record_options.h"

#include "contract/collector_env.h"

#include <cstdio>
#include <cstdlib>
#include <regex>

namespace strata {

const std::vector<std::string_view>& captureGroups() {
    static const std::vector<std::string_view> kGroups = {"api",    "nvtx", "kernels", "memcpy",
                                                          "memset", "sync", "memory"};
    return kGroups;
}

bool parseCaptureList(std::string_view list, std::vector<std::string>* out, std::string* error) {
    out->clear();
    size_t pos = 0;
    while (pos <= list.size()) {
        size_t comma = list.find(',', pos);
        if (comma == std::string_view::npos) comma = list.size();
        const std::string_view item = list.substr(pos, comma - pos);
        pos = comma + 1;
        if (item.empty()) continue;
        if (item == "all") {
            out->assign(captureGroups().begin(), captureGroups().end());
            continue;
        }
        bool known = false;
        for (auto g : captureGroups()) known = known || g == item;
        if (!known) {
            std::string names;
            for (auto g : captureGroups()) names += (names.empty() ? "" : ",") + std::string(g);
            *error = "unknown capture group '" + std::string(item) + "' (expected some of " +
                     names + ", or all)";
            return false;
        }
        bool seen = false;
        for (const auto& o : *out) seen = seen || o == item;
        if (!seen) out->emplace_back(item);
    }
    if (out->empty()) {
        *error = "empty capture list";
        return false;
    }
    return true;
}

bool parsePythonRecording(std::string_view text, RecordOptions* o, std::string* error) {
    if (text == "off" || text == "calls" || text == "sample") {
        o->python = text == "off"     ? PythonRecording::Off
                    : text == "calls" ? PythonRecording::Calls
                                      : PythonRecording::Sample;
        return true;
    }
    if (text.substr(0, 7) == "sample=") {
        const std::string hz(text.substr(7));
        char* end = nullptr;
        const long v = std::strtol(hz.c_str(), &end, 10);
        if (!hz.empty() && *end == 0 && v >= 1 && v <= 10000) {
            o->python = PythonRecording::Sample;
            o->pythonSampleHz = int(v);
            return true;
        }
    }
    *error = "--python expects off, calls, sample or sample=HZ (1..10000), got '" +
             std::string(text) + "'";
    return false;
}

std::string pythonRecordingText(const RecordOptions& o) {
    switch (o.python) {
    case PythonRecording::Off:
        return "off";
    case PythonRecording::Calls:
        return "calls";
    case PythonRecording::Sample:
        break;
    }
    return "sample=" + std::to_string(o.pythonSampleHz);
}

std::vector<std::string> recordArguments(const RecordOptions& o) {
    std::vector<std::string> a;
    const auto add = [&a](const char* name, const std::string& value) {
        a.push_back(name);
        a.push_back(value);
    };
    if (o.force) a.push_back("--force");
    if (!o.inject) a.push_back("--no-collector");
    if (!o.capture.empty()) {
        std::string list;
        for (const std::string& g : o.capture) list += (list.empty() ? "" : ",") + g;
        add("--capture", list);
    }
    if (o.bufferSize) add("--buffer-size", std::to_string(o.bufferSize));
    const std::pair<const char*, int> schedule[] = {
        {"--wait", o.wait}, {"--warmup", o.warmup}, {"--active", o.active}, {"--repeat", o.repeat}};
    for (const auto& [name, v] : schedule)
        if (v >= 0) add(name, std::to_string(v));
    if (!o.stepName.empty()) add("--step-name", o.stepName);
    if (!o.captureRange.empty()) add("--capture-range", o.captureRange);
    if (o.durationS > 0) {
        char s[32];
        std::snprintf(s, sizeof s, "%.17g", o.durationS);
        add("--duration", s);
    }
    if (o.flushMs > 0) add("--flush-ms", std::to_string(o.flushMs));
    if (o.waitForAttach) a.push_back("--wait-for-attach");
    if (o.live) a.push_back("--live");
    if (o.python != PythonRecording::Sample || o.pythonSampleHz != 1000)
        add("--python", pythonRecordingText(o));
    if (o.cpuSampleHz > 0) a.push_back("--cpu-sample=" + std::to_string(o.cpuSampleHz));
    if (!o.gpuMetrics.empty()) a.push_back("--gpu-metrics=" + o.gpuMetrics);
    if (!o.gpuMetrics.empty() && o.gpuMetricsIntervalUs != 100)
        add("--gpu-metrics-interval-us", std::to_string(o.gpuMetricsIntervalUs));
    if (!o.kernelMetrics.empty()) add("--kernel-metrics", o.kernelMetrics);
    if (!o.kernelMetrics.empty() && !o.kernelMetricsSet.empty())
        add("--kernel-metrics-set", o.kernelMetricsSet);
    if (!o.collector.empty()) add("--collector", o.collector);
    if (!o.workingDirectory.empty()) add("--cwd", o.workingDirectory);
    for (const auto& [name, value] : o.extraEnvironment) add("--env", name + "=" + value);
    for (const std::string& name : o.removedEnvironment) add("--unset", name);
    return a;
}

namespace {

// A metric set of `option`: "default" or a comma list of CUPTI metric names, as both the PM
// sampler and the range profiler take them.
bool validMetricSet(std::string_view set, const char* option, std::string* error) {
    bool ok = true;
    collector_env::forEachGpuMetricItem(set, [&](std::string_view item) {
        if (collector_env::isGpuMetricName(item)) return true;
        *error = std::string(option) +
                 " expects default or a comma list of CUPTI metric names (letters, digits, '_' "
                 "and '.'), got '" +
                 std::string(item) + "'";
        return ok = false;
    });
    return ok;
}

} // namespace

bool validGpuMetricSet(std::string_view set, std::string* error) {
    return validMetricSet(set, "--gpu-metrics", error);
}

bool validKernelMetrics(std::string_view regex, std::string_view set, std::string* error) {
    if (regex.empty()) {
        *error = "--kernel-metrics expects a regular expression matching kernel names";
        return false;
    }
    try {
        std::regex(regex.begin(), regex.end(), std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
        *error = "--kernel-metrics '" + std::string(regex) +
                 "' is not a regular expression (ECMAScript): " + e.what();
        return false;
    }
    return validMetricSet(set, "--kernel-metrics-set", error);
}

bool validateRecordOptions(const RecordOptions& o, std::string* error) {
    if (o.command.empty() || o.command[0].empty()) {
        *error = "no command to run (usage: strata-cli record [options] -- CMD ARGS...)";
        return false;
    }
    const bool schedule = o.wait >= 0 || o.warmup >= 0 || o.active >= 0 || o.repeat >= 0;
    if (schedule && o.active <= 0) {
        *error = "a schedule (--wait/--warmup/--repeat) needs --active N with N >= 1";
        return false;
    }
    if (schedule && o.stepName.empty()) {
        *error = "a schedule counts steps: give --step-name NAME (an NVTX range or mark)";
        return false;
    }
    if (o.durationS < 0) {
        *error = "--duration must be >= 0 seconds";
        return false;
    }
    auto badName = [](const std::string& name) {
        return name.empty() || name.find('=') != std::string::npos ||
               name.find('\0') != std::string::npos;
    };
    for (const auto& [name, value] : o.extraEnvironment)
        if (badName(name)) {
            *error = "environment variable '" + name + "': a name must be non-empty, without '='";
            return false;
        }
    for (const auto& name : o.removedEnvironment)
        if (badName(name)) {
            *error = "environment variable to remove '" + name +
                     "': a name must be non-empty, without '='";
            return false;
        }
    if (o.pythonSampleHz < 1 || o.pythonSampleHz > 10000) {
        *error = "the Python sampling rate must be 1..10000 Hz";
        return false;
    }
    if (o.cpuSampleHz < 0 || o.cpuSampleHz > 10000) {
        *error = "the native sampling rate must be 0..10000 Hz";
        return false;
    }
    if (o.gpuMetricsIntervalUs < 1 || o.gpuMetricsIntervalUs > 1000000) {
        *error = "the GPU metrics interval must be 1..1000000 us";
        return false;
    }
    if (!o.gpuMetrics.empty() && !validGpuMetricSet(o.gpuMetrics, error)) return false;
    if (!o.kernelMetricsSet.empty() && o.kernelMetrics.empty()) {
        *error = "--kernel-metrics-set needs --kernel-metrics";
        return false;
    }
    if (!o.kernelMetrics.empty() &&
        !validKernelMetrics(o.kernelMetrics,
                            o.kernelMetricsSet.empty() ? "default" : o.kernelMetricsSet, error))
        return false;
    if (o.flushMs < 0) {
        *error = "the flush interval must be >= 0 ms";
        return false;
    }
    if (o.waitForAttach && (o.python != PythonRecording::Off || o.cpuSampleHz > 0)) {
        *error = "--wait-for-attach gates CUDA's records only: Python (--python) and native "
                 "stacks (--cpu-sample) would be recorded all along; leave them off";
        return false;
    }
    if (o.waitForAttach && !o.inject) {
        *error = "--wait-for-attach needs the collector (not --no-collector)";
        return false;
    }
    return true;
}

std::vector<std::pair<std::string, std::string>>
toCollectorEnvironment(const RecordOptions& o, const std::string& outputTemplate) {
    namespace env = collector_env;
    std::vector<std::pair<std::string, std::string>> v;
    v.emplace_back(env::kOutput, outputTemplate);
    if (!o.capture.empty()) {
        std::string list;
        for (const auto& c : o.capture) list += (list.empty() ? "" : ",") + c;
        v.emplace_back(env::kCapture, list);
    }
    if (o.bufferSize) v.emplace_back(env::kBufferSize, std::to_string(o.bufferSize));
    const bool schedule = o.wait >= 0 || o.warmup >= 0 || o.active >= 0 || o.repeat >= 0;
    if (schedule) {
        v.emplace_back(env::kScheduleWait, std::to_string(o.wait < 0 ? 0 : o.wait));
        v.emplace_back(env::kScheduleWarmup, std::to_string(o.warmup < 0 ? 0 : o.warmup));
        v.emplace_back(env::kScheduleActive, std::to_string(o.active));
        v.emplace_back(env::kScheduleRepeat, std::to_string(o.repeat < 0 ? 0 : o.repeat));
    }
    if (!o.stepName.empty()) v.emplace_back(env::kStepName, o.stepName);
    if (!o.captureRange.empty()) v.emplace_back(env::kCaptureRange, o.captureRange);
    if (o.durationS > 0) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.9g", o.durationS);
        v.emplace_back(env::kDuration, buf);
    }
    if (o.flushMs > 0) v.emplace_back(env::kFlushMs, std::to_string(o.flushMs));
    if (o.live) v.emplace_back(env::kLive, "1");
    if (o.force) v.emplace_back(env::kOverwrite, "1");
    if (o.waitForAttach) v.emplace_back(env::kWaitForAttach, "1");
    if (o.python != PythonRecording::Off) v.emplace_back(env::kPython, pythonRecordingText(o));
    if (o.cpuSampleHz > 0) v.emplace_back(env::kCpuSample, std::to_string(o.cpuSampleHz));
    if (!o.gpuMetrics.empty()) {
        v.emplace_back(env::kGpuMetrics, o.gpuMetrics);
        v.emplace_back(env::kGpuMetricsIntervalUs, std::to_string(o.gpuMetricsIntervalUs));
    }
    if (!o.kernelMetrics.empty()) {
        v.emplace_back(env::kKernelMetrics, o.kernelMetrics);
        if (!o.kernelMetricsSet.empty()) v.emplace_back(env::kKernelMetricsSet, o.kernelMetricsSet);
    }
    return v;
}

} // namespace strata
