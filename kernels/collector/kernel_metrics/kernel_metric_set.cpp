#include "kernel_metrics/kernel_metric_set.h"

#include "contract/collector_env.h"

#include <algorithm>

namespace strata::kernel_metrics {

const std::vector<std::string>& defaultKernelMetricSet() {
    // Names as Nsight Compute's roofline chart and its headline sections read them; not yet
    // confirmed through the range profiler on a GPU (docs/recording.md, "Per-kernel metrics").
    static const std::vector<std::string> set{
        "dram__bytes_read.sum",
        "dram__bytes_write.sum",
        "sm__sass_thread_inst_executed_op_ffma_pred_on.sum",
        "sm__sass_thread_inst_executed_op_fadd_pred_on.sum",
        "sm__sass_thread_inst_executed_op_fmul_pred_on.sum",
        "sm__sass_thread_inst_executed_op_dfma_pred_on.sum",
        "sm__sass_thread_inst_executed_op_dadd_pred_on.sum",
        "sm__sass_thread_inst_executed_op_dmul_pred_on.sum",
        "sm__sass_thread_inst_executed_op_hfma_pred_on.sum",
        "sm__sass_thread_inst_executed_op_hadd_pred_on.sum",
        "sm__sass_thread_inst_executed_op_hmul_pred_on.sum",
        "gpu__time_duration.sum",
        "sm__throughput.avg.pct_of_peak_sustained_elapsed",
        "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
        "sm__warps_active.avg.pct_of_peak_sustained_active",
        // The ceilings: peak bytes and FMAs per cycle, times the clocks.
        "dram__bytes.sum.peak_sustained",
        "dram__cycles_elapsed.avg.per_second",
        "sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained",
        "sm__sass_thread_inst_executed_op_dfma_pred_on.sum.peak_sustained",
        "sm__sass_thread_inst_executed_op_hfma_pred_on.sum.peak_sustained",
        "sm__cycles_elapsed.avg.per_second",
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
