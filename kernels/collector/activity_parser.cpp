#include "activity_parser.h"

#include "io/strata/strata_trace_writer.h"
#include "process_info.h"

#include <cupti.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cxxabi.h>

namespace strata {

namespace {

const char* copyKindName(uint8_t k) {
    switch (k) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
        return "HtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
        return "DtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA:
        return "HtoA";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH:
        return "AtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA:
        return "AtoA";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD:
        return "AtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA:
        return "DtoA";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
        return "DtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
        return "HtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
        return "PtoP";
    default:
        return "Unknown";
    }
}

const char* memoryKindName(uint32_t k) {
    switch (k) {
    case CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE:
        return "Pageable";
    case CUPTI_ACTIVITY_MEMORY_KIND_PINNED:
        return "Pinned";
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE:
        return "Device";
    case CUPTI_ACTIVITY_MEMORY_KIND_ARRAY:
        return "Array";
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED:
        return "Managed";
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC:
        return "Device Static";
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC:
        return "Managed Static";
    default:
        return "Unknown";
    }
}

const char* syncName(uint32_t type) {
    switch (type) {
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE:
        return "Event Sync";
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT:
        return "Stream Wait Event";
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE:
        return "Stream Sync";
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE:
        return "Context Sync";
    default:
        return "Sync";
    }
}

const char* overheadName(uint32_t kind) {
    switch (kind) {
    case CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER:
        return "CUPTI overhead: driver compiler";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH:
        return "CUPTI overhead: buffer flush";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_INSTRUMENTATION:
        return "CUPTI overhead: instrumentation";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_RESOURCE:
        return "CUPTI overhead: resource";
    case CUPTI_ACTIVITY_OVERHEAD_RUNTIME_TRIGGERED_MODULE_LOADING:
        return "CUPTI overhead: module loading";
    case CUPTI_ACTIVITY_OVERHEAD_LAZY_FUNCTION_LOADING:
        return "CUPTI overhead: lazy function loading";
    case CUPTI_ACTIVITY_OVERHEAD_COMMAND_BUFFER_FULL:
        return "CUPTI overhead: command buffer full";
    case CUPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST:
        return "CUPTI overhead: activity buffer request";
    case CUPTI_ACTIVITY_OVERHEAD_UVM_ACTIVITY_INIT:
        return "CUPTI overhead: UVM activity init";
    default:
        return "CUPTI overhead";
    }
}

int64_t orMinusOne(uint64_t v) {
    return v == 0 ? -1 : int64_t(v);
}

// The fields a copy and a peer copy share, as a GPU op on the copy's stream.
template <class Copy> GpuActivity copyActivity(const Copy* m) {
    GpuActivity g;
    g.device = int32_t(m->deviceId);
    g.stream = m->streamId;
    g.context = m->contextId;
    g.bytes = int64_t(m->bytes);
    g.copyKind = m->copyKind;
    g.srcMemory = m->srcKind;
    g.dstMemory = m->dstKind;
    g.graphId = orMinusOne(m->graphId);
    g.graphNodeId = orMinusOne(m->graphNodeId);
    return g;
}

constexpr size_t kRuntimeIdsKept = 1 << 16;

} // namespace

ActivityParser::ActivityParser(StrataTraceWriter& writer, ApiNameTable& names, uint32_t captureMask)
    : w_(writer), names_(names), mask_(captureMask) {}

bool ActivityParser::keep(int64_t t) {
    if (schedule_.captures(t)) return true;
    ++stats_.outsideCapture;
    return false;
}

bool ActivityParser::validRange(uint64_t start, uint64_t end) {
    if (start == 0 || end == 0 || end < start) {
        ++stats_.invalidTimestamps;
        return false;
    }
    return true;
}

void ActivityParser::noteThread(int64_t pid, int64_t tid) {
    if (lastThread_.first == pid && lastThread_.second == tid) return;
    lastThread_ = {pid, tid};
    if (!threads_.insert({pid, tid}).second) return;
    std::string name = threadName(tid);
    if (name.empty()) {
        char buf[48];
        std::snprintf(buf, sizeof buf, "thread %lld", static_cast<long long>(tid));
        name = buf;
    }
    w_.thread(pid, tid, name);
}

uint32_t ActivityParser::apiName(bool runtime, uint32_t cbid) {
    std::vector<uint32_t>& ids = runtime ? runtimeNameIds_ : driverNameIds_;
    if (cbid < 65536) {
        if (cbid >= ids.size()) ids.resize(size_t(cbid) + 1, 0);
        if (ids[cbid] != 0) return ids[cbid];
    }
    const uint32_t id = w_.string(runtime ? names_.runtimeName(cbid) : names_.driverName(cbid));
    if (cbid < ids.size()) ids[cbid] = id;
    return id;
}

uint32_t ActivityParser::kernelName(const char* mangled) {
    if (mangled) {
        auto hit = kernelNameByPointer_.find(mangled);
        if (hit != kernelNameByPointer_.end() && hit->second.first == mangled)
            return hit->second.second;
    }
    const std::string key = mangled ? mangled : "<unnamed kernel>";
    auto remember = [&](uint32_t id) {
        if (mangled && kernelNameByPointer_.size() < 100000)
            kernelNameByPointer_[mangled] = {key, id};
        return id;
    };
    auto it = kernelNames_.find(key);
    if (it != kernelNames_.end()) return remember(it->second);
    uint32_t id = 0;
    int status = -1;
    char* demangled = (key.size() > 2 && key[0] == '_' && key[1] == 'Z')
                          ? abi::__cxa_demangle(key.c_str(), nullptr, nullptr, &status)
                          : nullptr;
    if (demangled && status == 0)
        id = w_.string(demangled);
    else
        id = w_.string(key);
    std::free(demangled);
    kernelNames_.emplace(key, id);
    return remember(id);
}

int32_t ActivityParser::deviceOfContext(uint32_t context) const {
    auto it = contextDevice_.find(context);
    return it == contextDevice_.end() ? -1 : it->second;
}

void ActivityParser::parseBuffer(uint8_t* buffer, size_t validBytes) {
    if (!buffer || validBytes == 0) return;
    CUpti_Activity* record = nullptr;
    for (;;) {
        const CUptiResult r = cuptiActivityGetNextRecord(buffer, validBytes, &record);
        if (r == CUPTI_SUCCESS) {
            handle(record);
            continue;
        }
        if (r != CUPTI_ERROR_MAX_LIMIT_REACHED) ++stats_.incompleteBuffers;
        break;
    }
    endOfBuffer();
}

void ActivityParser::handle(const CUpti_Activity* r) {
    ++stats_.records;
    switch (r->kind) {
    case CUPTI_ACTIVITY_KIND_RUNTIME:
        api(r, true);
        break;
    case CUPTI_ACTIVITY_KIND_DRIVER:
        api(r, false);
        break;
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
        kernel(r);
        break;
    case CUPTI_ACTIVITY_KIND_MEMCPY:
        memcpy(r);
        break;
    case CUPTI_ACTIVITY_KIND_MEMCPY2:
        peerCopy(r);
        break;
    case CUPTI_ACTIVITY_KIND_MEMSET:
        memset(r);
        break;
    case CUPTI_ACTIVITY_KIND_MEMORY2:
        memory(r);
        break;
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
        sync(r);
        break;
    case CUPTI_ACTIVITY_KIND_CUDA_EVENT:
        cudaEvent(r);
        break;
    case CUPTI_ACTIVITY_KIND_MARKER:
        marker(r);
        break;
    case CUPTI_ACTIVITY_KIND_MARKER_DATA:
        markerData(r); // colours (categories and payloads are not kept)
        break;
    case CUPTI_ACTIVITY_KIND_OVERHEAD:
        overhead(r);
        break;
    case CUPTI_ACTIVITY_KIND_DEVICE:
        device(r);
        break;
    case CUPTI_ACTIVITY_KIND_CONTEXT: {
        const auto* c = reinterpret_cast<const CUpti_ActivityContext3*>(r);
        contextDevice_[c->contextId] =
            int32_t(c->deviceId); // for syncs on contexts without kernels
        break;
    }
    default:
        ++stats_.unknownKinds;
        break;
    }
}

void ActivityParser::api(const CUpti_Activity* rec, bool runtime) {
    const auto* a = reinterpret_cast<const CUpti_ActivityAPI*>(rec);
    if (runtime ? names_.runtimeNoisy(a->cbid) : names_.driverNoisy(a->cbid)) {
        ++stats_.filteredApis;
        return;
    }
    if (!validRange(a->start, a->end) || !keep(int64_t(a->start))) return;
    const int64_t pid = a->processId, tid = a->threadId;
    noteThread(pid, tid);
    const uint32_t name = apiName(runtime, a->cbid);
    if (runtime) {
        w_.cpuSlice(pid, tid, int64_t(a->start), int64_t(a->end), name, SliceKind::CudaRuntime,
                    a->correlationId, int32_t(a->returnValue));
        ++stats_.written;
        if (runtimeStarts_.emplace(a->correlationId, int64_t(a->start)).second) {
            if (runtimeIdOrder_.size() < kRuntimeIdsKept) {
                runtimeIdOrder_.push_back(a->correlationId);
            } else {
                const size_t slot = stats_.written % kRuntimeIdsKept;
                runtimeStarts_.erase(runtimeIdOrder_[slot]);
                runtimeIdOrder_[slot] = a->correlationId;
            }
        }
        auto early = gpuBeforeLaunch_.find(a->correlationId);
        if (early != gpuBeforeLaunch_.end()) { // its GPU op came first (another buffer)
            if (early->second < int64_t(a->start)) ++stats_.clockSkew;
            gpuBeforeLaunch_.erase(early);
        }
        return;
    }
    // A driver call made inside a runtime call carries the runtime call's correlation id; the
    // runtime record usually follows in the same buffer. Hold it to the end of the buffer so the
    // GPU op links to one launch, not two.
    pendingDrivers_.push_back(PendingDriver{pid, tid, int64_t(a->start), int64_t(a->end), name,
                                            int64_t(a->correlationId), int32_t(a->returnValue)});
}

void ActivityParser::endOfBuffer() {
    for (const PendingDriver& d : pendingDrivers_) {
        int64_t correlation = d.correlation;
        if (correlation > 0 && runtimeStarts_.count(uint32_t(correlation))) {
            correlation = -1;
            ++stats_.driverLinksMerged;
        }
        w_.cpuSlice(d.pid, d.tid, d.start, d.end, d.name, SliceKind::CudaDriver, correlation,
                    d.ret);
        ++stats_.written;
    }
    pendingDrivers_.clear();
}

void ActivityParser::checkLaunchOrder(uint32_t correlation, int64_t gpuStart) {
    if (correlation == 0) return;
    auto launch = runtimeStarts_.find(correlation);
    if (launch != runtimeStarts_.end()) {
        if (gpuStart < launch->second) ++stats_.clockSkew;
        return;
    }
    if (gpuBeforeLaunch_.size() >= kRuntimeIdsKept) gpuBeforeLaunch_.clear(); // launches never seen
    auto [it, inserted] = gpuBeforeLaunch_.emplace(correlation, gpuStart);
    if (!inserted) it->second = std::min(it->second, gpuStart); // graph launches: many ops
}

void ActivityParser::kernel(const CUpti_Activity* rec) {
    const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(rec);
    contextDevice_[k->contextId] = int32_t(k->deviceId);
    if (!validRange(k->start, k->end) || !keep(int64_t(k->start))) return;
    GpuActivity g;
    g.device = int32_t(k->deviceId);
    g.stream = k->streamId;
    g.context = k->contextId;
    g.grid = {k->gridX, k->gridY, k->gridZ};
    g.block = {k->blockX, k->blockY, k->blockZ};
    g.registersPerThread = k->registersPerThread;
    g.staticSharedBytes = k->staticSharedMemory;
    g.dynamicSharedBytes = k->dynamicSharedMemory;
    g.graphId = orMinusOne(k->graphId);
    g.graphNodeId = orMinusOne(k->graphNodeId);
    launchedOp(k->start, k->end, kernelName(k->name), SliceKind::Kernel, g, k->correlationId);
}

// A kernel or a copy: written on its stream after checking it starts after its launch.
void ActivityParser::launchedOp(uint64_t start, uint64_t end, uint32_t name, SliceKind kind,
                                const GpuActivity& g, uint32_t correlation) {
    checkLaunchOrder(correlation, int64_t(start));
    w_.gpuOp(int64_t(start), int64_t(end), name, kind, g, correlation);
    ++stats_.written;
}

// A copy of either record type, on the stream that runs it: named once per `key`, by
// makeName(text, size).
template <class Copy, class Name>
void ActivityParser::copyOp(const Copy* m, uint64_t key, Name&& makeName) {
    contextDevice_[m->contextId] = int32_t(m->deviceId);
    if (!validRange(m->start, m->end) || !keep(int64_t(m->start))) return;
    auto cached = copyNameIds_.find(key);
    if (cached == copyNameIds_.end()) {
        char text[96];
        makeName(text, sizeof text);
        cached = copyNameIds_.emplace(key, w_.string(text)).first;
    }
    launchedOp(m->start, m->end, cached->second, SliceKind::Memcpy, copyActivity(m),
               m->correlationId);
}

void ActivityParser::memcpy(const CUpti_Activity* rec) {
    const auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(rec);
    copyOp(m, uint64_t(m->copyKind) << 16 | uint64_t(m->srcKind) << 8 | m->dstKind,
           [m](char* text, size_t size) {
               std::snprintf(text, size, "Memcpy %s (%s -> %s)", copyKindName(m->copyKind),
                             memoryKindName(m->srcKind), memoryKindName(m->dstKind));
           });
}

// A copy between two GPUs (cudaMemcpyPeer*, or a copy between devices with peer access); the
// devices are named, as the memory kinds are for other copies.
void ActivityParser::peerCopy(const CUpti_Activity* rec) {
    const auto* m = reinterpret_cast<const CUpti_ActivityMemcpyPtoP4*>(rec);
    copyOp(m, 1ull << 63 | uint64_t(m->srcDeviceId) << 32 | m->dstDeviceId,
           [m](char* text, size_t size) {
               std::snprintf(text, size, "Memcpy PtoP (Device %u -> Device %u)",
                             unsigned(m->srcDeviceId), unsigned(m->dstDeviceId));
           });
}

void ActivityParser::memset(const CUpti_Activity* rec) {
    const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(rec);
    contextDevice_[m->contextId] = int32_t(m->deviceId);
    if (!validRange(m->start, m->end) || !keep(int64_t(m->start))) return;
    char name[64];
    std::snprintf(name, sizeof name, "Memset (%s)", memoryKindName(m->memoryKind));
    GpuActivity g;
    g.device = int32_t(m->deviceId);
    g.stream = m->streamId;
    g.context = m->contextId;
    g.bytes = int64_t(m->bytes);
    g.dstMemory = uint8_t(m->memoryKind);
    g.graphId = orMinusOne(m->graphId);
    g.graphNodeId = orMinusOne(m->graphNodeId);
    w_.gpuOp(int64_t(m->start), int64_t(m->end), w_.string(name), SliceKind::Memset, g,
             m->correlationId);
    ++stats_.written;
}

void ActivityParser::memory(const CUpti_Activity* rec) {
    const auto* m = reinterpret_cast<const CUpti_ActivityMemory4*>(rec);
    if (m->timestamp == 0) {
        ++stats_.invalidTimestamps;
        return;
    }
    // The running total always follows every allocation and free (a window only hides samples).
    double sign = 0;
    if (m->memoryOperationType == CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION) sign = 1;
    if (m->memoryOperationType == CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE) sign = -1;
    if (sign == 0) return;
    const double bytes = sign * double(m->bytes);
    double value = 0;
    char name[80];
    if (m->memoryKind == CUPTI_ACTIVITY_MEMORY_KIND_PINNED) {
        pinnedMemory_ += bytes;
        value = pinnedMemory_;
        std::snprintf(name, sizeof name, "Pinned host memory allocated (bytes)");
    } else {
        double& total = deviceMemory_[int32_t(m->deviceId)];
        total += bytes;
        value = total;
        std::snprintf(name, sizeof name, "GPU %u memory allocated (bytes)", m->deviceId);
    }
    if (!keep(int64_t(m->timestamp))) return;
    w_.counter(m->processId, w_.string(name), int64_t(m->timestamp), value);
    ++stats_.written;
}

void ActivityParser::sync(const CUpti_Activity* rec) {
    const auto* s = reinterpret_cast<const CUpti_ActivitySynchronization2*>(rec);
    if (!validRange(s->start, s->end) || !keep(int64_t(s->start))) return;
    GpuActivity g;
    g.device = deviceOfContext(s->contextId);
    g.context = s->contextId;
    g.stream = s->streamId == CUPTI_SYNCHRONIZATION_INVALID_VALUE ? -1 : int64_t(s->streamId);
    w_.gpuOp(int64_t(s->start), int64_t(s->end), w_.string(syncName(s->type)),
             SliceKind::Synchronization, g, s->correlationId);
    ++stats_.written;
}

void ActivityParser::cudaEvent(const CUpti_Activity* rec) {
    const auto* e = reinterpret_cast<const CUpti_ActivityCudaEvent2*>(rec);
    contextDevice_[e->contextId] = int32_t(e->deviceId);
    if (e->deviceTimestamp == 0) {
        ++stats_.invalidTimestamps;
        return;
    }
    if (!keep(int64_t(e->deviceTimestamp))) return;
    GpuActivity g;
    g.device = int32_t(e->deviceId);
    g.context = e->contextId;
    g.stream = e->streamId;
    w_.gpuOp(int64_t(e->deviceTimestamp), int64_t(e->deviceTimestamp),
             w_.string("CUDA event record"), SliceKind::Instant, g, e->correlationId);
    ++stats_.written;
}

void ActivityParser::emitRange(const OpenMarker& begin, int64_t endTs, int64_t endTid,
                               uint32_t id) {
    if (endTs < begin.ts) {
        ++stats_.invalidTimestamps;
        return;
    }
    if (!keep(begin.ts)) return;
    const uint32_t name = w_.string(begin.name);
    if (begin.color) nameColor(name, begin.color);
    noteThread(begin.pid, begin.tid);
    if (endTid == begin.tid)
        w_.cpuSlice(begin.pid, begin.tid, begin.ts, endTs, name, SliceKind::UserAnnotation, -1, 0);
    else
        w_.asyncSlice(begin.pid, id, begin.ts, endTs, name); // nvtxRangeStart/End across threads
    ++stats_.written;
}

void ActivityParser::marker(const CUpti_Activity* rec) {
    const auto* m = reinterpret_cast<const CUpti_ActivityMarker2*>(rec);
    int64_t pid = 0, tid = 0;
    if (m->objectKind == CUPTI_ACTIVITY_OBJECT_THREAD ||
        m->objectKind == CUPTI_ACTIVITY_OBJECT_PROCESS) {
        pid = m->objectId.pt.processId;
        tid = m->objectId.pt.threadId;
    }
    if (m->timestamp == 0) {
        ++stats_.invalidTimestamps;
        return;
    }
    const int64_t ts = int64_t(m->timestamp);
    if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS) {
        const uint32_t color = takeColor(m->id);
        if (!keep(ts)) return;
        noteThread(pid, tid);
        const uint32_t name = w_.string(m->name ? m->name : "");
        if (color) nameColor(name, color);
        w_.instant(pid, tid, ts, name);
        lastMark_.emplace(m->id, name);
        ++stats_.written;
        return;
    }
    if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_START) {
        OpenMarker open{m->name ? m->name : "", pid, tid, ts, takeColor(m->id)};
        auto early = earlyEnds_.find(m->id);
        if (early != earlyEnds_.end()) { // the end came first (another thread's buffer)
            emitRange(open, early->second.first, early->second.second, m->id);
            earlyEnds_.erase(early);
        } else {
            openMarkers_[m->id] = std::move(open);
        }
        return;
    }
    if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_END) {
        auto it = openMarkers_.find(m->id);
        if (it == openMarkers_.end()) {
            earlyEnds_[m->id] = {ts, tid};
            return;
        }
        emitRange(it->second, ts, tid, m->id);
        openMarkers_.erase(it);
    }
}

void ActivityParser::markerData(const CUpti_Activity* rec) {
    const auto* d = reinterpret_cast<const CUpti_ActivityMarkerData2*>(rec);
    if (!(d->flags & CUPTI_ACTIVITY_FLAG_MARKER_COLOR_ARGB)) return;
    const uint32_t argb = d->color | 0xff000000u; // NVTX colours are opaque: 0 stays "none"
    if (auto open = openMarkers_.find(d->id); open != openMarkers_.end()) {
        open->second.color = argb;
        return;
    }
    if (lastMark_ && lastMark_->first == d->id) {
        nameColor(lastMark_->second, argb);
        return;
    }
    // Its marker has not come yet (or was outside the capture): bounded, colours only.
    if (pendingColors_.size() >= 4096) pendingColors_.clear();
    pendingColors_[d->id] = argb;
}

uint32_t ActivityParser::takeColor(uint32_t markerId) {
    const auto it = pendingColors_.find(markerId);
    if (it == pendingColors_.end()) return 0;
    const uint32_t argb = it->second;
    pendingColors_.erase(it);
    return argb;
}

void ActivityParser::nameColor(uint32_t name, uint32_t argb) {
    auto [it, added] = nameColors_.try_emplace(name, argb);
    if (!added && it->second == argb) return;
    it->second = argb;
    w_.nameColor(name, argb);
}

void ActivityParser::overhead(const CUpti_Activity* rec) {
    const auto* o = reinterpret_cast<const CUpti_ActivityOverhead3*>(rec);
    if (!validRange(o->start, o->end) || !keep(int64_t(o->start))) return;
    int64_t pid = 0, tid = 0;
    if (o->objectKind == CUPTI_ACTIVITY_OBJECT_THREAD ||
        o->objectKind == CUPTI_ACTIVITY_OBJECT_PROCESS) {
        pid = o->objectId.pt.processId;
        tid = o->objectId.pt.threadId;
    }
    noteThread(pid, tid);
    w_.cpuSlice(pid, tid, int64_t(o->start), int64_t(o->end),
                w_.string(overheadName(o->overheadKind)), SliceKind::Overhead, -1, 0);
    ++stats_.written;
}

void ActivityParser::device(const CUpti_Activity* rec) {
    const auto* d = reinterpret_cast<const CUpti_ActivityDevice5*>(rec);
    DeviceInfo info;
    info.id = int32_t(d->id);
    info.name = d->name ? d->name : "";
    info.smCount = int32_t(d->numMultiprocessors);
    info.totalMemoryBytes = int64_t(d->globalMemorySize);
    info.computeMajor = int32_t(d->computeCapabilityMajor);
    info.computeMinor = int32_t(d->computeCapabilityMinor);
    info.clockRateKHz = d->coreClockRate;
    w_.device(info);
    ++stats_.written;
}

void ActivityParser::finish() {
    endOfBuffer();
    stats_.nvtxUnmatched += openMarkers_.size() + earlyEnds_.size();
    openMarkers_.clear();
    earlyEnds_.clear();
    char buf[200];
    auto warn = [&](uint64_t n, const char* what) {
        if (n == 0) return;
        std::snprintf(buf, sizeof buf, "%llu %s", static_cast<unsigned long long>(n), what);
        w_.warning(buf);
    };
    warn(stats_.invalidTimestamps,
         "CUPTI records had invalid timestamps (0, or end before start) and were left out");
    warn(stats_.nvtxUnmatched,
         "NVTX ranges never ended (or ended without a start) and were left out");
    warn(stats_.clockSkew, "GPU operations started before the API call that launched them (CPU/GPU "
                           "clock skew)");
    warn(stats_.unknownKinds, "CUPTI records of kinds Strata does not read were skipped");
    warn(stats_.incompleteBuffers, "CUPTI buffers ended in an invalid or incomplete record");
}

} // namespace strata
