#include "collector_callbacks.h"

#include "activities/nvtx_events.h"
#include "collector_instance.h"
#include "gpu_metrics/gpu_metrics.h"
#include "graphs/graph_topology.h"
#include "kernel_metrics/kernel_metrics.h"
#include "section_handover.h"

#include <mutex>
#include <string>
#include <unistd.h>
#include <vector>

namespace strata {

namespace {

thread_local std::vector<std::string> t_nvtxStack; // push/pop names, this thread

// NVTX ranges and marks, for the capture schedule's steps and the capture range.
void onNvtx(Collector& c, CUpti_CallbackId cbid, const CUpti_NvtxData* d) {
    const NvtxEvent e = decodeNvtxCallback(cbid, d);
    if (e.kind == NvtxEvent::None) return;
    const int64_t now = int64_t(clockNs());
    const char* name = e.name ? e.name : "";
    std::lock_guard lock(c.scheduleMutex);
    switch (e.kind) {
    case NvtxEvent::Push:
        t_nvtxStack.emplace_back(name);
        c.schedule.onRangeBegin(name, now);
        break;
    case NvtxEvent::Pop:
        if (!t_nvtxStack.empty()) {
            c.schedule.onRangeEnd(t_nvtxStack.back(), now);
            t_nvtxStack.pop_back();
        }
        break;
    case NvtxEvent::Mark:
        c.schedule.onMark(name, now);
        break;
    case NvtxEvent::Start:
        c.nvtxRangeNames[e.id] = name;
        c.schedule.onRangeBegin(name, now);
        break;
    case NvtxEvent::End: {
        auto it = c.nvtxRangeNames.find(e.id);
        if (it != c.nvtxRangeNames.end()) {
            c.schedule.onRangeEnd(it->second, now);
            c.nvtxRangeNames.erase(it);
        }
        break;
    }
    case NvtxEvent::None:
        break;
    }
}

// cudaProfilerStart/Stop (or the driver's cuProfilerStart/Stop): a capture range opens when a
// start returns and closes when a stop is called, so the calls themselves stay outside.
bool onProfilerApi(Collector& c, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                   const void* data) {
    const bool runtime = domain == CUPTI_CB_DOMAIN_RUNTIME_API,
               driver = domain == CUPTI_CB_DOMAIN_DRIVER_API;
    const bool start = (runtime && cbid == CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000) ||
                       (driver && cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStart);
    const bool stop = (runtime && cbid == CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000) ||
                      (driver && cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStop);
    if (!start && !stop) return false;
    const auto* info = static_cast<const CUpti_CallbackData*>(data);
    if (!info) return true;
    const int64_t now = int64_t(clockNs());
    std::lock_guard lock(c.scheduleMutex);
    if (start && info->callbackSite == CUPTI_API_EXIT) c.schedule.onProfilerStart(now);
    if (stop && info->callbackSite == CUPTI_API_ENTER) c.schedule.onProfilerStop(now);
    return true;
}

} // namespace

void CUPTIAPI bufferRequested(uint8_t** buffer, size_t* size, size_t* maxNumRecords) {
    *buffer = nullptr;
    *size = 0;
    *maxNumRecords = 0;
    if (!recording()) return;
    *buffer = g_collector->pool.acquire(); // nullptr when exhausted: CUPTI drops and counts
    *size = *buffer ? g_collector->pool.bufferBytes() : 0;
}

void CUPTIAPI bufferCompleted(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t validSize) {
    Collector* c = g_collector;
    if (!c || c->owner != getpid() || c->state.load() == CollectorState::ForkedChild) return;
    {
        std::lock_guard lock(c->parserMutex);
        if (c->parser) {
            {
                std::lock_guard s(c->scheduleMutex);
                c->parser->setSchedule(c->schedule);
            }
            c->parser->parseBuffer(buffer, validSize);
        }
    }
    c->pool.release(buffer);
}

void CUPTIAPI subscriberCallback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                 const void* data) {
    if (!recording()) return;
    Collector& c = *g_collector;
    if (domain == CUPTI_CB_DOMAIN_NVTX) {
        onNvtx(c, cbid, static_cast<const CUpti_NvtxData*>(data));
        return;
    }
    if (onProfilerApi(c, domain, cbid, data)) return;
    if (graphs::isGraphTopologyCallback(domain, cbid)) {
        graphs::onGraphResource(c.writer, cbid, static_cast<const CUpti_ResourceData*>(data));
        return;
    }
    if (c.apiCallStack && data &&
        static_cast<const CUpti_CallbackData*>(data)->callbackSite == CUPTI_API_ENTER &&
        ((domain == CUPTI_CB_DOMAIN_RUNTIME_API && cbid < c.stackedRuntime.size() &&
          c.stackedRuntime[cbid]) ||
         (domain == CUPTI_CB_DOMAIN_DRIVER_API && cbid < c.stackedDriver.size() &&
          c.stackedDriver[cbid])))
        c.apiCallStack(); // the Python stack this call came from
    if (onLaunchApi(c, domain, cbid, data)) return;
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API &&
        cbid == CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020) {
        const auto* info = static_cast<const CUpti_CallbackData*>(data);
        // The device's records go away with it: take them now.
        if (info && info->callbackSite == CUPTI_API_ENTER)
            cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    } else if (domain == CUPTI_CB_DOMAIN_RESOURCE && cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED) {
        // Enabled with --gpu-metrics only: PM sampling starts on the context's device.
        const auto* r = static_cast<const CUpti_ResourceData*>(data);
        if (c.gpuMetrics && r) c.gpuMetrics->onContextCreated(r->context);
    } else if (domain == CUPTI_CB_DOMAIN_RESOURCE &&
               cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
        // The runtime may tear its context down (its own atexit) before ours runs: the device's
        // metric samples and CUPTI's buffers are taken now, its range profiler disabled.
        const auto* r = static_cast<const CUpti_ResourceData*>(data);
        if (c.gpuMetrics && r) c.gpuMetrics->onContextDestroying(r->context);
        if (c.kernelMetrics && r) c.kernelMetrics->onContextDestroying(r->context);
        cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    } else if (domain == CUPTI_CB_DOMAIN_STATE && cbid == CUPTI_CBID_STATE_FATAL_ERROR) {
        const auto* s = static_cast<const CUpti_StateData*>(data);
        std::string text = "CUPTI stopped profiling after a fatal error";
        if (s && s->notification.message) text += std::string(": ") + s->notification.message;
        c.writer.warning(text);
    }
}

} // namespace strata
