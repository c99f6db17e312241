#include "gpu_metrics/metric_set.h"

#include "contract/collector_env.h"

#include <algorithm>

namespace strata::gpu_metrics {

namespace {

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    return s;
}

bool sameMetric(const MetricSpec& a, const MetricSpec& b) {
    return a.label == b.label || a.names == b.names;
}

} // namespace

const std::vector<MetricSpec>& defaultMetricSet() {
    // Perfworks names as Nsight Compute lists them for GA10x/GH100 (`ncu --query-metrics-collection
    // pmsampling`); to be checked on a GPU (docs/gpu-validation.md, owed).
    // `.pct_of_peak_sustained_elapsed` of an `.avg` is the share of the sample's time, averaged
    // over the units (SMs);
    // `.sum.per_second` is bytes per second over the sample.
    static const std::vector<MetricSpec> set{
        {{"sm__cycles_active.avg.pct_of_peak_sustained_elapsed"}, "SM Active %", 1.0, false},
        {{"sm__warps_active.avg.pct_of_peak_sustained_elapsed"}, "SM Occupancy %", 1.0, false},
        {{"sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed",
          "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed"},
         "Tensor Active %",
         1.0,
         false},
        {{"dram__bytes_read.sum.per_second"}, "DRAM Read GB/s", 1e9, false},
        {{"dram__bytes_write.sum.per_second"}, "DRAM Write GB/s", 1e9, false},
        {{"pcie__read_bytes.sum.per_second"}, "PCIe Read GB/s", 1e9, true},
        {{"pcie__write_bytes.sum.per_second"}, "PCIe Write GB/s", 1e9, true},
        {{"nvlrx__bytes.sum.per_second"}, "NVLink RX GB/s", 1e9, true},
        {{"nvltx__bytes.sum.per_second"}, "NVLink TX GB/s", 1e9, true},
    };
    return set;
}

std::vector<MetricSpec> parseMetricSet(std::string_view text, std::vector<std::string>* warnings) {
    std::vector<MetricSpec> out;
    auto add = [&out](const MetricSpec& m) {
        if (std::none_of(out.begin(), out.end(),
                         [&](const MetricSpec& o) { return sameMetric(o, m); }))
            out.push_back(m);
    };
    collector_env::forEachGpuMetricItem(text, [&](std::string_view written) {
        const std::string_view item = trimmed(written);
        if (item.empty()) return true;
        if (item == "default") {
            for (const MetricSpec& m : defaultMetricSet()) add(m);
        } else if (collector_env::isGpuMetricName(item)) {
            add(MetricSpec{{std::string(item)}, std::string(item), 1.0, false});
        } else if (warnings) {
            warnings->push_back("GPU metric \"" + std::string(item) +
                                "\" ignored: a CUPTI metric name has only letters, digits, '_' "
                                "and '.'");
        }
        return true;
    });
    return out;
}

} // namespace strata::gpu_metrics
