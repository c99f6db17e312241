// libfake_cupti.so: the subset of CUPTI the Strata collector calls, implemented over plain memory
// so the collector's real code runs in tests without a GPU or a driver. Types come from the real
// CUDA 13 CUPTI headers; the test-control API is in fake_cupti_control.h.
#include "fake_cupti_control.h"

#include <cupti.h>
#include <generated_nvtx_meta.h>

#include <array>
#include <atomic>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mutex>
#include <set>
#include <string>

namespace {

struct State {
    std::recursive_mutex mutex;
    CUpti_CallbackFunc callback = nullptr;
    void* userdata = nullptr;
    bool subscribed = false;
    CUptiResult failSubscribe = CUPTI_SUCCESS;
    std::string oldSubscriber;
    std::array<bool, 64> domains{};
    std::set<std::pair<int, int>> callbacks; // (domain, cbid)
    std::array<bool, 128> kinds{};
    std::set<CUpti_CallbackId> runtimeOff, driverOff;
    CUpti_BuffersCallbackRequestFunc request = nullptr;
    CUpti_BuffersCallbackCompleteFunc complete = nullptr;
    CUpti_TimestampCallbackFunc clock = nullptr;
    int clockRegistrations = 0;
    int subscribeCalls = 0;
    int flushCalls = 0, forcedFlushCalls = 0;
    int requested = 0, completed = 0;
    int nvtxInits = 0;
    int threadIdType = 0;
    size_t dropped = 0;
    uint8_t* buffer = nullptr;
    size_t bufferSize = 0, used = 0;
    std::atomic<int64_t> timestampOffset{0}; // cuptiGetTimestamp's, from the collector's clock
};

State& st() {
    static State* s = new State; // never destroyed: atexit handlers may still call in
    return *s;
}

size_t recordSize(CUpti_ActivityKind kind) {
    switch (kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
    case CUPTI_ACTIVITY_KIND_KERNEL:
        return sizeof(CUpti_ActivityKernel10);
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER:
        return sizeof(CUpti_ActivityAPI);
    case CUPTI_ACTIVITY_KIND_MEMCPY:
        return sizeof(CUpti_ActivityMemcpy6);
    case CUPTI_ACTIVITY_KIND_MEMCPY2:
        return sizeof(CUpti_ActivityMemcpyPtoP4);
    case CUPTI_ACTIVITY_KIND_MEMSET:
        return sizeof(CUpti_ActivityMemset4);
    case CUPTI_ACTIVITY_KIND_MEMORY2:
        return sizeof(CUpti_ActivityMemory4);
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
        return sizeof(CUpti_ActivitySynchronization2);
    case CUPTI_ACTIVITY_KIND_MARKER:
        return sizeof(CUpti_ActivityMarker2);
    case CUPTI_ACTIVITY_KIND_MARKER_DATA:
        return sizeof(CUpti_ActivityMarkerData2);
    case CUPTI_ACTIVITY_KIND_OVERHEAD:
        return sizeof(CUpti_ActivityOverhead3);
    case CUPTI_ACTIVITY_KIND_DEVICE:
        return sizeof(CUpti_ActivityDevice5);
    case CUPTI_ACTIVITY_KIND_CONTEXT:
        return sizeof(CUpti_ActivityContext3);
    case CUPTI_ACTIVITY_KIND_CUDA_EVENT:
        return sizeof(CUpti_ActivityCudaEvent2);
    case CUPTI_ACTIVITY_KIND_NAME:
        return sizeof(CUpti_ActivityName);
    case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION:
        return sizeof(CUpti_ActivityExternalCorrelation);
    default:
        return 0;
    }
}

size_t align8(size_t n) {
    return (n + 7) & ~size_t(7);
}

void completeLocked(State& s) {
    if (!s.buffer) return;
    uint8_t* b = s.buffer;
    const size_t used = s.used, size = s.bufferSize;
    s.buffer = nullptr;
    s.used = s.bufferSize = 0;
    ++s.completed;
    if (s.complete) s.complete(nullptr, 0, b, size, used);
}

uint64_t monotonicRaw() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}

struct CbName {
    int domain;
    CUpti_CallbackId cbid;
    const char* name;
};
#define RT(n)                                                                                      \
    { CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_##n, #n }
#define DRV(n)                                                                                     \
    { CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_##n, #n }
// Names as real CUPTI returns them (with the API version suffix).
const CbName kNames[] = {
    RT(cudaLaunchKernel_v7000),
    RT(cudaMemcpy_v3020),
    RT(cudaMemcpyAsync_v3020),
    RT(cudaMemcpyPeerAsync_v4000),
    RT(cudaGetDevice_v3020),
    RT(cudaGetLastError_v3020),
    RT(cudaPeekAtLastError_v3020),
    RT(cudaGetDeviceCount_v3020),
    RT(cudaDeviceSynchronize_v3020),
    RT(cudaStreamSynchronize_v3020),
    RT(cudaEventRecord_v3020),
    RT(cudaMalloc_v3020),
    RT(cudaFree_v3020),
    RT(cudaDeviceReset_v3020),
    RT(cudaStreamWaitEvent_v3020),
    RT(cudaGraphLaunch_v10000),
    RT(cudaMemsetAsync_v3020),
    RT(cudaSetDevice_v3020),
    DRV(cuLaunchKernel),
    DRV(cuCtxGetCurrent),
    DRV(cuDevicePrimaryCtxGetState),
    DRV(cuKernelGetAttribute),
    DRV(cuPointerGetAttribute),
    DRV(cuCtxGetDevice),
    DRV(cuDeviceGetAttribute),
    DRV(cuMemcpyHtoD_v2),
    DRV(cuCtxSynchronize),
};
#undef RT
#undef DRV

} // namespace

extern "C" {

// ---- CUPTI API subset -----------------------------------------------------------------------

CUptiResult CUPTIAPI cuptiGetVersion(uint32_t* version) {
    if (!version) return CUPTI_ERROR_INVALID_PARAMETER;
    *version = CUPTI_API_VERSION;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiSubscribe_v2(CUpti_SubscriberHandle* subscriber,
                                       CUpti_CallbackFunc callback, void* userdata,
                                       CUpti_SubscriberParams* params) {
    State& s = st();
    std::lock_guard lock(s.mutex);
    ++s.subscribeCalls;
    if (s.failSubscribe != CUPTI_SUCCESS) {
        if (params && params->oldSubscriberName && params->oldSubscriberSize > 0)
            snprintf(params->oldSubscriberName, params->oldSubscriberSize, "%s",
                     s.oldSubscriber.c_str());
        return s.failSubscribe;
    }
    if (s.subscribed) return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    s.subscribed = true;
    s.callback = callback;
    s.userdata = userdata;
    *subscriber = reinterpret_cast<CUpti_SubscriberHandle>(&s);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiSubscribe(CUpti_SubscriberHandle* subscriber, CUpti_CallbackFunc callback,
                                    void* userdata) {
    return cuptiSubscribe_v2(subscriber, callback, userdata, nullptr);
}

CUptiResult CUPTIAPI cuptiUnsubscribe(CUpti_SubscriberHandle) {
    State& s = st();
    std::lock_guard lock(s.mutex);
    s.subscribed = false;
    s.callback = nullptr;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiEnableDomain(uint32_t enable, CUpti_SubscriberHandle,
                                       CUpti_CallbackDomain domain) {
    State& s = st();
    std::lock_guard lock(s.mutex);
    if (unsigned(domain) >= s.domains.size()) return CUPTI_ERROR_INVALID_PARAMETER;
    s.domains[domain] = enable != 0;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiEnableCallback(uint32_t enable, CUpti_SubscriberHandle,
                                         CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
    State& s = st();
    std::lock_guard lock(s.mutex);
    if (enable)
        s.callbacks.insert({int(domain), int(cbid)});
    else
        s.callbacks.erase({int(domain), int(cbid)});
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetCallbackName(CUpti_CallbackDomain domain, uint32_t cbid,
                                          const char** name) {
    if (!name) return CUPTI_ERROR_INVALID_PARAMETER;
    for (const CbName& n : kNames) {
        if (n.domain == int(domain) && n.cbid == cbid) {
            *name = n.name;
            return CUPTI_SUCCESS;
        }
    }
    return CUPTI_ERROR_INVALID_PARAMETER;
}

CUptiResult CUPTIAPI cuptiActivityEnable(CUpti_ActivityKind kind) {
    State& s = st();
    std::lock_guard lock(s.mutex);
    if (unsigned(kind) >= s.kinds.size()) return CUPTI_ERROR_INVALID_KIND;
    s.kinds[kind] = true;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityDisable(CUpti_ActivityKind kind) {
    State& s = st();
    std::lock_guard lock(s.mutex);
    if (unsigned(kind) >= s.kinds.size()) return CUPTI_ERROR_INVALID_KIND;
    s.kinds[kind] = false;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityEnableRuntimeApi(CUpti_CallbackId cbid, uint8_t enable) {
    State& s = st();
    std::lock_guard lock(s.mutex);
    if (enable)
        s.runtimeOff.erase(cbid);
    else
        s.runtimeOff.insert(cbid);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityEnableDriverApi(CUpti_CallbackId cbid, uint8_t enable) {
    State& s = st();
    std::lock_guard lock(s.mutex);
    if (enable)
        s.driverOff.erase(cbid);
    else
        s.driverOff.insert(cbid);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiSetThreadIdType(CUpti_ActivityThreadIdType type) {
    st().threadIdType = int(type);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityEnableCudaEventDeviceTimestamps(uint8_t) {
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivitySetAttribute(CUpti_ActivityAttribute, size_t*, void*) {
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc request,
                                                    CUpti_BuffersCallbackCompleteFunc complete) {
    State& s = st();
    std::lock_guard lock(s.mutex);
    if (!request || !complete) return CUPTI_ERROR_INVALID_PARAMETER;
    s.request = request;
    s.complete = complete;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityRegisterTimestampCallback(CUpti_TimestampCallbackFunc func) {
    State& s = st();
    std::lock_guard lock(s.mutex);
    s.clock = func;
    ++s.clockRegistrations;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetTimestamp(uint64_t* timestamp) {
    if (!timestamp) return CUPTI_ERROR_INVALID_PARAMETER;
    *timestamp = fake_cupti_now() + uint64_t(st().timestampOffset.load());
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityGetNextRecord(uint8_t* buffer, size_t validBufferSizeBytes,
                                                CUpti_Activity** record) {
    if (!buffer || !record) return CUPTI_ERROR_INVALID_PARAMETER;
    size_t offset = 0;
    if (*record) {
        const auto* cur = reinterpret_cast<const uint8_t*>(*record);
        const size_t size = recordSize((*record)->kind);
        if (size == 0) return CUPTI_ERROR_INVALID_KIND;
        offset = size_t(cur - buffer) + align8(size);
    }
    if (offset + sizeof(CUpti_Activity) > validBufferSizeBytes)
        return CUPTI_ERROR_MAX_LIMIT_REACHED;
    auto* next = reinterpret_cast<CUpti_Activity*>(buffer + offset);
    const size_t size = recordSize(next->kind);
    if (size == 0 || offset + size > validBufferSizeBytes) return CUPTI_ERROR_INVALID_KIND;
    *record = next;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityFlushAll(uint32_t flag) {
    State& s = st();
    std::lock_guard lock(s.mutex);
    ++s.flushCalls;
    if (flag & CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) ++s.forcedFlushCalls;
    completeLocked(s);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityGetNumDroppedRecords(CUcontext, uint32_t, size_t* dropped) {
    State& s = st();
    std::lock_guard lock(s.mutex);
    if (!dropped) return CUPTI_ERROR_INVALID_PARAMETER;
    *dropped = s.dropped;
    s.dropped = 0;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiFinalize(void) {
    return CUPTI_SUCCESS;
}

// NVTX injection entry point (the real libcupti exports it; the collector forwards to it).
int InitializeInjectionNvtx2(void*) {
    ++st().nvtxInits;
    return 1;
}

// ---- test control ---------------------------------------------------------------------------

void fake_cupti_fail_subscribe(CUptiResult result, const char* oldSubscriber) {
    State& s = st();
    std::lock_guard lock(s.mutex);
    s.failSubscribe = result;
    s.oldSubscriber = oldSubscriber ? oldSubscriber : "";
}

int fake_cupti_feed(const void* record, size_t size) {
    State& s = st();
    std::lock_guard lock(s.mutex);
    if (s.buffer && s.used + align8(size) > s.bufferSize) completeLocked(s);
    if (!s.buffer) {
        if (!s.request) return 0;
        uint8_t* b = nullptr;
        size_t bsize = 0, maxRecords = 0;
        s.request(&b, &bsize, &maxRecords);
        ++s.requested;
        if (!b || bsize < align8(size)) {
            ++s.dropped; // declined: CUPTI counts the record as dropped
            return 0;
        }
        s.buffer = b;
        s.bufferSize = bsize;
        s.used = 0;
    }
    std::memcpy(s.buffer + s.used, record, size);
    s.used += align8(size);
    return 1;
}

void fake_cupti_complete(void) {
    State& s = st();
    std::lock_guard lock(s.mutex);
    completeLocked(s);
}

void fake_cupti_raise_while_locked(int sig) {
    State& s = st();
    std::lock_guard lock(s.mutex);
    raise(sig);
}

void fake_cupti_add_dropped(size_t n) {
    State& s = st();
    std::lock_guard lock(s.mutex);
    s.dropped += n;
}

int fake_cupti_invoke_callback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                               const void* cbdata) {
    State& s = st();
    CUpti_CallbackFunc cb = nullptr;
    void* user = nullptr;
    {
        std::lock_guard lock(s.mutex);
        if (!s.subscribed || !s.callback) return 0;
        const bool on = (unsigned(domain) < s.domains.size() && s.domains[domain]) ||
                        s.callbacks.count({int(domain), int(cbid)});
        if (!on) return 0;
        cb = s.callback;
        user = s.userdata;
    }
    cb(user, domain, cbid, cbdata); // outside the lock, as CUPTI calls on the API's thread
    return 1;
}

uint64_t fake_cupti_now(void) {
    CUpti_TimestampCallbackFunc clock = st().clock;
    return clock ? clock() : monotonicRaw();
}

void fake_cupti_set_timestamp_offset(int64_t offsetNs) {
    st().timestampOffset.store(offsetNs);
}

int fake_cupti_callback_enabled(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
    State& s = st();
    std::lock_guard lock(s.mutex);
    return s.callbacks.count({int(domain), int(cbid)}) ? 1 : 0;
}

int fake_cupti_activity_enabled(CUpti_ActivityKind kind) {
    return unsigned(kind) < st().kinds.size() && st().kinds[kind];
}
int fake_cupti_runtime_api_enabled(CUpti_CallbackId cbid) {
    return st().runtimeOff.count(cbid) == 0;
}
int fake_cupti_driver_api_enabled(CUpti_CallbackId cbid) {
    return st().driverOff.count(cbid) == 0;
}
int fake_cupti_domain_enabled(CUpti_CallbackDomain domain) {
    return unsigned(domain) < st().domains.size() && st().domains[domain];
}
int fake_cupti_timestamp_registrations(void) {
    return st().clockRegistrations;
}
int fake_cupti_subscribe_calls(void) {
    return st().subscribeCalls;
}
int fake_cupti_flush_calls(int forcedOnly) {
    return forcedOnly ? st().forcedFlushCalls : st().flushCalls;
}
int fake_cupti_buffers_requested(void) {
    return st().requested;
}
int fake_cupti_buffers_completed(void) {
    return st().completed;
}
int fake_cupti_nvtx_initializations(void) {
    return st().nvtxInits;
}
int fake_cupti_thread_id_type(void) {
    return st().threadIdType;
}

} // extern "C"
