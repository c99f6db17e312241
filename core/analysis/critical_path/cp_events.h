#pragma once
// The events of HTA's critical path graph (critical_path.h) for one window: HTA's clipped trace.
//   CPU events   slices of CPU threads that start in the window and last > 0 (HTA times);
//   GPU ops      kernels, copies and sets whose launch call is such a CPU event;
//   syncs        cuda_sync events (Stream Sync, Context Sync, Event Sync, Stream Wait Event)
//                whose call is such a CPU event (a Stream Wait Event whatever its call);
// in the order HTA's event index would give them (start, longer first, track, index), with the
// backward thread merged into the forward one as HTA's call graph does. Plus what the sync edges
// need from the whole trace: every counted launch in time order and the stream each recorded
// CUDA event lies on.
#include "analysis/critical_path/cp_graph.h"
#include "analysis/ops/gpu_ops.h"
#include "analysis/ops/launch_queue.h"

#include <unordered_map>
#include <vector>

namespace strata::cp {

enum class SyncKind : uint8_t { None, Stream, Context, Event, StreamWait };

enum EventFlags : uint8_t {
    kCpu = 1,      // on a CPU thread
    kNodes = 2,    // has a start and an end node (ops, runtime/driver calls, data loading, GPU ops)
    kLock = 4,     // takes the CUDA runtime lock
    kBlocking = 8, // a blocking call (its time is weight 0)
    kGpuOp = 16,
    kDataLoading = 32,
};

struct Event {
    SliceRef ref;
    TimeNs start = 0;
    TimeNs end = 0;
    StringId name = 0;
    int64_t pid = 0;
    int64_t tid = 0;     // CPU: after the backward thread's merge
    int32_t device = -1; // GPU ops and syncs
    int64_t stream = -1;
    uint32_t call = kNone; // GPU ops and syncs: the CPU call's event (kNone: not in the window)
    SliceRef callRef;      // ... and its slice
    OpQueueLength queue;   // GPU ops
    uint8_t flags = 0;
    SyncKind sync = SyncKind::None;
    int64_t waitRecord = -1; // syncs: wait_on_cuda_event_record_corr_id
    uint32_t startNode = kNone;
    uint32_t endNode = kNone;
};

struct Launch {
    TimeNs ts = 0; // the call's start
    SliceRef call;
    SliceRef op;
    int32_t device = -1;
    int64_t stream = -1;
    int64_t pid = 0;
    int64_t tid = 0;
};

struct Events {
    bool microseconds = false; // HTA's times (--hta-us)
    std::vector<Event> events;
    std::unordered_map<uint64_t, uint32_t> bySlice; // slice key -> event
    std::vector<Launch> launches;                   // sorted by (ts, call): launch id = index
    // A cudaEventRecord's correlation -> (device, stream) it was recorded on.
    std::unordered_map<int64_t, std::pair<int32_t, int64_t>> recordStream;
    uint32_t of(SliceRef r) const {
        const auto it = bySlice.find(sliceKey(r));
        return it == bySlice.end() ? kNone : it->second;
    }
    static uint64_t sliceKey(SliceRef r) { return uint64_t(r.track) << 32 | r.index; }
};

Events collectEvents(const Trace& trace, const CriticalPathOptions& options);

} // namespace strata::cp
