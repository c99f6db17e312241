#pragma once
// The harness's driver side: records fed to the collector through the stand-in CUPTI, NVTX
// callbacks, the clock, and what it prints (key=value lines).
#include "fake_cupti_control.h"

#include <cupti.h>
#include <generated_nvtx_meta.h>
#include <strata/sections_host.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern "C" int InitializeInjection(void);
extern "C" int InitializeInjectionNvtx2(void*);
extern "C" int strata_collector_state(void);
extern "C" int strata_collector_flush(void);

inline uint32_t tid() {
    return uint32_t(syscall(SYS_gettid));
}

template <class T> inline T zeroed(CUpti_ActivityKind kind) {
    T r;
    std::memset(&r, 0, sizeof r);
    r.kind = kind;
    return r;
}

template <class T> inline void feed(const T& r) {
    fake_cupti_feed(&r, sizeof r);
}

inline void api(bool runtime, CUpti_CallbackId cbid, uint64_t start, uint64_t end, uint32_t corr,
                uint32_t ret = 0, uint32_t thread = 0) {
    auto r = zeroed<CUpti_ActivityAPI>(runtime ? CUPTI_ACTIVITY_KIND_RUNTIME
                                               : CUPTI_ACTIVITY_KIND_DRIVER);
    r.cbid = cbid;
    r.start = start;
    r.end = end;
    r.processId = uint32_t(getpid());
    r.threadId = thread ? thread : tid();
    r.correlationId = corr;
    r.returnValue = ret;
    feed(r);
}

inline void kernel(const char* name, uint64_t start, uint64_t end, uint32_t corr,
                   uint32_t stream = 7) {
    auto k = zeroed<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    k.name = name;
    k.start = start;
    k.end = end;
    k.deviceId = 0;
    k.contextId = 1;
    k.streamId = stream;
    k.gridX = 4;
    k.gridY = 2;
    k.gridZ = 1;
    k.blockX = 256;
    k.blockY = 1;
    k.blockZ = 1;
    k.registersPerThread = 32;
    k.staticSharedMemory = 1024;
    k.dynamicSharedMemory = 2048;
    k.correlationId = corr;
    feed(k);
}

inline void memcpy6(uint8_t copyKind, uint8_t src, uint8_t dst, uint64_t bytes, uint64_t start,
                    uint64_t end, uint32_t corr) {
    auto m = zeroed<CUpti_ActivityMemcpy6>(CUPTI_ACTIVITY_KIND_MEMCPY);
    m.copyKind = copyKind;
    m.srcKind = src;
    m.dstKind = dst;
    m.bytes = bytes;
    m.start = start;
    m.end = end;
    m.deviceId = 0;
    m.contextId = 1;
    m.streamId = 7;
    m.correlationId = corr;
    feed(m);
}

inline void memory(bool alloc, uint64_t bytes, uint64_t ts) {
    auto m = zeroed<CUpti_ActivityMemory4>(CUPTI_ACTIVITY_KIND_MEMORY2);
    m.memoryOperationType = alloc ? CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION
                                  : CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE;
    m.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
    m.bytes = bytes;
    m.timestamp = ts;
    m.processId = uint32_t(getpid());
    m.deviceId = 0;
    m.contextId = 1;
    feed(m);
}

inline void marker(uint32_t flags, uint32_t id, uint64_t ts, const char* name, uint32_t thread) {
    auto m = zeroed<CUpti_ActivityMarker2>(CUPTI_ACTIVITY_KIND_MARKER);
    m.flags = CUpti_ActivityFlag(flags);
    m.id = id;
    m.timestamp = ts;
    m.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
    m.objectId.pt.processId = uint32_t(getpid());
    m.objectId.pt.threadId = thread;
    m.name = name;
    feed(m);
}

// The event attributes of marker `id`: a colour when `argb` is not 0.
inline void markerData(uint32_t id, uint32_t argb) {
    auto d = zeroed<CUpti_ActivityMarkerData2>(CUPTI_ACTIVITY_KIND_MARKER_DATA);
    d.flags = CUpti_ActivityFlag(argb ? CUPTI_ACTIVITY_FLAG_MARKER_COLOR_ARGB
                                      : CUPTI_ACTIVITY_FLAG_MARKER_COLOR_NONE);
    d.id = id;
    d.color = argb;
    feed(d);
}

inline void device() {
    auto d = zeroed<CUpti_ActivityDevice5>(CUPTI_ACTIVITY_KIND_DEVICE);
    d.id = 0;
    d.name = "NVIDIA H100 80GB HBM3";
    d.numMultiprocessors = 132;
    d.coreClockRate = 1980000;
    d.globalMemorySize = 85899345920ull;
    d.computeCapabilityMajor = 9;
    d.computeCapabilityMinor = 0;
    feed(d);
}

// The records of the "basic" scenario (values repeated in tst_collector.cpp).
inline void observations() {
    std::printf("state=%d\n", strata_collector_state());
    std::printf("timestamp_registrations=%d\n", fake_cupti_timestamp_registrations());
    std::printf("subscribe_calls=%d\n", fake_cupti_subscribe_calls());
    std::printf("kernel_enabled=%d\n",
                fake_cupti_activity_enabled(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
    std::printf("serial_kernel_enabled=%d\n",
                fake_cupti_activity_enabled(CUPTI_ACTIVITY_KIND_KERNEL));
    std::printf("runtime_enabled=%d\n", fake_cupti_activity_enabled(CUPTI_ACTIVITY_KIND_RUNTIME));
    std::printf("memcpy_enabled=%d\n", fake_cupti_activity_enabled(CUPTI_ACTIVITY_KIND_MEMCPY));
    std::printf("peer_copy_enabled=%d\n", fake_cupti_activity_enabled(CUPTI_ACTIVITY_KIND_MEMCPY2));
    std::printf("marker_enabled=%d\n", fake_cupti_activity_enabled(CUPTI_ACTIVITY_KIND_MARKER));
    std::printf("memory2_enabled=%d\n", fake_cupti_activity_enabled(CUPTI_ACTIVITY_KIND_MEMORY2));
    std::printf("cudaGetDevice_enabled=%d\n",
                fake_cupti_runtime_api_enabled(CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020));
    std::printf("cudaLaunchKernel_enabled=%d\n",
                fake_cupti_runtime_api_enabled(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000));
    std::printf("cuCtxGetCurrent_enabled=%d\n",
                fake_cupti_driver_api_enabled(CUPTI_DRIVER_TRACE_CBID_cuCtxGetCurrent));
    std::printf("nvtx_domain_enabled=%d\n", fake_cupti_domain_enabled(CUPTI_CB_DOMAIN_NVTX));
    std::printf("thread_id_type=%d\n", fake_cupti_thread_id_type());
    std::fflush(stdout);
}

inline void nvtxCallback(CUpti_CallbackId cbid, const void* params, const void* ret = nullptr) {
    CUpti_NvtxData d{"nvtx", params, ret};
    fake_cupti_invoke_callback(CUPTI_CB_DOMAIN_NVTX, cbid, &d);
}
inline void push(const char* name) {
    nvtxRangePushA_params p{name};
    nvtxCallback(CUPTI_CBID_NVTX_nvtxRangePushA, &p);
}
inline void pop() {
    static const int none = 0;
    nvtxCallback(CUPTI_CBID_NVTX_nvtxRangePop, &none);
}

// Distinct, increasing clock readings (the collector's own clock, through the fake).
inline uint64_t tick() {
    const uint64_t a = fake_cupti_now();
    uint64_t b = a;
    while (b <= a + 1000) b = fake_cupti_now();
    return b;
}
