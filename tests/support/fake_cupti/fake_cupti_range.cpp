// The stand-in CUPTI's range profiler (cupti_range_profiler.h, and the counter availability of
// cupti_profiler_target.h): what the collector's --kernel-metrics calls, over plain memory, one
// range profiler object per device. A test queues the values the GPU would measure on the next
// launch (fake_cupti_range_queue); a Stop of a started profiler takes them as the launch's range,
// and DecodeData writes that range into the counter data image SetConfig was given (a header and
// a slot per range, so an image not initialised or already full shows). The profiler host's
// EvaluateToGpuValues (fake_cupti_pm.cpp) reads them back from the image. The order CUPTI
// requires is checked: availability before Enable, SetConfig before Start, Stop before
// DecodeData; failures are the test's to set (fake_cupti_control.h).
#include "fake_cupti_range.h"
#include "fake_cupti_control.h"

#include <cupti.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>

#include <cmath>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace {

struct Object {
    int state = 0; // 0 disabled, 1 enabled, 2 started
    bool configured = false;
    std::string config; // the last SetConfig, as fake_cupti_range_config says it
    uint8_t* image = nullptr;
    size_t imageSize = 0;
    bool pending = false; // a Stop took a launch's values, not decoded yet
    size_t pendingValues = 0;
    std::deque<size_t> queue; // values ids for the next launches, oldest first
};

struct State {
    std::mutex mutex;
    std::map<std::string, CUptiResult> failures;
    std::map<std::string, int> calls;
    std::vector<std::map<std::string, double>> values;
    std::map<uint32_t, Object> objects; // by device
    std::string text;                   // fake_cupti_range_config's answer
};

State& st() {
    static State* s = new State; // never destroyed: atexit handlers may still call in
    return *s;
}

struct ImageHeader {
    uint64_t magic;
    uint32_t capacity, count, device, reserved;
};
constexpr uint64_t kImageMagic = 0x464b52414e474531ull; // "1EGNARKF"
constexpr uintptr_t kObjectBase = 0x9000;
constexpr const char* kConfigPrefix = "FAKECFG:"; // the stand-in host's config images

ImageHeader* header(const uint8_t* image, size_t size) {
    if (!image || size < sizeof(ImageHeader)) return nullptr;
    auto* h = reinterpret_cast<ImageHeader*>(const_cast<uint8_t*>(image));
    return h->magic == kImageMagic ? h : nullptr;
}

uint64_t* slots(ImageHeader* h) {
    return reinterpret_cast<uint64_t*>(h + 1);
}

// Counts the call, then the failure the test asked for, if any.
CUptiResult enter(const char* function) {
    ++st().calls[function];
    auto it = st().failures.find(function);
    return it == st().failures.end() ? CUPTI_SUCCESS : it->second;
}

#define FAKE_RANGE_ENTER(name)                                                                     \
    std::lock_guard lock(st().mutex);                                                              \
    if (const CUptiResult injected = enter(name); injected != CUPTI_SUCCESS) return injected

Object* objectOf(CUpti_RangeProfiler_Object* object, uint32_t* device = nullptr) {
    const uintptr_t v = reinterpret_cast<uintptr_t>(object);
    if (v < kObjectBase || v >= kObjectBase + 0x1000) return nullptr;
    auto it = st().objects.find(uint32_t(v - kObjectBase));
    if (it == st().objects.end() || it->second.state == 0) return nullptr;
    if (device) *device = it->first;
    return &it->second;
}

bool deviceOfContext(CUcontext context, uint32_t* device) {
    return context && cuptiGetDeviceId(context, device) == CUPTI_SUCCESS;
}

} // namespace

namespace fake_cupti {

bool isRangeImage(const uint8_t* image, size_t size) {
    std::lock_guard lock(st().mutex);
    return header(image, size) != nullptr;
}

CUptiResult evaluateRange(const uint8_t* image, size_t size, size_t index,
                          const std::vector<std::string>& configured, const char* const* names,
                          size_t count, double* values) {
    std::lock_guard lock(st().mutex);
    ImageHeader* h = header(image, size);
    if (!h || index >= h->count) return CUPTI_ERROR_INVALID_PARAMETER;
    const auto& measured = st().values[slots(h)[index]];
    for (size_t i = 0; i < count; ++i) {
        const std::string name = names[i];
        bool held = false;
        for (const std::string& c : configured) held = held || c == name;
        if (!held) return CUPTI_ERROR_INVALID_METRIC_NAME;
        auto v = measured.find(name);
        values[i] = v == measured.end() ? std::nan("") : v->second;
    }
    return CUPTI_SUCCESS;
}

} // namespace fake_cupti

extern "C" {

CUptiResult CUPTIAPI
cuptiProfilerGetCounterAvailability(CUpti_Profiler_GetCounterAvailability_Params* p) {
    FAKE_RANGE_ENTER("cuptiProfilerGetCounterAvailability");
    uint32_t device = 0;
    if (!p || !deviceOfContext(p->ctx, &device)) return CUPTI_ERROR_INVALID_PARAMETER;
    if (st().objects[device].state != 0) return CUPTI_ERROR_INVALID_OPERATION; // a session is on
    if (!p->pCounterAvailabilityImage) {
        p->counterAvailabilityImageSize = 64;
        return CUPTI_SUCCESS;
    }
    if (p->counterAvailabilityImageSize < 64) return CUPTI_ERROR_INVALID_PARAMETER;
    std::memset(p->pCounterAvailabilityImage, 0xa5, 64); // what the stand-in host checks
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiRangeProfilerEnable(CUpti_RangeProfiler_Enable_Params* p) {
    FAKE_RANGE_ENTER("cuptiRangeProfilerEnable");
    uint32_t device = 0;
    if (!p || !deviceOfContext(p->ctx, &device)) return CUPTI_ERROR_INVALID_PARAMETER;
    Object& o = st().objects[device];
    if (o.state != 0) return CUPTI_ERROR_INVALID_OPERATION;
    o.state = 1;
    o.configured = false;
    p->pRangeProfilerObject = reinterpret_cast<CUpti_RangeProfiler_Object*>(kObjectBase + device);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiRangeProfilerDisable(CUpti_RangeProfiler_Disable_Params* p) {
    FAKE_RANGE_ENTER("cuptiRangeProfilerDisable");
    Object* o = p ? objectOf(p->pRangeProfilerObject) : nullptr;
    if (!o) return CUPTI_ERROR_INVALID_PARAMETER;
    o->state = 0;
    o->pending = false;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
cuptiRangeProfilerGetCounterDataSize(CUpti_RangeProfiler_GetCounterDataSize_Params* p) {
    FAKE_RANGE_ENTER("cuptiRangeProfilerGetCounterDataSize");
    if (!p || !objectOf(p->pRangeProfilerObject) || !p->pMetricNames || !p->numMetrics ||
        !p->maxNumOfRanges || p->maxNumRangeTreeNodes < p->maxNumOfRanges)
        return CUPTI_ERROR_INVALID_PARAMETER;
    p->counterDataSize = sizeof(ImageHeader) + p->maxNumOfRanges * sizeof(uint64_t);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiRangeProfilerCounterDataImageInitialize(
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params* p) {
    FAKE_RANGE_ENTER("cuptiRangeProfilerCounterDataImageInitialize");
    uint32_t device = 0;
    if (!p || !objectOf(p->pRangeProfilerObject, &device) || !p->pCounterData ||
        p->counterDataSize < sizeof(ImageHeader) + sizeof(uint64_t))
        return CUPTI_ERROR_INVALID_PARAMETER;
    auto* h = reinterpret_cast<ImageHeader*>(p->pCounterData);
    h->magic = kImageMagic;
    h->capacity = uint32_t((p->counterDataSize - sizeof(ImageHeader)) / sizeof(uint64_t));
    h->count = 0;
    h->device = device;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiRangeProfilerSetConfig(CUpti_RangeProfiler_SetConfig_Params* p) {
    FAKE_RANGE_ENTER("cuptiRangeProfilerSetConfig");
    Object* o = p ? objectOf(p->pRangeProfilerObject) : nullptr;
    if (!o || !p->pConfig || !header(p->pCounterDataImage, p->counterDataImageSize))
        return CUPTI_ERROR_INVALID_PARAMETER;
    if (o->state != 1) return CUPTI_ERROR_INVALID_OPERATION;
    const std::string text(reinterpret_cast<const char*>(p->pConfig),
                           strnlen(reinterpret_cast<const char*>(p->pConfig), p->configSize));
    if (text.rfind(kConfigPrefix, 0) != 0) return CUPTI_ERROR_INVALID_PARAMETER;
    // Kernel replay replays kernels: a user range is for user and application replay.
    if (p->range == CUPTI_UserRange && p->replayMode == CUPTI_KernelReplay)
        return CUPTI_ERROR_INVALID_PARAMETER;
    if (p->range == CUPTI_AutoRange && p->numNestingLevels != 1)
        return CUPTI_ERROR_INVALID_PARAMETER;
    o->image = p->pCounterDataImage;
    o->imageSize = p->counterDataImageSize;
    o->configured = true;
    o->config = "range=" + std::to_string(int(p->range)) +
                " replay=" + std::to_string(int(p->replayMode)) +
                " ranges=" + std::to_string(p->maxRangesPerPass) +
                " nesting=" + std::to_string(p->numNestingLevels) +
                " metrics=" + text.substr(std::strlen(kConfigPrefix));
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiRangeProfilerStart(CUpti_RangeProfiler_Start_Params* p) {
    FAKE_RANGE_ENTER("cuptiRangeProfilerStart");
    Object* o = p ? objectOf(p->pRangeProfilerObject) : nullptr;
    if (!o) return CUPTI_ERROR_INVALID_PARAMETER;
    if (o->state != 1 || !o->configured) return CUPTI_ERROR_INVALID_OPERATION;
    o->state = 2;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiRangeProfilerStop(CUpti_RangeProfiler_Stop_Params* p) {
    FAKE_RANGE_ENTER("cuptiRangeProfilerStop");
    Object* o = p ? objectOf(p->pRangeProfilerObject) : nullptr;
    if (!o) return CUPTI_ERROR_INVALID_PARAMETER;
    if (o->state != 2) return CUPTI_ERROR_INVALID_OPERATION;
    o->state = 1;
    if (!o->queue.empty()) { // the launch between Start and Stop: measured
        o->pending = true;
        o->pendingValues = o->queue.front();
        o->queue.pop_front();
    }
    p->passIndex = 0;
    p->targetNestingLevel = 1;
    p->isAllPassSubmitted = o->config.find("replay=2") != std::string::npos ? 1 : 0;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiRangeProfilerDecodeData(CUpti_RangeProfiler_DecodeData_Params* p) {
    FAKE_RANGE_ENTER("cuptiRangeProfilerDecodeData");
    Object* o = p ? objectOf(p->pRangeProfilerObject) : nullptr;
    if (!o) return CUPTI_ERROR_INVALID_PARAMETER;
    if (o->state != 1) return CUPTI_ERROR_INVALID_OPERATION;
    p->numOfRangeDropped = 0;
    ImageHeader* h = header(o->image, o->imageSize);
    if (!h) return CUPTI_ERROR_INVALID_PARAMETER;
    if (o->pending) {
        if (h->count < h->capacity)
            slots(h)[h->count++] = o->pendingValues;
        else
            p->numOfRangeDropped = 1;
        o->pending = false;
    }
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
cuptiRangeProfilerGetCounterDataInfo(CUpti_RangeProfiler_GetCounterDataInfo_Params* p) {
    FAKE_RANGE_ENTER("cuptiRangeProfilerGetCounterDataInfo");
    ImageHeader* h = p ? header(p->pCounterDataImage, p->counterDataImageSize) : nullptr;
    if (!h) return CUPTI_ERROR_INVALID_PARAMETER;
    p->numTotalRanges = h->count;
    return CUPTI_SUCCESS;
}

// ---- test control ------------------------------------------------------------------------------

void fake_cupti_range_queue(uint32_t device, const char* const* metrics, const double* values,
                            size_t count) {
    std::lock_guard lock(st().mutex);
    std::map<std::string, double> v;
    for (size_t i = 0; i < count; ++i) v[metrics[i]] = values[i];
    st().values.push_back(std::move(v));
    st().objects[device].queue.push_back(st().values.size() - 1);
}

void fake_cupti_range_fail(const char* function, CUptiResult result) {
    {
        std::lock_guard lock(st().mutex);
        st().failures[function] = result;
    }
    fake_cupti_pm_fail(function, result); // the calls the two profilers share
}

int fake_cupti_range_calls(const char* function) {
    std::lock_guard lock(st().mutex);
    if (function) return st().calls[function];
    int all = 0;
    for (const auto& [name, n] : st().calls) all += n;
    return all;
}

int fake_cupti_range_state(uint32_t device) {
    std::lock_guard lock(st().mutex);
    return st().objects[device].state;
}

const char* fake_cupti_range_config(uint32_t device) {
    std::lock_guard lock(st().mutex);
    st().text = st().objects[device].config;
    return st().text.c_str();
}

} // extern "C"
