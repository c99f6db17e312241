#pragma once
// Which metrics `--kernel-metrics REGEX` measures on each matching launch (issue 51): CUPTI range
// profiler metric names, in the order the launch's values are written. Plain C++, no CUPTI: read
// with the collector's options (collector_config.cpp) and tested without a GPU.
#include <string>
#include <string_view>
#include <vector>

namespace strata::kernel_metrics {

// The default set: Nsight Compute's roofline inputs (DRAM bytes, FP64/FP32/FP16 FMA, ADD and MUL
// thread instructions, the kernel's time) and a few headline numbers (SM and memory throughput,
// achieved occupancy), then the ceilings the roofline is drawn under (peak DRAM bytes and FMAs
// per cycle, and the clocks).
const std::vector<std::string>& defaultKernelMetricSet();

// STRATA_KERNEL_METRICS_SET: "default" (also as an item of a list) or a comma list of CUPTI
// metric names (letters, digits, '_' and '.'). An item of other characters is left out with a
// warning; a name given twice is measured once. Empty or unset: the default set.
std::vector<std::string> parseKernelMetricSet(std::string_view text,
                                              std::vector<std::string>* warnings);

} // namespace strata::kernel_metrics
