#pragma once
// The collector's options, read from the environment the launcher sets (contract/collector_env.h).
// Bad values never stop the target: they fall back to defaults and are reported as warnings.
#include "capture_schedule.h"
#include "gpu_metrics/metric_set.h"
#include "kernel_metrics/kernel_metric_set.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace strata {

// Activity groups of STRATA_CAPTURE. "api" is both API record kinds; "runtime" and "driver"
// (the collector's environment only, not strata-cli's --capture) take one of them, so that a GPU
// run can tell which of CUPTI's API records costs a launch what (docs/gpu-validation.md).
enum CaptureGroup : uint32_t {
    kCaptureRuntime = 1u << 0, // CUDA runtime API calls (RUNTIME)
    kCaptureNvtx = 1u << 1,    // NVTX ranges and marks
    kCaptureKernels = 1u << 2, // CONCURRENT_KERNEL
    kCaptureMemcpy = 1u << 3,
    kCaptureMemset = 1u << 4,
    kCaptureSync = 1u << 5,   // SYNCHRONIZATION and CUDA_EVENT
    kCaptureMemory = 1u << 6, // MEMORY2 allocations/frees -> memory counter
    kCaptureDriver = 1u << 7, // CUDA driver API calls (DRIVER)
    kCaptureApi = kCaptureRuntime | kCaptureDriver,
    kCaptureAll = 0xffu,
};

struct CollectorConfig {
    std::string outputTemplate; // STRATA_OUTPUT as given
    std::string outputPath;     // expanded for this process
    uint32_t capture = kCaptureAll;
    size_t bufferBytes = 4u << 20; // one CUPTI activity buffer
    size_t bufferCount = 64;       // pool cap (bufferBytes * bufferCount bytes at most)
    size_t bufferPreallocate = 4;  // allocated at start
    int32_t flushMs = 200;
    // STRATA_LIVE=1: every flush forces out CUPTI's unfinished buffers (a live view).
    bool live = false;
    // STRATA_OVERWRITE=1 (--force): an existing regular file at outputPath that no live
    // recording holds may be removed first; otherwise an existing name is never written over.
    bool overwrite = false;
    CaptureScheduleConfig schedule; // steps, capture range, duration
    // STRATA_WAIT_FOR_ATTACH=1: nothing kept until strata-cli attach --start (schedule.attach),
    // the process registered in attachDir (contract/attach_registry.h; collector_attach.cpp).
    bool waitForAttach = false;
    std::string attachDir;
    // STRATA_GPU_METRICS (--gpu-metrics): the metrics PM sampling records, as asked ("default");
    // empty: none, and nothing of CUPTI's profiler runs. STRATA_GPU_METRICS_INTERVAL_US: how often.
    std::vector<gpu_metrics::MetricSpec> gpuMetrics;
    std::string gpuMetricsAsked;
    uint32_t gpuMetricsIntervalUs = 100;
    // STRATA_KERNEL_METRICS (--kernel-metrics): the expression a launched kernel's demangled
    // name is searched with (checked when the collector starts: kernel_metrics.h); empty: none.
    // STRATA_KERNEL_METRICS_SET: the metrics measured (the default set when unset).
    std::string kernelMetricsRegex;
    std::vector<std::string> kernelMetrics;
    std::string kernelMetricsAsked = "default";
    std::vector<std::string> warnings; // values that were ignored, and why
};

using EnvLookup = std::function<const char*(const char*)>;
// Reads the options through `env` (getenv in the collector, a table in tests).
CollectorConfig readCollectorConfig(const EnvLookup& env);

} // namespace strata
