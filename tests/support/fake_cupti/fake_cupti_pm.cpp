// The stand-in CUPTI's PM sampling and profiler host (cupti_pmsampling.h, cupti_profiler_host.h,
// cupti_profiler_target.h, cupti_target.h): what the collector's --gpu-metrics calls, over plain
// memory, and the host and device support its --kernel-metrics shares (the range profiler itself:
// fake_cupti_range.cpp). A test queues the samples the GPU would take (fake_cupti_pm_queue_sample);
// decoding copies them into the collector's counter data image (a header and a slot per sample, so
// a stale or foreign image is refused), GetSampleInfo and EvaluateToGpuValues read them back from
// it. Failures, an unsupported device, metrics the chip lacks and overflows are the test's to
// set (fake_cupti_control.h).
#include "fake_cupti_control.h"
#include "fake_cupti_range.h"

#include <cupti.h>
#include <cupti_pmsampling.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <deque>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace {

struct Sample {
    uint64_t start = 0, end = 0;
    std::map<std::string, double> values;
};

struct Device {
    int state = 0; // 0 disabled, 1 enabled, 2 started
    uint64_t interval = 0;
    int trigger = -1, append = -1;
    size_t hardwareBuffer = 0;
    std::string configMetrics;
    int enables = 0, starts = 0, imageInits = 0, fullStops = 0;
    std::deque<size_t> queue; // sample ids, oldest first
    int overflow = 0;         // the next decode's: 1 the flag, 2 an error
    bool refusing = false;    // decoding fails (an overflow as an error) until started again
};

struct HostObject {
    std::string chip;
    std::vector<std::string> metrics;
};

struct State {
    std::mutex mutex;
    std::map<std::string, CUptiResult> failures;
    bool unsupported = false;
    std::set<std::string> lacking;
    size_t perPass = 64;
    uint32_t imageLimit = std::numeric_limits<uint32_t>::max();
    std::vector<Sample> samples;
    std::map<uint32_t, Device> devices;
    int profilerInits = 0, hostObjects = 0;
    std::string text; // fake_cupti_pm_config_metrics's answer
};

State& st() {
    static State* s = new State; // never destroyed: atexit handlers may still call in
    return *s;
}

// The counter data image as the stand-in lays it out.
struct ImageHeader {
    uint64_t magic;
    uint32_t capacity, count, device, reserved;
};
struct ImageSlot {
    uint64_t start, end, sample;
};
constexpr uint64_t kImageMagic = 0x464b504d494d4147ull;
constexpr uintptr_t kContextBase = 0x1000, kObjectBase = 0x5000;
constexpr const char* kConfigPrefix = "FAKECFG:";

CUptiResult failure(const char* function) {
    auto it = st().failures.find(function);
    return it == st().failures.end() ? CUPTI_SUCCESS : it->second;
}

#define FAIL_IF_ASKED(name)                                                                        \
    if (const CUptiResult injected = failure(name); injected != CUPTI_SUCCESS) return injected

CUpti_PmSampling_Object* objectOf(uint32_t device) {
    return reinterpret_cast<CUpti_PmSampling_Object*>(kObjectBase + device);
}

Device* deviceOf(CUpti_PmSampling_Object* object) {
    const uintptr_t v = reinterpret_cast<uintptr_t>(object);
    if (v < kObjectBase || v >= kObjectBase + 0x1000) return nullptr;
    auto it = st().devices.find(uint32_t(v - kObjectBase));
    return it == st().devices.end() || it->second.state == 0 ? nullptr : &it->second;
}

ImageHeader* header(const uint8_t* image, size_t size) {
    if (!image || size < sizeof(ImageHeader)) return nullptr;
    auto* h = reinterpret_cast<ImageHeader*>(const_cast<uint8_t*>(image));
    return h->magic == kImageMagic ? h : nullptr;
}

ImageSlot* slots(ImageHeader* h) {
    return reinterpret_cast<ImageSlot*>(h + 1);
}

std::string configText(const std::vector<std::string>& metrics) {
    std::string s = kConfigPrefix;
    for (size_t i = 0; i < metrics.size(); ++i) s += (i ? "," : "") + metrics[i];
    return s;
}

template <class F> auto observe(uint32_t device, F f) {
    std::lock_guard lock(st().mutex);
    return f(st().devices[device]);
}

} // namespace

extern "C" {

// ---- CUPTI: contexts, profiler, device --------------------------------------------------------

CUptiResult CUPTIAPI cuptiGetDeviceId(CUcontext context, uint32_t* deviceId) {
    const uintptr_t v = reinterpret_cast<uintptr_t>(context);
    if (!deviceId || v < kContextBase || v >= kContextBase + 0x1000)
        return CUPTI_ERROR_INVALID_PARAMETER;
    *deviceId = uint32_t(v - kContextBase);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiProfilerInitialize(CUpti_Profiler_Initialize_Params* p) {
    std::lock_guard lock(st().mutex);
    FAIL_IF_ASKED("cuptiProfilerInitialize");
    if (!p || !p->structSize) return CUPTI_ERROR_INVALID_PARAMETER;
    ++st().profilerInits;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiProfilerDeInitialize(CUpti_Profiler_DeInitialize_Params* p) {
    return p ? CUPTI_SUCCESS : CUPTI_ERROR_INVALID_PARAMETER;
}

CUptiResult CUPTIAPI cuptiProfilerDeviceSupported(CUpti_Profiler_DeviceSupported_Params* p) {
    std::lock_guard lock(st().mutex);
    FAIL_IF_ASKED("cuptiProfilerDeviceSupported");
    if (!p || (p->api != CUPTI_PROFILER_PM_SAMPLING && p->api != CUPTI_PROFILER_RANGE_PROFILING))
        return CUPTI_ERROR_INVALID_PARAMETER;
    const auto yes = CUPTI_PROFILER_CONFIGURATION_SUPPORTED;
    p->sli = p->vGpu = p->confidentialCompute = p->cmp = p->wsl = yes;
    p->architecture = st().unsupported ? CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED : yes;
    p->isSupported = st().unsupported ? CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED : yes;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiDeviceGetChipName(CUpti_Device_GetChipName_Params* p) {
    std::lock_guard lock(st().mutex);
    FAIL_IF_ASKED("cuptiDeviceGetChipName");
    if (!p) return CUPTI_ERROR_INVALID_PARAMETER;
    p->pChipName = "GH100";
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
cuptiPmSamplingGetCounterAvailability(CUpti_PmSampling_GetCounterAvailability_Params* p) {
    std::lock_guard lock(st().mutex);
    FAIL_IF_ASKED("cuptiPmSamplingGetCounterAvailability");
    if (!p) return CUPTI_ERROR_INVALID_PARAMETER;
    if (!p->pCounterAvailabilityImage) {
        p->counterAvailabilityImageSize = 64;
        return CUPTI_SUCCESS;
    }
    if (p->counterAvailabilityImageSize < 64) return CUPTI_ERROR_INVALID_PARAMETER;
    std::memset(p->pCounterAvailabilityImage, 0xa5, 64);
    return CUPTI_SUCCESS;
}

// ---- the profiler host -------------------------------------------------------------------------

CUptiResult CUPTIAPI cuptiProfilerHostInitialize(CUpti_Profiler_Host_Initialize_Params* p) {
    std::lock_guard lock(st().mutex);
    FAIL_IF_ASKED("cuptiProfilerHostInitialize");
    const bool known = p && (p->profilerType == CUPTI_PROFILER_TYPE_PM_SAMPLING ||
                             p->profilerType == CUPTI_PROFILER_TYPE_RANGE_PROFILER);
    if (!known || !p->pChipName || !p->pCounterAvailabilityImage ||
        p->pCounterAvailabilityImage[0] != 0xa5)
        return CUPTI_ERROR_INVALID_PARAMETER;
    p->pHostObject =
        reinterpret_cast<CUpti_Profiler_Host_Object*>(new HostObject{p->pChipName, {}});
    ++st().hostObjects;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiProfilerHostDeinitialize(CUpti_Profiler_Host_Deinitialize_Params* p) {
    std::lock_guard lock(st().mutex);
    if (!p || !p->pHostObject) return CUPTI_ERROR_INVALID_PARAMETER;
    delete reinterpret_cast<HostObject*>(p->pHostObject);
    --st().hostObjects;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
cuptiProfilerHostConfigAddMetrics(CUpti_Profiler_Host_ConfigAddMetrics_Params* p) {
    std::lock_guard lock(st().mutex);
    FAIL_IF_ASKED("cuptiProfilerHostConfigAddMetrics");
    if (!p || !p->pHostObject || !p->ppMetricNames) return CUPTI_ERROR_INVALID_PARAMETER;
    auto* h = reinterpret_cast<HostObject*>(p->pHostObject);
    for (size_t i = 0; i < p->numMetrics; ++i)
        if (!p->ppMetricNames[i] || st().lacking.count(p->ppMetricNames[i]))
            return CUPTI_ERROR_INVALID_METRIC_NAME;
    for (size_t i = 0; i < p->numMetrics; ++i) h->metrics.emplace_back(p->ppMetricNames[i]);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
cuptiProfilerHostGetConfigImageSize(CUpti_Profiler_Host_GetConfigImageSize_Params* p) {
    std::lock_guard lock(st().mutex);
    if (!p || !p->pHostObject) return CUPTI_ERROR_INVALID_PARAMETER;
    p->configImageSize =
        configText(reinterpret_cast<HostObject*>(p->pHostObject)->metrics).size() + 1;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiProfilerHostGetConfigImage(CUpti_Profiler_Host_GetConfigImage_Params* p) {
    std::lock_guard lock(st().mutex);
    if (!p || !p->pHostObject || !p->pConfigImage) return CUPTI_ERROR_INVALID_PARAMETER;
    const std::string text = configText(reinterpret_cast<HostObject*>(p->pHostObject)->metrics);
    if (p->configImageSize < text.size() + 1) return CUPTI_ERROR_INVALID_PARAMETER;
    std::memcpy(p->pConfigImage, text.c_str(), text.size() + 1);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiProfilerHostGetNumOfPasses(CUpti_Profiler_Host_GetNumOfPasses_Params* p) {
    std::lock_guard lock(st().mutex);
    if (!p || !p->pConfigImage) return CUPTI_ERROR_INVALID_PARAMETER;
    const std::string text(
        reinterpret_cast<const char*>(p->pConfigImage),
        strnlen(reinterpret_cast<const char*>(p->pConfigImage), p->configImageSize));
    if (text.rfind(kConfigPrefix, 0) != 0) return CUPTI_ERROR_INVALID_PARAMETER;
    size_t metrics = text.size() > std::strlen(kConfigPrefix) ? 1 : 0;
    for (char c : text) metrics += c == ',';
    p->numOfPasses = (metrics + st().perPass - 1) / st().perPass;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
cuptiProfilerHostEvaluateToGpuValues(CUpti_Profiler_Host_EvaluateToGpuValues_Params* p) {
    std::lock_guard lock(st().mutex);
    FAIL_IF_ASKED("cuptiProfilerHostEvaluateToGpuValues");
    if (!p || !p->pHostObject || !p->ppMetricNames || !p->pMetricValues)
        return CUPTI_ERROR_INVALID_PARAMETER;
    const auto* host = reinterpret_cast<HostObject*>(p->pHostObject);
    if (fake_cupti::isRangeImage(p->pCounterDataImage, p->counterDataImageSize)) // --kernel-metrics
        return fake_cupti::evaluateRange(p->pCounterDataImage, p->counterDataImageSize,
                                         p->rangeIndex, host->metrics, p->ppMetricNames,
                                         p->numMetrics, p->pMetricValues);
    ImageHeader* h = header(p->pCounterDataImage, p->counterDataImageSize);
    if (!h || p->rangeIndex >= h->count) return CUPTI_ERROR_INVALID_PARAMETER;
    const Sample& s = st().samples[slots(h)[p->rangeIndex].sample];
    for (size_t i = 0; i < p->numMetrics; ++i) {
        const std::string name = p->ppMetricNames[i];
        if (std::find(host->metrics.begin(), host->metrics.end(), name) == host->metrics.end())
            return CUPTI_ERROR_INVALID_METRIC_NAME;
        auto v = s.values.find(name);
        p->pMetricValues[i] = v == s.values.end() ? std::nan("") : v->second;
    }
    return CUPTI_SUCCESS;
}

// ---- PM sampling -------------------------------------------------------------------------------

CUptiResult CUPTIAPI cuptiPmSamplingEnable(CUpti_PmSampling_Enable_Params* p) {
    std::lock_guard lock(st().mutex);
    FAIL_IF_ASKED("cuptiPmSamplingEnable");
    if (!p) return CUPTI_ERROR_INVALID_PARAMETER;
    Device& d = st().devices[uint32_t(p->deviceIndex)];
    if (d.state != 0) return CUPTI_ERROR_INVALID_OPERATION;
    d.state = 1;
    ++d.enables;
    p->pPmSamplingObject = objectOf(uint32_t(p->deviceIndex));
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiPmSamplingDisable(CUpti_PmSampling_Disable_Params* p) {
    std::lock_guard lock(st().mutex);
    Device* d = p ? deviceOf(p->pPmSamplingObject) : nullptr;
    if (!d) return CUPTI_ERROR_INVALID_PARAMETER;
    d->state = 0;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiPmSamplingSetConfig(CUpti_PmSampling_SetConfig_Params* p) {
    std::lock_guard lock(st().mutex);
    FAIL_IF_ASKED("cuptiPmSamplingSetConfig");
    Device* d = p ? deviceOf(p->pPmSamplingObject) : nullptr;
    if (!d || !p->pConfig || !p->configSize || !p->samplingInterval)
        return CUPTI_ERROR_INVALID_PARAMETER;
    const std::string text(reinterpret_cast<const char*>(p->pConfig),
                           strnlen(reinterpret_cast<const char*>(p->pConfig), p->configSize));
    if (text.rfind(kConfigPrefix, 0) != 0) return CUPTI_ERROR_INVALID_PARAMETER;
    d->configMetrics = text.substr(std::strlen(kConfigPrefix));
    d->interval = p->samplingInterval;
    d->trigger = int(p->triggerMode);
    d->append = int(p->hwBufferAppendMode);
    d->hardwareBuffer = p->hardwareBufferSize;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiPmSamplingStart(CUpti_PmSampling_Start_Params* p) {
    std::lock_guard lock(st().mutex);
    FAIL_IF_ASKED("cuptiPmSamplingStart");
    Device* d = p ? deviceOf(p->pPmSamplingObject) : nullptr;
    if (!d) return CUPTI_ERROR_INVALID_PARAMETER;
    if (d->state == 2 || d->interval == 0) return CUPTI_ERROR_INVALID_OPERATION;
    d->state = 2;
    d->refusing = false;
    ++d->starts;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiPmSamplingStop(CUpti_PmSampling_Stop_Params* p) {
    std::lock_guard lock(st().mutex);
    FAIL_IF_ASKED("cuptiPmSamplingStop");
    Device* d = p ? deviceOf(p->pPmSamplingObject) : nullptr;
    if (!d) return CUPTI_ERROR_INVALID_PARAMETER;
    if (d->state != 2) return CUPTI_ERROR_INVALID_OPERATION;
    d->state = 1;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
cuptiPmSamplingGetCounterDataSize(CUpti_PmSampling_GetCounterDataSize_Params* p) {
    std::lock_guard lock(st().mutex);
    if (!p || !deviceOf(p->pPmSamplingObject) || !p->pMetricNames || !p->numMetrics ||
        !p->maxSamples)
        return CUPTI_ERROR_INVALID_PARAMETER;
    p->counterDataSize = sizeof(ImageHeader) + size_t(p->maxSamples) * sizeof(ImageSlot);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
cuptiPmSamplingCounterDataImageInitialize(CUpti_PmSampling_CounterDataImage_Initialize_Params* p) {
    std::lock_guard lock(st().mutex);
    Device* d = p ? deviceOf(p->pPmSamplingObject) : nullptr;
    if (!d || !p->pCounterData || p->counterDataSize < sizeof(ImageHeader) + sizeof(ImageSlot))
        return CUPTI_ERROR_INVALID_PARAMETER;
    auto* h = reinterpret_cast<ImageHeader*>(p->pCounterData);
    const size_t room = (p->counterDataSize - sizeof(ImageHeader)) / sizeof(ImageSlot);
    h->magic = kImageMagic;
    h->capacity = uint32_t(std::min<size_t>(room, st().imageLimit));
    h->count = 0;
    h->device = uint32_t(reinterpret_cast<uintptr_t>(p->pPmSamplingObject) - kObjectBase);
    ++d->imageInits;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiPmSamplingDecodeData(CUpti_PmSampling_DecodeData_Params* p) {
    std::lock_guard lock(st().mutex);
    FAIL_IF_ASKED("cuptiPmSamplingDecodeData");
    Device* d = p ? deviceOf(p->pPmSamplingObject) : nullptr;
    ImageHeader* h = p ? header(p->pCounterDataImage, p->counterDataImageSize) : nullptr;
    if (!d || !h ||
        h->device != uint32_t(reinterpret_cast<uintptr_t>(p->pPmSamplingObject) - kObjectBase))
        return CUPTI_ERROR_INVALID_PARAMETER;
    if (d->overflow == 2) d->refusing = true;
    if (d->refusing) {
        d->overflow = 0;
        return CUPTI_ERROR_OUT_OF_MEMORY;
    }
    p->overflow = d->overflow == 1 ? 1 : 0;
    d->overflow = 0;
    while (h->count < h->capacity && !d->queue.empty()) {
        const Sample& s = st().samples[d->queue.front()];
        slots(h)[h->count++] = ImageSlot{s.start, s.end, d->queue.front()};
        d->queue.pop_front();
    }
    const bool full = !d->queue.empty();
    p->decodeStopReason = full ? CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL
                               : CUPTI_PM_SAMPLING_DECODE_STOP_REASON_END_OF_RECORDS;
    d->fullStops += full;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
cuptiPmSamplingGetCounterDataInfo(CUpti_PmSampling_GetCounterDataInfo_Params* p) {
    std::lock_guard lock(st().mutex);
    ImageHeader* h = p ? header(p->pCounterDataImage, p->counterDataImageSize) : nullptr;
    if (!h) return CUPTI_ERROR_INVALID_PARAMETER;
    p->numTotalSamples = h->capacity;
    p->numPopulatedSamples = p->numCompletedSamples = h->count;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
cuptiPmSamplingCounterDataGetSampleInfo(CUpti_PmSampling_CounterData_GetSampleInfo_Params* p) {
    std::lock_guard lock(st().mutex);
    FAIL_IF_ASKED("cuptiPmSamplingCounterDataGetSampleInfo");
    ImageHeader* h = p ? header(p->pCounterDataImage, p->counterDataImageSize) : nullptr;
    if (!h || !deviceOf(p->pPmSamplingObject) || p->sampleIndex >= h->count)
        return CUPTI_ERROR_INVALID_PARAMETER;
    p->startTimestamp = slots(h)[p->sampleIndex].start;
    p->endTimestamp = slots(h)[p->sampleIndex].end;
    return CUPTI_SUCCESS;
}

// ---- test control ------------------------------------------------------------------------------

CUcontext fake_cupti_context(uint32_t device) {
    return reinterpret_cast<CUcontext>(kContextBase + device);
}

void fake_cupti_pm_fail(const char* function, CUptiResult result) {
    std::lock_guard lock(st().mutex);
    st().failures[function] = result;
}

void fake_cupti_pm_unsupported(void) {
    std::lock_guard lock(st().mutex);
    st().unsupported = true;
}

void fake_cupti_pm_lack_metric(const char* metric) {
    std::lock_guard lock(st().mutex);
    st().lacking.insert(metric);
}

void fake_cupti_pm_metrics_per_pass(size_t n) {
    std::lock_guard lock(st().mutex);
    st().perPass = n ? n : 1;
}

void fake_cupti_pm_limit_image(uint32_t samples) {
    std::lock_guard lock(st().mutex);
    st().imageLimit = samples;
}

void fake_cupti_pm_queue_sample(uint32_t device, uint64_t start, uint64_t end,
                                const char* const* metrics, const double* values, size_t count) {
    std::lock_guard lock(st().mutex);
    Sample s{start, end, {}};
    for (size_t i = 0; i < count; ++i) s.values[metrics[i]] = values[i];
    st().samples.push_back(std::move(s));
    st().devices[device].queue.push_back(st().samples.size() - 1);
}

void fake_cupti_pm_overflow(uint32_t device, int asError) {
    std::lock_guard lock(st().mutex);
    st().devices[device].overflow = asError ? 2 : 1;
}

int fake_cupti_pm_state(uint32_t device) {
    return observe(device, [](const Device& d) { return d.state; });
}
uint64_t fake_cupti_pm_interval(uint32_t device) {
    return observe(device, [](const Device& d) { return d.interval; });
}
int fake_cupti_pm_trigger_mode(uint32_t device) {
    return observe(device, [](const Device& d) { return d.trigger; });
}
int fake_cupti_pm_append_mode(uint32_t device) {
    return observe(device, [](const Device& d) { return d.append; });
}
size_t fake_cupti_pm_hardware_buffer(uint32_t device) {
    return observe(device, [](const Device& d) { return d.hardwareBuffer; });
}
const char* fake_cupti_pm_config_metrics(uint32_t device) {
    return observe(device, [](const Device& d) {
        st().text = d.configMetrics;
        return st().text.c_str();
    });
}
int fake_cupti_pm_enables(uint32_t device) {
    return observe(device, [](const Device& d) { return d.enables; });
}
int fake_cupti_pm_starts(uint32_t device) {
    return observe(device, [](const Device& d) { return d.starts; });
}
int fake_cupti_pm_image_inits(uint32_t device) {
    return observe(device, [](const Device& d) { return d.imageInits; });
}
int fake_cupti_pm_full_stops(uint32_t device) {
    return observe(device, [](const Device& d) { return d.fullStops; });
}
int fake_cupti_profiler_initializations(void) {
    std::lock_guard lock(st().mutex);
    return st().profilerInits;
}
int fake_cupti_pm_host_objects(void) {
    std::lock_guard lock(st().mutex);
    return st().hostObjects;
}

} // extern "C"
