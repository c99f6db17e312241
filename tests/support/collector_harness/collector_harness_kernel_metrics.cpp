// The GPU's side of --kernel-metrics on the stand-in CUPTI (fake_cupti_range.cpp): three kernel
// launches on device 0's context, as the CUDA runtime makes them (cudaLaunchKernel's entry, the
// driver's cuLaunchKernel entry and exit inside it, the runtime's exit; CUPTI's launch
// callbacks carry the context and the kernel's mangled name), then their API and kernel records.
//
//   launch  kernel           runtime / driver correlation  kernel [start, end) ns
//   1       gemm_tile()      11 / 12                       [100000, 120000)
//   2       copy_kernel()    21 / 22                       [130000, 140000)
//   3       gemm_tile()      31 / 32                       [150000, 170000)
// The first launch's runtime entry comes before the runtime made its context (no context in the
// callback): its driver call is the one measured, under the runtime's correlation id.
//
// Three sets of values are queued on device 0, one taken by each launch the collector measures:
//   metric                                               set A    set B    set C
//   dram__bytes_read.sum                                 4096     8192     1
//   dram__bytes_write.sum                                2048     1024     1
//   sm__sass_thread_inst_executed_op_ffma_pred_on.sum    1e6      3e6      1
//   gpu__time_duration.sum                               20000    19000    1
//   sm__throughput.avg.pct_of_peak_sustained_elapsed     87.5     90.25    1
// (every other metric of the set evaluates to NaN: not measured). With STRATA_KERNEL_METRICS=gemm
// the two gemm launches take A and B; set C is left (copy_kernel is not measured).
#include "collector_harness_kernel_metrics.h"

#include "collector_harness_feed.h"

#include <string>

namespace {

const char* const kMetrics[5] = {
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "sm__sass_thread_inst_executed_op_ffma_pred_on.sum",
    "gpu__time_duration.sum",
    "sm__throughput.avg.pct_of_peak_sustained_elapsed",
};
constexpr double kSets[3][5] = {
    {4096, 2048, 1e6, 20000, 87.5},
    {8192, 1024, 3e6, 19000, 90.25},
    {1, 1, 1, 1, 1},
};

// One launch as the CUDA runtime makes it; `contextAtEntry` false: the runtime's entry callback
// has no context yet. Returns how many of the four callbacks reached the collector.
int launch(const char* symbol, uint32_t runtimeCorr, uint32_t driverCorr, bool contextAtEntry) {
    CUpti_CallbackData d;
    std::memset(&d, 0, sizeof d);
    d.symbolName = symbol;
    int delivered = 0;
    auto call = [&](bool runtime, CUpti_ApiCallbackSite site, uint32_t corr, CUcontext ctx) {
        d.callbackSite = site;
        d.correlationId = corr;
        d.context = ctx;
        d.functionName = runtime ? "cudaLaunchKernel" : "cuLaunchKernel";
        delivered +=
            runtime
                ? fake_cupti_invoke_callback(CUPTI_CB_DOMAIN_RUNTIME_API,
                                             CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &d)
                : fake_cupti_invoke_callback(CUPTI_CB_DOMAIN_DRIVER_API,
                                             CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &d);
    };
    const CUcontext ctx = fake_cupti_context(0);
    call(true, CUPTI_API_ENTER, runtimeCorr, contextAtEntry ? ctx : nullptr);
    call(false, CUPTI_API_ENTER, driverCorr, ctx);
    call(false, CUPTI_API_EXIT, driverCorr, ctx);
    call(true, CUPTI_API_EXIT, runtimeCorr, ctx);
    return delivered;
}

void refuseAsAsked() {
    const char* how = std::getenv("HARNESS_KM_FAIL");
    const std::string fail = how ? how : "";
    if (fail == "privileges")
        fake_cupti_range_fail("cuptiRangeProfilerEnable", CUPTI_ERROR_INSUFFICIENT_PRIVILEGES);
    else if (fail == "metric")
        fake_cupti_pm_lack_metric(
            "sm__sass_thread_inst_executed_op_hfma_pred_on.sum.peak_sustained");
    else if (fail == "passes")
        fake_cupti_pm_metrics_per_pass(8); // the default set's 21 metrics: 3 passes
    else if (fail == "unsupported")
        fake_cupti_pm_unsupported();
    else if (fail == "launch")
        fake_cupti_range_fail("cuptiRangeProfilerDecodeData", CUPTI_ERROR_UNKNOWN);
}

void rangeObservations() {
    std::printf("range_calls=%d\n", fake_cupti_range_calls(nullptr));
    std::printf("range_starts=%d\n", fake_cupti_range_calls("cuptiRangeProfilerStart"));
    std::printf("range_set_configs=%d\n", fake_cupti_range_calls("cuptiRangeProfilerSetConfig"));
    std::printf("range_enables=%d\n", fake_cupti_range_calls("cuptiRangeProfilerEnable"));
    std::printf("range_state=%d\n", fake_cupti_range_state(0));
    std::printf("range_config=%s\n", fake_cupti_range_config(0));
    std::printf("profiler_initializations=%d\n", fake_cupti_profiler_initializations());
    std::printf("host_objects=%d\n", fake_cupti_pm_host_objects());
    std::printf("launch_callback_enabled=%d\n",
                fake_cupti_callback_enabled(CUPTI_CB_DOMAIN_RUNTIME_API,
                                            CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000));
    std::fflush(stdout);
}

} // namespace

int kernelMetricsScenario() {
    refuseAsAsked();
    for (const auto& set : kSets) fake_cupti_range_queue(0, kMetrics, set, 5);
    InitializeInjection();
    device();
    std::printf("delivered_1=%d\n", launch("_Z9gemm_tilev", 11, 12, false));
    std::printf("delivered_2=%d\n", launch("_Z11copy_kernelv", 21, 22, true));
    std::printf("delivered_3=%d\n", launch("_Z9gemm_tilev", 31, 32, true));
    api(true, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 90000, 95000, 11);
    api(true, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 125000, 128000, 21);
    api(true, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 145000, 148000, 31);
    kernel("_Z9gemm_tilev", 100000, 120000, 11);
    kernel("_Z11copy_kernelv", 130000, 140000, 21);
    kernel("_Z9gemm_tilev", 150000, 170000, 31);
    rangeObservations();
    observations();
    return 0; // exit: the collector's end disables the range profiler
}
