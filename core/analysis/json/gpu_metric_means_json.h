#pragma once
// The GPU metrics' means over each kernel name's runs (analysis/ops/gpu_metric_means.h) as
// `strata-cli stats --json` prints them under "gpu_metrics"; times in microseconds, kernels by
// total time descending:
//   [{"name", "runs", "total_us", "means": {METRIC: {"mean", "covered_us"}}}]
// (empty where the trace has no GPU metric rows).
#include "analysis/ops/gpu_metric_means.h"

#include <nlohmann/json.hpp>

namespace strata {

nlohmann::json kernelMetricMeansToJson(const std::vector<KernelMetricMeans>& kernels);

} // namespace strata
