// ActivityParser: the dispatch of CUPTI's records by kind, API calls on their CPU threads and the
// correlation of GPU operations with the calls that launched them, CUPTI overhead, device
// properties, and the end-of-recording warnings. GPU operations are in activity_parser_gpu.cpp,
// NVTX ranges and marks in activity_parser_nvtx.cpp.
#include "activities/activity_parser.h"

#include "activities/activity_names.h"
#include "io/strata/strata_trace_writer.h"
#include "process/process_info.h"

#include <cupti.h>

#include <algorithm>
#include <cstdio>

namespace strata {

namespace {

constexpr size_t kRuntimeIdsKept = 1 << 16;

} // namespace

ActivityParser::ActivityParser(StrataTraceWriter& writer, ApiNameTable& names, uint32_t captureMask)
    : w_(writer), names_(names), mask_(captureMask) {}

bool ActivityParser::keep(int64_t t) {
    if (schedule_.captures(t)) return true;
    ++stats_.outsideCapture;
    return false;
}

bool ActivityParser::keepMarker(std::string_view name, int64_t start, int64_t end) {
    if (schedule_.capturesMarker(name, start, end)) return true;
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
