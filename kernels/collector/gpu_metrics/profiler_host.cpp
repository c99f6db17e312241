// The profiler host's calls as CUPTI's own samples (pm_sampling, range_profiling) make them:
// cuptiProfilerHostInitialize with the chip's name and counter availability, ConfigAddMetrics,
// GetConfigImageSize and GetConfigImage, GetNumOfPasses, EvaluateToGpuValues, Deinitialize.
#include "gpu_metrics/profiler_host.h"

#include "collector_instance.h"

#include <cupti_target.h>

#include <limits>
#include <mutex>
#include <utility>

namespace strata::gpu_metrics {

namespace {

std::mutex g_profilerMutex;
int g_profilerUsers = 0;

} // namespace

std::string cuptiCallError(const char* call, int result) {
    std::string text = std::string(call) + ": " + cuptiErrorText(CUptiResult(result));
    if (result == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES ||
        result == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES)
        text += ": this user may not read the GPU's performance counters (run as root, or load "
                "the driver with NVreg_RestrictProfilingToAdminUsers=0)";
    return text;
}

bool cuptiOk(CUptiResult r, const char* call, std::string* error) {
    if (r == CUPTI_SUCCESS) return true;
    if (error) *error = cuptiCallError(call, int(r));
    return false;
}

bool metricUnknown(int result) {
    return result == CUPTI_ERROR_INVALID_METRIC_NAME || result == CUPTI_ERROR_INVALID_PARAMETER;
}

bool acquireProfiler(std::string* error) {
    std::lock_guard lock(g_profilerMutex);
    if (g_profilerUsers == 0) {
        auto p = STRATA_CUPTI_PARAMS(CUpti_Profiler_Initialize_Params);
        if (!cuptiOk(cuptiProfilerInitialize(&p), "cuptiProfilerInitialize", error)) return false;
    }
    ++g_profilerUsers;
    return true;
}

void releaseProfiler() {
    std::lock_guard lock(g_profilerMutex);
    if (g_profilerUsers == 0 || --g_profilerUsers > 0) return;
    auto p = STRATA_CUPTI_PARAMS(CUpti_Profiler_DeInitialize_Params);
    cuptiProfilerDeInitialize(&p);
}

bool checkProfilerSupport(uint32_t device, CUpti_Profiler_API api, const char* what,
                          std::string* error) {
    auto p = STRATA_CUPTI_PARAMS(CUpti_Profiler_DeviceSupported_Params);
    p.cuDevice = CUdevice(device); // a device handle is its ordinal
    p.api = api;
    if (!cuptiOk(cuptiProfilerDeviceSupported(&p), "cuptiProfilerDeviceSupported", error))
        return false;
    if (p.isSupported == CUPTI_PROFILER_CONFIGURATION_SUPPORTED) return true;
    const std::pair<const char*, CUpti_Profiler_Support_Level> parts[] = {
        {"its architecture", p.architecture},
        {"SLI", p.sli},
        {"vGPU", p.vGpu},
        {"confidential computing", p.confidentialCompute},
        {"a CMP board", p.cmp},
        {"WSL", p.wsl}};
    std::string why;
    for (const auto& [part, level] : parts) {
        if (level == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED)
            why += std::string(why.empty() ? "" : ", ") + part;
        else if (level == CUPTI_PROFILER_CONFIGURATION_DISABLED)
            why += std::string(why.empty() ? "" : ", ") + part + " (profiling disabled)";
    }
    *error = std::string("the device does not support ") + what + (why.empty() ? "" : ": " + why);
    return false;
}

bool readChipName(uint32_t device, std::string* chip, std::string* error) {
    auto p = STRATA_CUPTI_PARAMS(CUpti_Device_GetChipName_Params);
    p.deviceIndex = device;
    if (!cuptiOk(cuptiDeviceGetChipName(&p), "cuptiDeviceGetChipName", error)) return false;
    *chip = p.pChipName ? p.pChipName : "";
    return true;
}

void ProfilerHost::setChip(std::string chip, std::vector<uint8_t> availability) {
    release();
    chip_ = std::move(chip);
    availability_ = std::move(availability);
}

bool ProfilerHost::tryMetrics(std::vector<const char*> names, std::string* error, int* added) {
    release();
    auto init = STRATA_CUPTI_PARAMS(CUpti_Profiler_Host_Initialize_Params);
    init.profilerType = type_;
    init.pChipName = chip_.c_str();
    init.pCounterAvailabilityImage = availability_.empty() ? nullptr : availability_.data();
    if (!cuptiOk(cuptiProfilerHostInitialize(&init), "cuptiProfilerHostInitialize", error))
        return false;
    host_ = init.pHostObject;
    auto add = STRATA_CUPTI_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params);
    add.pHostObject = host_;
    add.ppMetricNames = names.data();
    add.numMetrics = names.size();
    *added = int(cuptiProfilerHostConfigAddMetrics(&add));
    return true;
}

bool ProfilerHost::choose(const std::vector<MetricSpec>& wanted, MetricChoice* choice,
                          std::string* error) {
    *choice = MetricChoice{};
    std::vector<const char*> first;
    for (const MetricSpec& m : wanted) first.push_back(m.names.front().c_str());
    int added = 0;
    if (!tryMetrics(first, error, &added)) return false;
    if (added == CUPTI_SUCCESS) {
        for (const MetricSpec& m : wanted)
            choice->recorded.push_back(
                MetricSpec{{m.names.front()}, m.label, m.divisor, m.optional});
        return true;
    }
    if (!metricUnknown(added))
        return cuptiOk(CUptiResult(added), "cuptiProfilerHostConfigAddMetrics", error);
    for (const MetricSpec& m : wanted) {
        bool found = false;
        for (const std::string& name : m.names) {
            if (!tryMetrics({name.c_str()}, error, &added)) return false;
            if (added == CUPTI_SUCCESS) {
                choice->recorded.push_back(MetricSpec{{name}, m.label, m.divisor, m.optional});
                found = true;
                break;
            }
            if (!metricUnknown(added))
                return cuptiOk(CUptiResult(added), "cuptiProfilerHostConfigAddMetrics", error);
        }
        if (!found) (m.optional ? choice->optionalLacking : choice->lacking).push_back(m.label);
    }
    return true;
}

bool ProfilerHost::configure(const std::vector<const char*>& names, std::vector<uint8_t>* image,
                             size_t* passes, std::string* error) {
    int added = 0;
    if (!tryMetrics(names, error, &added)) return false;
    if (!cuptiOk(CUptiResult(added), "cuptiProfilerHostConfigAddMetrics", error)) return false;
    auto size = STRATA_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params);
    size.pHostObject = host_;
    if (!cuptiOk(cuptiProfilerHostGetConfigImageSize(&size), "cuptiProfilerHostGetConfigImageSize",
                 error))
        return false;
    image->assign(size.configImageSize, 0);
    auto get = STRATA_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params);
    get.pHostObject = host_;
    get.configImageSize = image->size();
    get.pConfigImage = image->data();
    if (!cuptiOk(cuptiProfilerHostGetConfigImage(&get), "cuptiProfilerHostGetConfigImage", error))
        return false;
    auto count = STRATA_CUPTI_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params);
    count.configImageSize = image->size();
    count.pConfigImage = image->data();
    if (!cuptiOk(cuptiProfilerHostGetNumOfPasses(&count), "cuptiProfilerHostGetNumOfPasses", error))
        return false;
    *passes = count.numOfPasses;
    return true;
}

bool ProfilerHost::evaluate(const std::vector<uint8_t>& counterData, size_t index,
                            const std::vector<const char*>& names, double* values,
                            std::string* error) {
    for (size_t i = 0; i < names.size(); ++i) values[i] = std::numeric_limits<double>::quiet_NaN();
    auto eval = STRATA_CUPTI_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params);
    eval.pHostObject = host_;
    eval.pCounterDataImage = counterData.data();
    eval.counterDataImageSize = counterData.size();
    eval.rangeIndex = index;
    eval.ppMetricNames = const_cast<const char**>(names.data());
    eval.numMetrics = names.size();
    eval.pMetricValues = values;
    return cuptiOk(cuptiProfilerHostEvaluateToGpuValues(&eval),
                   "cuptiProfilerHostEvaluateToGpuValues", error);
}

void ProfilerHost::release() {
    if (!host_) return;
    auto deinit = STRATA_CUPTI_PARAMS(CUpti_Profiler_Host_Deinitialize_Params);
    deinit.pHostObject = host_;
    cuptiProfilerHostDeinitialize(&deinit);
    host_ = nullptr;
}

} // namespace strata::gpu_metrics
