#include "collector_config.h"

#include "contract/attach_registry.h"
#include "contract/collector_env.h"
#include "contract/output_path.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace strata {

namespace env = collector_env;

namespace {

std::string badValue(const char* name, const char* value, const char* expected,
                     const char* fallback) {
    char buf[512];
    std::snprintf(buf, sizeof buf, "%s=\"%s\" ignored: expected %s; using %s", name, value,
                  expected, fallback);
    return buf;
}

// A non-negative decimal integer in [lo, hi]; nullopt-like false when unset or bad.
bool readInt(const EnvLookup& get, const char* name, long long lo, long long hi, long long& out,
             std::vector<std::string>& warnings, const char* fallback) {
    const char* v = get(name);
    if (!v || !*v) return false;
    errno = 0;
    char* end = nullptr;
    const long long x = std::strtoll(v, &end, 10);
    if (errno != 0 || end == v || *end != '\0' || x < lo || x > hi) {
        char expected[96];
        std::snprintf(expected, sizeof expected, "an integer in [%lld, %lld]", lo, hi);
        warnings.push_back(badValue(name, v, expected, fallback));
        return false;
    }
    out = x;
    return true;
}

uint32_t parseCapture(const char* v, std::vector<std::string>& warnings) {
    uint32_t mask = 0;
    std::string_view s(v);
    while (!s.empty()) {
        const size_t comma = s.find(',');
        std::string_view item = s.substr(0, comma);
        s = comma == std::string_view::npos ? std::string_view() : s.substr(comma + 1);
        while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
        while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
        if (item.empty()) continue;
        if (item == "api")
            mask |= kCaptureApi;
        else if (item == "runtime")
            mask |= kCaptureRuntime;
        else if (item == "driver")
            mask |= kCaptureDriver;
        else if (item == "nvtx")
            mask |= kCaptureNvtx;
        else if (item == "kernels")
            mask |= kCaptureKernels;
        else if (item == "memcpy")
            mask |= kCaptureMemcpy;
        else if (item == "memset")
            mask |= kCaptureMemset;
        else if (item == "sync")
            mask |= kCaptureSync;
        else if (item == "memory")
            mask |= kCaptureMemory;
        else if (item == "all")
            mask |= kCaptureAll;
        else
            warnings.push_back("STRATA_CAPTURE: unknown group \"" + std::string(item) +
                               "\" ignored (known: api,nvtx,kernels,memcpy,memset,sync,memory,all; "
                               "runtime and driver are api's halves)");
    }
    if (mask == 0) {
        warnings.push_back(badValue(env::kCapture, v, "a list of activity groups", "all"));
        mask = kCaptureAll;
    }
    return mask;
}

// STRATA_GPU_METRICS and its interval; the interval alone is said to do nothing.
void readGpuMetrics(const EnvLookup& get, CollectorConfig& c) {
    auto& w = c.warnings;
    const char* set = get(env::kGpuMetrics);
    if (set && *set) {
        c.gpuMetrics = gpu_metrics::parseMetricSet(set, &w);
        c.gpuMetricsAsked = set;
        if (c.gpuMetrics.empty())
            w.push_back(badValue(env::kGpuMetrics, set, "default or a list of CUPTI metric names",
                                 "no GPU metrics"));
    }
    long long x = 0;
    if (readInt(get, env::kGpuMetricsIntervalUs, 1, 1000000, x, w, "100"))
        c.gpuMetricsIntervalUs = uint32_t(x);
    const char* interval = get(env::kGpuMetricsIntervalUs);
    if (!(set && *set) && interval && *interval)
        w.push_back(std::string(env::kGpuMetricsIntervalUs) + " given without " + env::kGpuMetrics +
                    ": no GPU metrics are recorded");
}

// STRATA_KERNEL_METRICS and its set; the set alone is said to do nothing.
void readKernelMetrics(const EnvLookup& get, CollectorConfig& c) {
    auto& w = c.warnings;
    const char* regex = get(env::kKernelMetrics);
    const char* set = get(env::kKernelMetricsSet);
    if (!(regex && *regex)) {
        if (set && *set)
            w.push_back(std::string(env::kKernelMetricsSet) + " given without " +
                        env::kKernelMetrics + ": no kernel metrics are measured");
        return;
    }
    c.kernelMetricsRegex = regex;
    if (set && *set) c.kernelMetricsAsked = set;
    c.kernelMetrics = kernel_metrics::parseKernelMetricSet(set ? set : "", &w);
    if (c.kernelMetrics.empty()) {
        w.push_back(badValue(env::kKernelMetricsSet, set, "default or a list of CUPTI metric names",
                             "no kernel metrics"));
        c.kernelMetricsRegex.clear();
    }
}

} // namespace

CollectorConfig readCollectorConfig(const EnvLookup& get) {
    CollectorConfig c;
    auto& w = c.warnings;

    const char* out = get(env::kOutput);
    c.outputTemplate = (out && *out) ? out : "strata-{host}-{pid}.strata";
    OutputPathValues values;
    values.pid = 0;
    {
        values = currentProcessValues();
        values.rank = rankFromEnvironment([&](const char* n) { return get(n); });
    }
    c.outputPath = expandOutputPath(c.outputTemplate, values);

    if (const char* v = get(env::kCapture); v && *v) c.capture = parseCapture(v, w);
    if (const char* v = get(env::kOverwrite); v && *v) {
        c.overwrite = std::string_view(v) == "1";
        if (!c.overwrite)
            w.push_back(badValue(env::kOverwrite, v, "1",
                                 "no overwriting (an existing file is "
                                 "left as it is)"));
    }

    if (const char* v = get(env::kLive); v && *v) {
        c.live = std::string_view(v) == "1";
        if (!c.live) w.push_back(badValue(env::kLive, v, "1", "not live"));
    }
    if (const char* v = get(env::kWaitForAttach); v && *v) {
        c.waitForAttach = std::string_view(v) == "1";
        if (!c.waitForAttach)
            w.push_back(badValue(env::kWaitForAttach, v, "1", "capture from the start"));
    }
    c.schedule.attach = c.waitForAttach;
    c.attachDir = attach::registryDir(get(env::kAttachDir));

    long long x = 0;
    if (readInt(get, env::kBufferSize, 64 << 10, 256ll << 20, x, w, "4194304"))
        c.bufferBytes = size_t(x);
    if (readInt(get, env::kFlushMs, 1, 3600000, x, w, "200")) c.flushMs = int32_t(x);
    if (readInt(get, env::kScheduleWait, 0, 1 << 30, x, w, "0")) c.schedule.wait = int32_t(x);
    if (readInt(get, env::kScheduleWarmup, 0, 1 << 30, x, w, "0")) c.schedule.warmup = int32_t(x);
    if (readInt(get, env::kScheduleActive, 0, 1 << 30, x, w, "0 (no schedule)"))
        c.schedule.active = int32_t(x);
    if (readInt(get, env::kScheduleRepeat, 0, 1 << 30, x, w, "0")) c.schedule.repeat = int32_t(x);
    const bool anySchedule =
        get(env::kScheduleWait) || get(env::kScheduleWarmup) || get(env::kScheduleRepeat);
    if (anySchedule && c.schedule.active == 0)
        w.push_back("STRATA_SCHEDULE_* given without STRATA_SCHEDULE_ACTIVE > 0: no schedule, "
                    "everything is captured");
    const char* step = get(env::kStepName);
    c.schedule.stepName = (step && *step) ? step : "step";
    if (const char* r = get(env::kCaptureRange); r && *r) c.schedule.rangeName = r;
    if (const char* d = get(env::kDuration); d && *d) {
        errno = 0;
        char* end = nullptr;
        const double s = std::strtod(d, &end);
        if (errno != 0 || end == d || *end != '\0' || !(s > 0) || !std::isfinite(s) || s > 1e7)
            w.push_back(badValue(env::kDuration, d, "a positive number of seconds", "no limit"));
        else
            c.schedule.maxDurationNs = int64_t(std::llround(s * 1e9));
    }
    readGpuMetrics(get, c);
    readKernelMetrics(get, c);
    // CUDA 13's CUPTI keeps a buffer per launching thread: allow up to 256 MiB in flight (made
    // lazily; 4 made up front), at least 16 buffers.
    c.bufferCount = std::max<size_t>(16, (size_t(256) << 20) / c.bufferBytes);
    c.bufferPreallocate = std::min<size_t>(4, c.bufferCount);
    return c;
}

} // namespace strata
