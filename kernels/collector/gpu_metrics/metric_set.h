#pragma once
// Which GPU metrics `--gpu-metrics[=SET]` records (issue 51): each a CUPTI PM sampling metric and
// the counter row it becomes, `GPU <device> <label>` (gpuCounterName), in the row's unit. Plain
// C++, no CUPTI: read with the collector's options (collector_config.cpp) and tested without a GPU.
#include <string>
#include <string_view>
#include <vector>

namespace strata::gpu_metrics {

struct MetricSpec {
    // CUPTI's names for it, tried in order: the first the chip knows is recorded (metric names
    // differ between architectures; a metric of the user's own has one).
    std::vector<std::string> names;
    std::string label;    // the row's metric: "SM Active %" (a metric of the user's: its name)
    double divisor = 1.0; // row value = CUPTI's value / divisor (bytes/s -> GB/s: 1e9, exact)
    // The default set's PCIe and NVLink: where the chip lacks them they are left out quietly (the
    // metadata says so); any other metric the chip lacks is a warning.
    bool optional = false;
};

// The default set: SM Active %, SM Occupancy %, Tensor Active %, DRAM Read/Write GB/s, PCIe
// Read/Write GB/s and NVLink RX/TX GB/s (the last four optional).
const std::vector<MetricSpec>& defaultMetricSet();

// STRATA_GPU_METRICS: "default" (also as an item of a list) or a comma list of CUPTI metric names
// (letters, digits, '_' and '.'), each recorded as it is named. An item of other characters is
// left out with a warning; a name given twice is recorded once. Empty: nothing.
std::vector<MetricSpec> parseMetricSet(std::string_view text, std::vector<std::string>* warnings);

} // namespace strata::gpu_metrics
