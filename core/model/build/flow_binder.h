#pragma once
// Build-time step: binds flow events to the slices they start and end at.
// v1 (s/t/f): 's' and 't' bind to the innermost slice enclosing ts on the event's thread; 'f'
// with "bp":"e" binds to the enclosing slice, otherwise to the next slice starting at or after ts.
// Events are paired per (id, category, name) in time order; an 'f' earlier than its 's' (clock
// skew between CPU and GPU) is still paired with the next 's'. v2: bind_id with flow_out on the
// source slice and flow_in on the destination.
#include "model/pid_tid_hash.h"
#include "model/trace.h"
#include "util/pod_vector.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace strata {

// 32 bytes: the thread is found through the (pid, tid) of the track the event was added to.
struct FlowEventV1 {
    TimeNs ts = 0;
    uint64_t id = 0;
    TrackId track = 0; // as added (before empty tracks are dropped)
    StringId category = 0;
    StringId name = 0;
    uint8_t phase = 0; // TraceBuilder::FlowPhase
    bool bindEnclosing = false;
};

struct FlowEventV2 {
    TrackId track = 0; // the track the slice was added to (before lanes)
    uint32_t seq = 0;
    uint64_t bindId = 0;
    bool flowIn = false;
    bool flowOut = false;
};

// seq on the original track -> final slice.
using SeqMap = std::vector<SliceRef>;

using PairHashI64 = PidTidHash;
using TrackAliases =
    std::unordered_map<std::pair<int64_t, int64_t>, std::vector<TrackId>, PairHashI64>;

class FlowBinder {
public:
    // trackKeys: (pid, tid) of every track as added, indexed by the TrackId events carry.
    FlowBinder(Trace& trace, const TrackAliases& aliases,
               std::vector<std::pair<int64_t, int64_t>> trackKeys);
    void bindV1(PodVector<FlowEventV1>& events);
    void bindV2(std::vector<FlowEventV2> events, const std::vector<SeqMap>& seqMaps);
    std::vector<std::string> takeWarnings();

private:
    Trace& trace_;
    std::vector<Flow>& flows_;
    std::vector<const std::vector<TrackId>*> candidates_; // per track as added
    size_t unbound_ = 0;
    size_t unpaired_ = 0;
    // hints: per track, where the last search on it ended (see upperBoundNear).
    SliceRef enclosing(const FlowEventV1& e, std::vector<size_t>& hints) const;
    SliceRef nextStarting(const FlowEventV1& e) const;
    const std::vector<TrackId>& candidates(const FlowEventV1& e) const;
};

} // namespace strata
