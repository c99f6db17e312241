// The collector's side of --gpu-metrics (gpu_metrics/gpu_metrics.h): made with CUPTI when
// STRATA_GPU_METRICS asks for metrics, with the context callback that starts sampling on each
// device; its samples kept or not as the capture schedule keeps records.
#include "collector_instance.h"
#include "gpu_metrics/gpu_metrics.h"

#include <mutex>
#include <utility>

namespace strata {

void Collector::startGpuMetrics() {
    if (config.gpuMetrics.empty() || gpuMetrics) return;
    gpu_metrics::GpuMetricsSettings s{config.gpuMetrics, config.gpuMetricsAsked,
                                      config.gpuMetricsIntervalUs, uint32_t(config.flushMs)};
    // Never destroyed, as the collector (atexit and forked children may look at it).
    gpuMetrics = new gpu_metrics::GpuMetrics(writer, std::move(s), clockNs, [this](int64_t t) {
        std::lock_guard lock(scheduleMutex);
        return schedule.captures(t);
    });
    cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                        CUPTI_CBID_RESOURCE_CONTEXT_CREATED);
}

} // namespace strata
