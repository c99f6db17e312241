// The GPU side of HTA's critical path graph (_construct_graph_from_kernels): each GPU op's span,
// its launch delay or kernel-kernel delay, and the edges of CUDA synchronisation.
#include "analysis/critical_path/cp_builder.h"

#include <algorithm>

namespace strata::cp {

namespace {
constexpr TimeNs kKernelKernelDelayLimit = 1'500'000; // HTA: 1500 µs
} // namespace

uint32_t* Builder::lastOn(int32_t device, int64_t stream) {
    for (auto& [key, node] : lastOnStream_)
        if (key.first == device && key.second == stream) return &node;
    return nullptr;
}

void Builder::indexLaunches() {
    if (!byStream_.empty() || !byThreadStream_.empty()) return;
    for (uint32_t i = 0; i < ev_.launches.size(); ++i) {
        const Launch& l = ev_.launches[i];
        byStream_[{l.device, l.stream}].push_back(i);
        byThreadStream_[{l.pid, l.tid, l.stream}].push_back(i);
    }
}

// HTA's _get_cuda_event_record_df: the op of the latest launch onto the stream a CUDA event was
// recorded on, at or before the cudaEventRecord call (an event of the whole trace).
uint32_t Builder::previousLaunchOp(int64_t record) {
    const auto where = ev_.recordStream.find(record);
    if (record < 0 || where == ev_.recordStream.end()) return kNone;
    TimeNs recordTs = 0;
    bool found = false;
    for (SliceRef r : trace_.byCorrelation(record)) {
        if (trace_.track(r.track).kind != TrackKind::Thread || trace_.name(r) != "cudaEventRecord")
            continue;
        recordTs = htaStart(trace_.start(r), ev_.microseconds);
        found = true;
        break;
    }
    if (!found) return kNone;
    indexLaunches();
    const auto list = byStream_.find(where->second);
    if (list == byStream_.end()) return kNone;
    const auto& ids = list->second;
    const auto it = std::upper_bound(ids.begin(), ids.end(), recordTs,
                                     [&](TimeNs t, uint32_t i) { return t < ev_.launches[i].ts; });
    if (it == ids.begin()) return kNone;
    return ev_.of(ev_.launches[*(it - 1)].op);
}

// HTA's _get_cuda_stream_wait_event_df: the op of the first launch after a cudaStreamWaitEvent,
// from the same thread onto the waiting stream.
uint32_t Builder::nextLaunchOp(const Event& wait) {
    if (!wait.callRef.valid()) return kNone;
    indexLaunches();
    const Track& track = trace_.track(wait.callRef.track);
    const auto list = byThreadStream_.find({track.pid, track.tid, wait.stream});
    if (list == byThreadStream_.end()) return kNone;
    const TimeNs ts = wait.call != kNone ? ev_.events[wait.call].start : trace_.start(wait.callRef);
    const auto& ids = list->second;
    const auto it = std::lower_bound(ids.begin(), ids.end(), ts,
                                     [&](uint32_t i, TimeNs t) { return ev_.launches[i].ts < t; });
    return it == ids.end() ? kNone : ev_.of(ev_.launches[*it].op);
}

void Builder::syncOnCpu(uint32_t gpuEnd, uint32_t callEvent) {
    if (callEvent == kNone || ev_.events[callEvent].endNode == kNone) return;
    add(gpuEnd, ev_.events[callEvent].endNode, CpEdgeType::Sync);
}

void Builder::handleSync(const Event& sync) {
    switch (sync.sync) {
    case SyncKind::StreamWait:
    case SyncKind::Event: {
        const uint32_t src = previousLaunchOp(sync.waitRecord);
        if (src == kNone) return;
        if (sync.sync == SyncKind::StreamWait) {
            const uint32_t dest = nextLaunchOp(sync);
            if (dest != kNone) kernelSync_[dest] = src;
        } else if (ev_.events[src].endNode != kNone) {
            syncOnCpu(ev_.events[src].endNode, sync.call);
        }
        return;
    }
    case SyncKind::Stream:
        if (uint32_t* last = lastOn(sync.device, sync.stream)) syncOnCpu(*last, sync.call);
        return;
    case SyncKind::Context:
        for (auto& [key, node] : lastOnStream_)
            if (key.first == sync.device) syncOnCpu(node, sync.call);
        return;
    case SyncKind::None:
        return;
    }
}

void Builder::addOpEdges(uint32_t i) {
    const Event& e = ev_.events[i];
    attribute(add(e.startNode, e.endNode, CpEdgeType::Operator), kNone);

    uint32_t syncEnd = kNone;
    if (const auto it = kernelSync_.find(i); it != kernelSync_.end()) {
        if (it->second != kNone) syncEnd = ev_.events[it->second].endNode;
        if (syncEnd != kNone) add(syncEnd, e.startNode, CpEdgeType::Sync);
        kernelSync_.erase(it);
    }
    const Event* call = e.call != kNone ? &ev_.events[e.call] : nullptr;
    const bool callHasNode = call && call->startNode != kNone;
    const TimeNs callTs = call ? call->start : e.start;
    uint32_t* last = lastOn(e.device, e.stream);

    bool launchDelay = false;
    if (e.queue.atLaunch == 1 && e.queue.atStart == 0 && callHasNode &&
        (!last || nodes_[*last].ts < callTs) && (syncEnd == kNone || nodes_[syncEnd].ts < callTs)) {
        add(call->startNode, e.startNode, CpEdgeType::LaunchDelay);
        launchDelay = true;
    } else if (last && e.start - nodes_[*last].ts < kKernelKernelDelayLimit &&
               (syncEnd == kNone || nodes_[syncEnd].ts < nodes_[*last].ts)) {
        attribute(add(*last, e.startNode, CpEdgeType::KernelKernelDelay), kNone);
    }
    // A GPU op never starts before its launch: a 0-weight launch edge otherwise.
    if (!launchDelay && callHasNode)
        add(call->startNode, e.startNode, CpEdgeType::LaunchDelay, true);
    if (last)
        *last = e.endNode;
    else
        lastOnStream_.push_back({{e.device, e.stream}, e.endNode});
}

void Builder::addGpuEdges() {
    std::vector<uint32_t> rows;
    for (uint32_t i = 0; i < ev_.events.size(); ++i) {
        const Event& e = ev_.events[i];
        if ((e.flags & kGpuOp) || e.sync != SyncKind::None) rows.push_back(i);
    }
    // Ops by start, syncs by end (a sync overlapping the op it waits for comes after it).
    const auto key = [&](uint32_t i) {
        const Event& e = ev_.events[i];
        return e.sync != SyncKind::None ? e.end : e.start;
    };
    std::stable_sort(rows.begin(), rows.end(),
                     [&](uint32_t a, uint32_t b) { return key(a) < key(b); });
    for (uint32_t i : rows) {
        if (ev_.events[i].sync != SyncKind::None)
            handleSync(ev_.events[i]);
        else
            addOpEdges(i);
    }
}

std::string Builder::validate() const {
    for (const GraphEdge& e : graph_.edges()) {
        if (e.type != CpEdgeType::Sync) continue;
        const Event& a = ev_.events[nodes_[e.from].event];
        const Event& b = ev_.events[nodes_[e.to].event];
        if ((a.flags & kGpuOp) && (b.flags & kGpuOp) && a.device == b.device &&
            a.stream == b.stream)
            return "a CUDA event sync between two ops of one stream (" +
                   std::string(trace_.str(a.name)) + " and " + std::string(trace_.str(b.name)) +
                   ")";
    }
    return {};
}

} // namespace strata::cp
