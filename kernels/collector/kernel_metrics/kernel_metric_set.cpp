#include "kernel_metrics/kernel_metric_set.h"

#include "contract/collector_env.h"
#include "contract/roofline_counters.h"

#include <algorithm>

namespace strata::kernel_metrics {

const std::vector<std::string>& defaultKernelMetricSet() {
    // Names as Nsight Compute's roofline chart and its headline sections read them; not yet
    // confirmed through the range profiler on a GPU (docs/recording.md, "Per-kernel metrics").
    // The roofline's own (contract/roofline_counters.h) are the ones its analysis reads back.
    namespace rc = roofline_counters;
    const auto& op = rc::kInstructions;
    static const std::vector<std::string> set{
        std::string(rc::kDramRead),
        std::string(rc::kDramWrite),
        std::string(op[1][0]),
        std::string(op[1][1]),
        std::string(op[1][2]), // FP32
        std::string(op[0][0]),
        std::string(op[0][1]),
        std::string(op[0][2]), // FP64
        std::string(op[2][0]),
        std::string(op[2][1]),
        std::string(op[2][2]), // FP16
        std::string(rc::kDuration),
        "sm__throughput.avg.pct_of_peak_sustained_elapsed",
        "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
        "sm__warps_active.avg.pct_of_peak_sustained_active",
        // The ceilings: peak bytes and FMAs per cycle, times the clocks.
        std::string(rc::kDramPeak),
        std::string(rc::kDramClock),
        std::string(rc::kFmaPeaks[1]),
        std::string(rc::kFmaPeaks[0]),
        std::string(rc::kFmaPeaks[2]),
        std::string(rc::kSmClock),
    };
    return set;
}

std::vector<std::string> parseKernelMetricSet(std::string_view text,
                                              std::vector<std::string>* warnings) {
    std::vector<std::string> out;
    auto add = [&out](std::string_view name) {
        if (std::find(out.begin(), out.end(), name) == out.end()) out.emplace_back(name);
    };
    collector_env::forEachGpuMetricItem(text, [&](std::string_view item) {
        while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
        while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
        if (item.empty()) return true;
        if (item == "default") {
            for (const std::string& m : defaultKernelMetricSet()) add(m);
        } else if (collector_env::isGpuMetricName(item)) {
            add(item);
        } else if (warnings) {
            warnings->push_back("kernel metric \"" + std::string(item) +
                                "\" ignored: a CUPTI metric name has only letters, digits, '_' "
                                "and '.'");
        }
        return true;
    });
    if (out.empty() && text.find_first_not_of(" ,") == std::string_view::npos)
        return defaultKernelMetricSet();
    return out;
}

} // namespace strata::kernel_metrics
