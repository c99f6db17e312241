// ActivityParser: GPU operations on their streams (kernels, copies, sets, synchronizations, CUDA
// event records) and the allocation records that become memory counters.
#include "activities/activity_parser.h"
#include "activities/demangle.h"

#include "activities/activity_names.h"
#include "io/strata/strata_trace_writer.h"
#include "model/names/cupti_names.h"

#include <cupti.h>

#include <cstdio>
#include <cstdlib>

namespace strata {

namespace {

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

} // namespace

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
    const uint32_t id = w_.string(demangledSymbol(key.c_str()));
    kernelNames_.emplace(key, id);
    return remember(id);
}

int32_t ActivityParser::deviceOfContext(uint32_t context) const {
    auto it = contextDevice_.find(context);
    return it == contextDevice_.end() ? -1 : it->second;
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

// A copy of either record type, on the stream that runs it: named once per `key`, by makeName().
template <class Copy, class Name>
void ActivityParser::copyOp(const Copy* m, uint64_t key, Name&& makeName) {
    contextDevice_[m->contextId] = int32_t(m->deviceId);
    if (!validRange(m->start, m->end) || !keep(int64_t(m->start))) return;
    auto cached = copyNameIds_.find(key);
    if (cached == copyNameIds_.end()) {
        cached = copyNameIds_.emplace(key, w_.string(makeName())).first;
    }
    launchedOp(m->start, m->end, cached->second, SliceKind::Memcpy, copyActivity(m),
               m->correlationId);
}

void ActivityParser::memcpy(const CUpti_Activity* rec) {
    const auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(rec);
    copyOp(m, uint64_t(m->copyKind) << 16 | uint64_t(m->srcKind) << 8 | m->dstKind,
           [m] { return memcpyName(m->copyKind, m->srcKind, m->dstKind); });
}

// A copy between two GPUs (cudaMemcpyPeer*, or a copy between devices with peer access); the
// devices are named, as the memory kinds are for other copies.
void ActivityParser::peerCopy(const CUpti_Activity* rec) {
    const auto* m = reinterpret_cast<const CUpti_ActivityMemcpyPtoP4*>(rec);
    copyOp(m, 1ull << 63 | uint64_t(m->srcDeviceId) << 32 | m->dstDeviceId,
           [m] { return peerMemcpyName(m->srcDeviceId, m->dstDeviceId); });
}

void ActivityParser::memset(const CUpti_Activity* rec) {
    const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(rec);
    contextDevice_[m->contextId] = int32_t(m->deviceId);
    if (!validRange(m->start, m->end) || !keep(int64_t(m->start))) return;
    GpuActivity g;
    g.device = int32_t(m->deviceId);
    g.stream = m->streamId;
    g.context = m->contextId;
    g.bytes = int64_t(m->bytes);
    g.dstMemory = uint8_t(m->memoryKind);
    g.graphId = orMinusOne(m->graphId);
    g.graphNodeId = orMinusOne(m->graphNodeId);
    w_.gpuOp(int64_t(m->start), int64_t(m->end), w_.string(memsetName(m->memoryKind)),
             SliceKind::Memset, g, m->correlationId);
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

} // namespace strata
