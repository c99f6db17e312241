#pragma once
// `--gpu-metrics` in the collector (issue 51): a PM sampling session (pm_sampler.h) on each device
// the program creates a CUDA context on, from that moment; its samples written as counter rows
// `GPU <device> <label>` (gpuCounterName) on the device's pid, the pid its stream rows have in a
// .strata file, so the timeline draws them under the GPU and gpu_metric_means finds them. Each
// sample is one value per metric at the sample's start, on the trace's clock (gpu_clock_map.h).
// Decoded at every flush of the collector's flush thread, the last samples at the end.
//
// Whatever fails on a device (no support, no privileges, no metric the chip has) is one warning in
// the trace and on stderr, and the program goes on without that device's metrics; a metric the
// chip lacks is a warning and the others are recorded. Overflows of the hardware buffer are
// counted with the samples they lost, and said at the end.
//
// Made only when STRATA_GPU_METRICS asks for metrics: otherwise neither this nor CUPTI's profiler
// runs, and no context callback is enabled. Thread-safe (one lock): contexts come on the
// program's threads, decoding on the flush thread.
#include "gpu_metrics/gpu_clock_map.h"
#include "gpu_metrics/metric_set.h"
#include "gpu_metrics/pm_sampler.h"

#include <cupti.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace strata {

class StrataTraceWriter;

namespace gpu_metrics {

struct GpuMetricsSettings {
    std::vector<MetricSpec> metrics; // parsed STRATA_GPU_METRICS
    std::string asked;               // as given: "default"
    uint32_t intervalUs = 100;
    uint32_t flushMs = 200; // the collector's: the counter data image holds two flushes' samples
};

// The hardware buffer PM sampling fills between two decodes (device memory): at the default
// 100 us and a 200 ms flush, thousands of samples; an overflow is counted and said.
inline constexpr size_t kHardwareBufferBytes = 128u << 20;

class GpuMetrics {
public:
    using Clock = uint64_t (*)();              // the collector's (clockNs)
    using Keep = std::function<bool(int64_t)>; // a sample at this trace time is kept (schedule)

    GpuMetrics(StrataTraceWriter& writer, GpuMetricsSettings settings, Clock clock, Keep keep);

    // A context was created: sampling starts on its device (once per device).
    void onContextCreated(CUcontext context);
    // A context is being destroyed: its device's samples so far, while the device is there.
    void onContextDestroying(CUcontext context);
    // Every device's samples so far (the flush thread).
    void decode();
    // The end of the recording, after CUPTI's last activity flush: sampling stopped, the last
    // samples, the totals and any overflow said. Later calls do nothing.
    void finish();

private:
    struct Device {
        uint32_t id = 0;
        PmSampler sampler;
        std::vector<uint32_t> rows;   // the rows' string ids, by recorded metric
        std::vector<double> divisors; // by recorded metric
        ClockReadings readings;       // at Start
        bool mapped = false;
        ClockMapping clock;
        uint64_t lastEndNs = 0; // GPU time: the last sample's end
        uint64_t samples = 0, lost = 0, outside = 0, missingValues = 0;
        int overflows = 0;
    };

    void start(Device& d);
    void decodeLocked(Device& d);
    void write(Device& d, const PmSample& s);
    void account(Device& d, const DecodeResult& r, const char* when);
    void describe(Device& d);
    void warn(const std::string& text);
    bool deviceOf(CUcontext context, uint32_t* device);

    StrataTraceWriter& writer_;
    GpuMetricsSettings settings_;
    Clock clock_;
    Keep keep_;
    std::mutex mutex_;
    std::map<uint32_t, std::unique_ptr<Device>> devices_; // a failed device stays, not sampling
    bool profilerInitialized_ = false;
    bool finished_ = false;
};

} // namespace gpu_metrics
} // namespace strata
