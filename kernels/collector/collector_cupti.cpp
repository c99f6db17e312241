// The collector's CUPTI side (collector_instance.h): subscribing when CUDA (or NVTX) starts, the
// activity kinds it enables and disables, the callbacks it asks for, and what a refusal says.
// The lifecycle around it is collector.cpp's.
#include "collector_callbacks.h"
#include "collector_instance.h"
#include "contract/collector_env.h"
#include "graphs/graph_topology.h"
#include "process/other_tool.h"

#include <cupti.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace strata {

namespace env = collector_env;

std::string cuptiErrorText(CUptiResult r) {
    const char* s = nullptr;
    if (cuptiGetResultString(r, &s) != CUPTI_SUCCESS || !s) s = "unknown CUPTI error";
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s (%d)", s, int(r));
    return buf;
}

namespace {

std::atomic<bool> g_clockRegistered{false};

// The activity kinds the collector enables: group 0 always (device properties, overhead),
// the others with their capture group; those are disabled again when the schedule is over.
struct ActivityKind {
    CUpti_ActivityKind kind;
    uint32_t group;
    const char* name;
};
constexpr ActivityKind kActivityKinds[] = {
    {CUPTI_ACTIVITY_KIND_DEVICE, 0, "DEVICE"},
    {CUPTI_ACTIVITY_KIND_CONTEXT, 0, "CONTEXT"},
    {CUPTI_ACTIVITY_KIND_OVERHEAD, 0, "OVERHEAD"},
    {CUPTI_ACTIVITY_KIND_RUNTIME, kCaptureRuntime, "RUNTIME"},
    {CUPTI_ACTIVITY_KIND_DRIVER, kCaptureDriver, "DRIVER"},
    {CUPTI_ACTIVITY_KIND_MARKER, kCaptureNvtx, "MARKER"},
    {CUPTI_ACTIVITY_KIND_MARKER_DATA, kCaptureNvtx, "MARKER_DATA"}, // colours
    {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, kCaptureKernels, "CONCURRENT_KERNEL"},
    {CUPTI_ACTIVITY_KIND_MEMCPY, kCaptureMemcpy, "MEMCPY"},
    {CUPTI_ACTIVITY_KIND_MEMCPY2, kCaptureMemcpy, "MEMCPY2"}, // peer-to-peer copies
    {CUPTI_ACTIVITY_KIND_MEMSET, kCaptureMemset, "MEMSET"},
    {CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, kCaptureSync, "SYNCHRONIZATION"},
    {CUPTI_ACTIVITY_KIND_CUDA_EVENT, kCaptureSync, "CUDA_EVENT"},
    {CUPTI_ACTIVITY_KIND_MEMORY2, kCaptureMemory, "MEMORY2"},
};

} // namespace

void Collector::reportSubscribeFailure(CUptiResult r, const char* oldName) {
    std::string text = cuptiErrorText(r);
    if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED || r == CUPTI_ERROR_MAX_LIMIT_REACHED)
        text += ": CUPTI is already in use; likely " +
                likelyOtherTool(oldName, reinterpret_cast<const void*>(&collectorStart));
    writer.metadata(env::kMetaCuptiError, text);
    writer.warning("collection disabled: " + text);
    std::fprintf(stderr, "[strata] collection disabled: %s\n", text.c_str());
}

void Collector::enableActivities() {
    std::string enabled;
    for (const ActivityKind& k : kActivityKinds) {
        if (k.group && !(config.capture & k.group)) continue;
        const CUptiResult r = cuptiActivityEnable(k.kind);
        if (r != CUPTI_SUCCESS) {
            writer.warning(std::string("CUPTI activity ") + k.name +
                           " not enabled: " + cuptiErrorText(r));
            continue;
        }
        enabled += (enabled.empty() ? "" : ",") + std::string(k.name);
    }
    writer.metadata("cupti_activities", enabled);
    if (config.capture & kCaptureApi) {
        // Noisy getters: not recorded at the source (the parser also drops any that slip through).
        std::string filtered;
        if (config.capture & kCaptureRuntime)
            for (uint32_t id : names.noisyRuntimeIds()) {
                cuptiActivityEnableRuntimeApi(id, 0);
                filtered += (filtered.empty() ? "" : ",") + names.runtimeName(id);
            }
        if (config.capture & kCaptureDriver)
            for (uint32_t id : names.noisyDriverIds()) {
                cuptiActivityEnableDriverApi(id, 0);
                filtered += (filtered.empty() ? "" : ",") + names.driverName(id);
            }
        writer.metadata("filtered_apis", filtered);
    }
    if (config.capture & kCaptureSync) cuptiActivityEnableCudaEventDeviceTimestamps(1);
}

bool Collector::startCupti() {
    // One clock for every record, registered once per process (re-registering corrupts
    // timestamps, pytorch#192021) and before any activity kind is enabled.
    if (!g_clockRegistered.exchange(true)) {
        const CUptiResult r = cuptiActivityRegisterTimestampCallback(clockNs);
        if (r != CUPTI_SUCCESS) {
            writer.warning("CUPTI timestamp callback not registered (" + cuptiErrorText(r) +
                           "): GPU times are on CUPTI's default clock");
            writer.metadata("clock", "CUPTI default (CLOCK_REALTIME)");
        }
    }
    cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM);

    char oldName[CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN * 2] = {};
    CUpti_SubscriberParams params{};
    params.structSize = CUpti_SubscriberParams_STRUCT_SIZE;
    params.subscriberName = "Strata";
    params.oldSubscriberName = oldName;
    params.oldSubscriberSize = sizeof oldName;
    const CUptiResult sub = cuptiSubscribe_v2(&subscriber, subscriberCallback, nullptr, &params);
    if (sub != CUPTI_SUCCESS) {
        reportSubscribeFailure(sub, oldName);
        return false;
    }

    pool.configure(config.bufferBytes, config.bufferCount, config.bufferPreallocate);
    names.build();
    {
        std::lock_guard p(parserMutex);
        parser = new ActivityParser(writer, names, config.capture);
    }
    const CUptiResult reg = cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted);
    if (reg != CUPTI_SUCCESS) {
        reportSubscribeFailure(reg, nullptr);
        cuptiUnsubscribe(subscriber);
        return false;
    }
    const bool needNvtxCallbacks = config.schedule.scheduleEnabled() || config.schedule.nvtxRange();
    if (needNvtxCallbacks) {
        const CUptiResult r = cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_NVTX);
        if (r != CUPTI_SUCCESS)
            writer.warning("NVTX callbacks unavailable (" + cuptiErrorText(r) +
                           "): the schedule and capture range cannot see steps");
    }
    cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API,
                        CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020);
    if (config.schedule.profilerApiRange()) {
        // The runtime's calls go through the driver's: both are seen, the driver's are enough
        // for programs that call the driver API alone.
        cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API,
                            CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000);
        cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API,
                            CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000);
        cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API,
                            CUPTI_DRIVER_TRACE_CBID_cuProfilerStart);
        cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API,
                            CUPTI_DRIVER_TRACE_CBID_cuProfilerStop);
    }
    cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                        CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
    graphs::enableGraphTopology(subscriber, writer); // two callbacks per instantiation
    cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_STATE, CUPTI_CBID_STATE_FATAL_ERROR);
    startGpuMetrics();    // --gpu-metrics only: the context callback that starts PM sampling
    startKernelMetrics(); // --kernel-metrics only: the launch callbacks that measure kernels
    enableActivities();
    cuptiStarted = true;
    if (config.waitForAttach && !attachCapturing.load()) disableCaptureActivities();
    if (apiCallStack) enableApiCallStacks();
    if (!std::getenv(env::kNvtxInjection) && (config.capture & kCaptureNvtx))
        writer.metadata("nvtx", "not captured: NVTX_INJECTION64_PATH is not set");

    char buf[64];
    std::snprintf(buf, sizeof buf, "%zu x %zu bytes", config.bufferCount, config.bufferBytes);
    writer.metadata("cupti_buffers", buf);
    writer.flush();
    return true;
}

void Collector::enableApiCallStacks() {
    if (!cuptiStarted || !stackedRuntime.empty()) return;
    // Where work reaches the GPU or the program waits for it.
    auto stacked = [](const std::string& n) {
        for (const char* part : {"Launch", "Memcpy", "Memset", "Synchronize"})
            if (n.find(part) != std::string::npos) return true;
        return false;
    };
    stackedRuntime.assign(CUPTI_RUNTIME_TRACE_CBID_SIZE, false);
    stackedDriver.assign(CUPTI_DRIVER_TRACE_CBID_SIZE, false);
    for (uint32_t id = 0; id < CUPTI_RUNTIME_TRACE_CBID_SIZE; ++id)
        if (!names.runtimeNoisy(id) && stacked(names.runtimeName(id))) {
            stackedRuntime[id] = true;
            cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, id);
        }
    for (uint32_t id = 0; id < CUPTI_DRIVER_TRACE_CBID_SIZE; ++id)
        if (!names.driverNoisy(id) && stacked(names.driverName(id))) {
            stackedDriver[id] = true;
            cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id);
        }
}

void Collector::enableCaptureActivities() {
    if (!cuptiStarted) return;
    for (const ActivityKind& k : kActivityKinds)
        if (k.group && (config.capture & k.group)) cuptiActivityEnable(k.kind);
}

void Collector::disableCaptureActivities() {
    if (!cuptiStarted) return;
    for (const ActivityKind& k : kActivityKinds)
        if (k.group) cuptiActivityDisable(k.kind);
}

} // namespace strata
