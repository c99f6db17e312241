#pragma once
// What the collector's two users of CUPTI's profiler share (CUDA 12.6+ API,
// cupti_profiler_host.h and cupti_profiler_target.h): the process's one cuptiProfilerInitialize,
// a device's support and chip name, and a profiler host object: which of the wanted metrics the
// chip has, the config image of those and the passes it needs, and a range's (or sample's)
// values evaluated from a counter data image. The PM sampler (--gpu-metrics, pm_sampler.h) and
// the range profiler (--kernel-metrics, kernel_metrics/range_session.h) differ only in what they
// do with it. Every failure is text naming the CUPTI call and its error.
#include "gpu_metrics/metric_set.h"

#include <cupti.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace strata::gpu_metrics {

// A CUPTI parameter struct: zeroed, its size set (the X_STRUCT_SIZE of its header).
template <class P> P cuptiParams(size_t size) {
    P p;
    std::memset(&p, 0, sizeof p);
    p.structSize = size;
    return p;
}
#define STRATA_CUPTI_PARAMS(T) ::strata::gpu_metrics::cuptiParams<T>(T##_STRUCT_SIZE)

// "cuptiPmSamplingEnable: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (35)", with what to do about it
// when the error says the user may not read the GPU's counters.
std::string cuptiCallError(const char* call, int result);
// True on success; otherwise *error (when given) says which call failed and why.
bool cuptiOk(CUptiResult r, const char* call, std::string* error);
// The profiler host refused a metric's name: the chip has no such metric.
bool metricUnknown(int result);

// cuptiProfilerInitialize for the process's users of CUPTI's profiler, counted: the first call
// initializes, each successful one is matched by releaseProfiler, the last of which
// deinitializes. Thread-safe.
bool acquireProfiler(std::string* error);
void releaseProfiler();

// Whether device `device` supports `api`; false with *error = "the device does not support
// <what>: its architecture, vGPU (profiling disabled), ..." or the call's failure.
bool checkProfilerSupport(uint32_t device, CUpti_Profiler_API api, const char* what,
                          std::string* error);
// The chip's name of device `device` ("GH100").
bool readChipName(uint32_t device, std::string* chip, std::string* error);

// Which of the wanted metrics the chip has.
struct MetricChoice {
    std::vector<MetricSpec> recorded;         // each with the one CUPTI name in use
    std::vector<std::string> lacking;         // labels of wanted metrics the chip has none of
    std::vector<std::string> optionalLacking; // the same, for optional ones
};

// A profiler host object of one kind (PM sampling or range profiler) for one chip. Not
// thread-safe: its owner serialises its calls.
class ProfilerHost {
public:
    explicit ProfilerHost(CUpti_ProfilerType type) : type_(type) {}
    ~ProfilerHost() { release(); }
    ProfilerHost(const ProfilerHost&) = delete;
    ProfilerHost& operator=(const ProfilerHost&) = delete;

    // The chip the host objects are made for and its counter availability image (read by the
    // profiler's own call: the two profilers have one each).
    void setChip(std::string chip, std::vector<uint8_t> availability);
    const std::string& chip() const { return chip_; }
    // All of `wanted` by their first names in one host object; when the chip refuses that, each
    // on its own, its names in order, to find which it has. False only when a call fails for
    // another reason than an unknown metric.
    bool choose(const std::vector<MetricSpec>& wanted, MetricChoice* choice, std::string* error);
    // A host object holding exactly `names`, its config image and the passes that image needs.
    bool configure(const std::vector<const char*>& names, std::vector<uint8_t>* image,
                   size_t* passes, std::string* error);
    // The values of `names` (as configured) for range or sample `index` of a counter data image:
    // `values` gets one per name, NaN where CUPTI gives none.
    bool evaluate(const std::vector<uint8_t>& counterData, size_t index,
                  const std::vector<const char*>& names, double* values, std::string* error);
    // The host object deinitialized (configure makes a new one).
    void release();

private:
    // A new host object with `names` added: false when the host object cannot be made; *added
    // is what cuptiProfilerHostConfigAddMetrics said.
    bool tryMetrics(std::vector<const char*> names, std::string* error, int* added);

    CUpti_ProfilerType type_;
    std::string chip_;
    std::vector<uint8_t> availability_;
    CUpti_Profiler_Host_Object* host_ = nullptr;
};

} // namespace strata::gpu_metrics
