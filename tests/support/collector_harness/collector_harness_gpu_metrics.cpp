// The GPU's side of --gpu-metrics on the stand-in CUPTI (fake_cupti_pm.cpp): a context created
// on device 0 (the collector starts PM sampling there), kernels, and the samples the GPU would
// take, queued with their values; decoded by the collector at each flush and at its end.
// STRATA_FLUSH_MS is set long by the test, so only these flushes decode.
//
// Times: in "gpu_metrics" the samples run on the collector's clock (CUPTI applied its timestamp
// callback to them: trace time = sample time, exactly); in "gpu_metrics_lost" on a clock of
// CUPTI's own, kGpuEpoch ahead (cuptiGetTimestamp says so too). Sample i (0..9) covers
// [80 us + 20 us * i, + 20 us) of the collector's clock. Kernels on device 0, stream 7:
// copy [100, 150) us, gemm [160, 180) us, gemm [240, 260) us; the GPU idles in [180, 240) us.
// Values (CUPTI's units: % and bytes/s); sample 9 has no tensor value:
//   i  SM act  occ  tensor  DRAM read  DRAM write  PCIe read  PCIe write
//   0     0     0     0        0          0          1e9        0
//   1   100    50     0      2e12       2e12          0         0
//   2   100    50     0      2e12       2e12          0         0
//   3    50    25     0      1e12       1e12          0         0
//   4   100    75    80      5e10       1e10          0         0
//   5     0     0     0        0          0           0         0
//   6     0     0     0        0          0           0        2e9
//   7     0     0     0        0          0           0         0
//   8   100    75    80      5e10       1e10          0         0
//   9     0     0     -        0          0           0         0
#include "collector_harness_gpu_metrics.h"

#include "collector_harness_feed.h"

#include <vector>

namespace {

constexpr uint64_t kGpuEpoch = 400'000'000'000'000'000ull;

const char* const kMetrics[7] = {
    "sm__cycles_active.avg.pct_of_peak_sustained_elapsed",
    "sm__warps_active.avg.pct_of_peak_sustained_elapsed",
    "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed",
    "dram__bytes_read.sum.per_second",
    "dram__bytes_write.sum.per_second",
    "pcie__read_bytes.sum.per_second",
    "pcie__write_bytes.sum.per_second",
};

constexpr double kValues[10][7] = {
    {0, 0, 0, 0, 0, 1e9, 0},       {100, 50, 0, 2e12, 2e12, 0, 0},  {100, 50, 0, 2e12, 2e12, 0, 0},
    {50, 25, 0, 1e12, 1e12, 0, 0}, {100, 75, 80, 5e10, 1e10, 0, 0}, {0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 2e9},       {0, 0, 0, 0, 0, 0, 0},           {100, 75, 80, 5e10, 1e10, 0, 0},
    {0, 0, 0, 0, 0, 0, 0},
};

void queueSample(int i, uint64_t epoch) {
    std::vector<const char*> names;
    std::vector<double> values;
    for (int m = 0; m < 7; ++m) {
        if (i == 9 && m == 2) continue; // no tensor value
        names.push_back(kMetrics[m]);
        values.push_back(kValues[i][m]);
    }
    const uint64_t start = epoch + 80000 + 20000 * uint64_t(i);
    fake_cupti_pm_queue_sample(0, start, start + 20000, names.data(), values.data(), names.size());
}

// The CUDA driver creating a context on `device`: CUPTI's resource callback.
int contextCreated(uint32_t device) {
    CUpti_ResourceData rd{};
    rd.context = fake_cupti_context(device);
    return fake_cupti_invoke_callback(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_CREATED,
                                      &rd);
}

void pmObservations(const char* prefix) {
    std::printf("%spm_state=%d\n", prefix, fake_cupti_pm_state(0));
    std::printf("%spm_interval=%llu\n", prefix, (unsigned long long)fake_cupti_pm_interval(0));
    std::printf("%spm_trigger=%d\n", prefix, fake_cupti_pm_trigger_mode(0));
    std::printf("%spm_append=%d\n", prefix, fake_cupti_pm_append_mode(0));
    std::printf("%spm_hardware_buffer=%zu\n", prefix, fake_cupti_pm_hardware_buffer(0));
    std::printf("%spm_metrics=%s\n", prefix, fake_cupti_pm_config_metrics(0));
    std::printf("%spm_enables=%d\n", prefix, fake_cupti_pm_enables(0));
    std::printf("%spm_starts=%d\n", prefix, fake_cupti_pm_starts(0));
    std::printf("%spm_image_inits=%d\n", prefix, fake_cupti_pm_image_inits(0));
    std::printf("%spm_full_stops=%d\n", prefix, fake_cupti_pm_full_stops(0));
    std::printf("%sprofiler_initializations=%d\n", prefix, fake_cupti_profiler_initializations());
    std::printf("%spm_host_objects=%d\n", prefix, fake_cupti_pm_host_objects());
    std::printf(
        "%scontext_callback_enabled=%d\n", prefix,
        fake_cupti_callback_enabled(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_CREATED));
    std::fflush(stdout);
}

} // namespace

int gpuMetricsScenario() {
    fake_cupti_pm_lack_metric("nvlrx__bytes.sum.per_second"); // no NVLink on this chip
    fake_cupti_pm_lack_metric("nvltx__bytes.sum.per_second");
    fake_cupti_pm_limit_image(4); // a full image is read and reinitialised
    InitializeInjection();
    std::printf("context_delivered=%d\n", contextCreated(0));
    contextCreated(0); // a second context on the device shares its session
    device();
    kernel("_Z4copyPfS_", 100000, 150000, 1);
    kernel("_Z4gemmv", 160000, 180000, 2);
    kernel("_Z4gemmv", 240000, 260000, 3);
    for (int i = 0; i < 5; ++i) queueSample(i, 0);
    strata_collector_flush();
    pmObservations("flushed_");
    for (int i = 5; i < 10; ++i) queueSample(i, 0);
    pmObservations("");
    observations();
    return 0; // exit: the last samples at the collector's end
}

int gpuMetricsRefusedScenario() {
    const char* how = std::getenv("HARNESS_PM_FAIL");
    const std::string fail = how ? how : "";
    if (fail == "privileges")
        fake_cupti_pm_fail("cuptiPmSamplingGetCounterAvailability",
                           CUPTI_ERROR_INSUFFICIENT_PRIVILEGES);
    else if (fail == "config")
        fake_cupti_pm_fail("cuptiPmSamplingSetConfig", CUPTI_ERROR_NOT_SUPPORTED);
    else if (fail == "unsupported")
        fake_cupti_pm_unsupported();
    else if (fail == "metric")
        fake_cupti_pm_lack_metric("bogus__metric.sum");
    else if (fail == "passes")
        fake_cupti_pm_metrics_per_pass(5);
    InitializeInjection();
    contextCreated(0);
    kernel("_Z4copyPfS_", 100000, 150000, 1);
    queueSample(1, 0);
    pmObservations("");
    observations();
    return 0;
}

int gpuMetricsLostScenario() {
    fake_cupti_set_timestamp_offset(int64_t(kGpuEpoch));
    InitializeInjection();
    contextCreated(0);
    queueSample(0, kGpuEpoch);
    queueSample(1, kGpuEpoch);
    strata_collector_flush();
    fake_cupti_pm_overflow(0, 0); // reported with the next samples: 2 and 3 were lost
    queueSample(4, kGpuEpoch);
    strata_collector_flush();
    fake_cupti_pm_overflow(0, 1); // decoding refused until sampling restarts: 5 and 6 lost
    queueSample(7, kGpuEpoch);
    strata_collector_flush();
    pmObservations("");
    observations();
    return 0;
}
