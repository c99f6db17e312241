#include "gpu_metrics/gpu_metrics.h"

#include "collector_instance.h"
#include "contract/collector_env.h"
#include "io/strata/strata_trace_writer.h"
#include "model/names/track_names.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace strata::gpu_metrics {

namespace {

std::string deviceKey(const char* what, uint32_t device) {
    return std::string(collector_env::kMetaGpuMetrics) + "_" + what + "_" + std::to_string(device);
}

std::string joined(const std::vector<std::string>& items) {
    std::string s;
    for (const std::string& i : items) s += (s.empty() ? "" : ", ") + i;
    return s;
}

// Two flushes' samples per counter data image (it is reinitialised when full).
uint32_t maxSamples(const GpuMetricsSettings& s) {
    const uint64_t perFlush = uint64_t(s.flushMs) * 1000 / std::max<uint32_t>(1, s.intervalUs);
    return uint32_t(std::clamp<uint64_t>(2 * perFlush, 256, 100000));
}

} // namespace

GpuMetrics::GpuMetrics(StrataTraceWriter& writer, GpuMetricsSettings settings, Clock clock,
                       Keep keep)
    : writer_(writer), settings_(std::move(settings)), clock_(clock), keep_(std::move(keep)) {
    writer_.metadata(collector_env::kMetaGpuMetrics,
                     settings_.asked + " every " + std::to_string(settings_.intervalUs) + " us");
}

void GpuMetrics::warn(const std::string& text) {
    writer_.warning(text);
    std::fprintf(stderr, "[strata] %s\n", text.c_str());
}

bool GpuMetrics::deviceOf(CUcontext context, uint32_t* device) {
    const CUptiResult r = cuptiGetDeviceId(context, device);
    if (r == CUPTI_SUCCESS) return true;
    warn("GPU metrics: the device of a new CUDA context is unknown (" +
         cuptiCallError("cuptiGetDeviceId", int(r)) + "): not sampled");
    return false;
}

void GpuMetrics::onContextCreated(CUcontext context) {
    uint32_t id = 0;
    if (!deviceOf(context, &id)) return;
    std::lock_guard lock(mutex_);
    if (finished_ || devices_.count(id)) return; // one session per device, for all its contexts
    auto& d = *devices_.emplace(id, std::make_unique<Device>()).first->second;
    d.id = id;
    start(d);
}

void GpuMetrics::start(Device& d) {
    std::string error;
    // Shared with --kernel-metrics: initialized once for both, released by the last.
    if (!profilerInitialized_) profilerInitialized_ = acquireProfiler(&error);
    const SamplerConfig config{d.id, settings_.metrics, uint64_t(settings_.intervalUs) * 1000,
                               kHardwareBufferBytes, maxSamples(settings_)};
    if (error.empty() && d.sampler.start(config, &error)) {
        // Read together, right after Start: the clocks a sample's time may run on (without
        // CUPTI's, it counts as the collector's).
        d.readings.collectorNs = int64_t(clock_());
        uint64_t cupti = 0;
        d.readings.cuptiNs =
            cuptiGetTimestamp(&cupti) == CUPTI_SUCCESS ? int64_t(cupti) : d.readings.collectorNs;
        d.readings.realtimeNs = realtimeNs();
    }
    const std::string where = "GPU metrics on device " + std::to_string(d.id);
    if (!d.sampler.running()) {
        writer_.metadata(deviceKey("device", d.id), "not recorded: " + error);
        warn(where + " not recorded: " + error + "; the program runs on without them");
        return;
    }
    const SamplerSetup& s = d.sampler.setup();
    for (const MetricSpec& m : s.recorded) {
        d.rows.push_back(writer_.string(gpuCounterName(d.id, m.label)));
        d.divisors.push_back(m.divisor);
    }
    describe(d);
    if (!s.lacking.empty())
        warn(where + " (" + s.chip + "): not on this chip, not recorded: " + joined(s.lacking));
    if (!s.overPass.empty())
        warn(where + " (" + s.chip + "): " + joined(s.overPass) +
             " left out: with them the set needs more than one pass, and PM sampling takes one");
}

// gpu_metrics_device_N: "GH100, every 100 us: SM Active % (sm__cycles_active...), ...".
void GpuMetrics::describe(Device& d) {
    const SamplerSetup& s = d.sampler.setup();
    std::vector<std::string> metrics;
    for (const MetricSpec& m : s.recorded)
        metrics.push_back(m.label == m.names.front() ? m.label
                                                     : m.label + " (" + m.names.front() + ")");
    std::string text =
        s.chip + ", every " + std::to_string(settings_.intervalUs) + " us: " + joined(metrics);
    if (!s.optionalLacking.empty()) text += "; not on this chip: " + joined(s.optionalLacking);
    if (!s.lacking.empty()) text += "; not on this chip (warned): " + joined(s.lacking);
    if (!s.overPass.empty()) text += "; left out (a second pass): " + joined(s.overPass);
    writer_.metadata(deviceKey("device", d.id), text);
}

void GpuMetrics::onContextDestroying(CUcontext context) {
    uint32_t id = 0;
    if (cuptiGetDeviceId(context, &id) != CUPTI_SUCCESS) return;
    std::lock_guard lock(mutex_);
    auto it = devices_.find(id);
    if (!finished_ && it != devices_.end()) decodeLocked(*it->second);
}

void GpuMetrics::decode() {
    std::lock_guard lock(mutex_);
    if (finished_) return;
    for (auto& [id, d] : devices_) decodeLocked(*d);
}

void GpuMetrics::decodeLocked(Device& d) {
    if (!d.sampler.running()) return;
    account(d, d.sampler.decode([&](const PmSample& s) { write(d, s); }), "stopped");
}

void GpuMetrics::account(Device& d, const DecodeResult& r, const char* when) {
    d.overflows += r.overflows;
    if (!r.error.empty())
        warn("GPU metrics on device " + std::to_string(d.id) + " " + when + ": " + r.error +
             "; the samples before it are kept");
}

// One sample: its clock chosen at the first (gpu_clock_map.h), the samples an overflow lost
// counted from the gap it left, then one value per metric at its start.
void GpuMetrics::write(Device& d, const PmSample& s) {
    if (!d.mapped) {
        d.clock = chooseClockMapping(d.readings, s.startNs);
        d.mapped = true;
        writer_.metadata(deviceKey("clock", d.id), describeClockMapping(d.clock));
    }
    const uint64_t interval = uint64_t(settings_.intervalUs) * 1000;
    if (s.afterOverflow && d.lastEndNs > 0 && s.startNs > d.lastEndNs)
        d.lost += (s.startNs - d.lastEndNs + interval / 2) / interval;
    d.lastEndNs = s.endNs;
    const int64_t t = d.clock.toTrace(s.startNs);
    if (keep_ && !keep_(t)) {
        ++d.outside;
        return;
    }
    ++d.samples;
    for (size_t i = 0; i < d.rows.size(); ++i) {
        if (!std::isfinite(s.values[i])) {
            ++d.missingValues;
            continue;
        }
        writer_.counter(int64_t(d.id), d.rows[i], t, s.values[i] / d.divisors[i]);
    }
}

void GpuMetrics::finish() {
    std::lock_guard lock(mutex_);
    if (finished_) return;
    finished_ = true;
    uint64_t samples = 0, lost = 0, outside = 0, missing = 0;
    int overflows = 0;
    for (auto& [id, dp] : devices_) {
        Device& d = *dp;
        if (d.sampler.running())
            account(d, d.sampler.stop([&](const PmSample& s) { write(d, s); }), "at the end");
        samples += d.samples;
        lost += d.lost;
        outside += d.outside;
        missing += d.missingValues;
        overflows += d.overflows;
        if (d.overflows > 0)
            warn("GPU metrics on device " + std::to_string(d.id) +
                 ": the PM sampling buffer overflowed " + std::to_string(d.overflows) +
                 " times, about " + std::to_string(d.lost) +
                 " samples lost (a longer --gpu-metrics-interval-us, or fewer metrics, keeps up)");
    }
    const std::string key = collector_env::kMetaGpuMetrics;
    writer_.metadata(key + "_samples", std::to_string(samples));
    writer_.metadata(key + "_overflows", std::to_string(overflows));
    writer_.metadata(key + "_samples_lost", std::to_string(lost));
    if (outside > 0) writer_.metadata(key + "_outside_capture", std::to_string(outside));
    if (missing > 0) writer_.metadata(key + "_missing_values", std::to_string(missing));
    if (profilerInitialized_) {
        releaseProfiler();
        profilerInitialized_ = false;
    }
}

} // namespace strata::gpu_metrics
