#pragma once
// collector_harness's --gpu-metrics scenarios (collector_harness_gpu_metrics.cpp): PM sampling
// played on the stand-in CUPTI. The samples' values are listed there and in tst_pm_sampling.cpp.
#include <string>

// "gpu_metrics": kernels on device 0 and ten queued samples over them and an idle gap.
int gpuMetricsScenario();
// "gpu_metrics_refused": sampling refused as $HARNESS_PM_FAIL says (privileges, config,
// unsupported, metric, passes); the kernel is recorded all the same.
int gpuMetricsRefusedScenario();
// "gpu_metrics_lost": the hardware buffer overflows twice (a flag, then decoding refused).
int gpuMetricsLostScenario();
