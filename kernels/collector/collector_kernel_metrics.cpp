// The collector's side of --kernel-metrics (kernel_metrics/kernel_metrics.h): made with CUPTI
// when STRATA_KERNEL_METRICS is set, with the launch callbacks it measures launches in; a launch
// outside the capture schedule is not measured (its kernel is not kept either).
#include "collector_instance.h"
#include "contract/collector_env.h"
#include "kernel_metrics/kernel_metrics.h"
#include "section_handover.h"

#include <cstdio>
#include <mutex>
#include <utility>

namespace strata {

void Collector::startKernelMetrics() {
    if (config.kernelMetricsRegex.empty() || kernelMetrics) return;
    if (!(config.capture & kCaptureKernels)) {
        const std::string text = "kernel metrics off: STRATA_CAPTURE leaves kernels out, and "
                                 "the metrics belong to the kernels' records";
        writer.warning(text);
        writer.metadata(collector_env::kMetaKernelMetrics, "off: kernels are not captured");
        std::fprintf(stderr, "[strata] %s\n", text.c_str());
        return;
    }
    kernel_metrics::KernelMetricsSettings s{config.kernelMetricsRegex, config.kernelMetrics,
                                            config.kernelMetricsAsked};
    kernelMetrics =
        kernel_metrics::KernelMetrics::create(writer, std::move(s), clockNs, [this](int64_t t) {
            std::lock_guard lock(scheduleMutex);
            return schedule.captures(t);
        });
    if (kernelMetrics) enableLaunchCallbacks(*this);
}

} // namespace strata
