#pragma once
// collector_harness's --kernel-metrics scenario (collector_harness_kernel_metrics.cpp): launches
// measured by CUPTI's range profiler, played on the stand-in CUPTI. The values are listed there
// and in tst_kernel_metrics_record.cpp.

// "kernel_metrics": gemm_tile, copy_kernel, gemm_tile launched through the runtime (each with the
// driver's launch inside it) and their kernels recorded; $HARNESS_KM_FAIL makes CUPTI refuse as
// it says (privileges, metric, passes, unsupported, launch).
int kernelMetricsScenario();
