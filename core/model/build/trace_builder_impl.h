#pragma once
// The state of a TraceBuilder between the readers' calls and build() (trace_builder.cpp takes the
// calls, trace_build.cpp runs the build's phases). Internal to core/model.
#include "model/build/edge_matcher.h"
#include "model/build/flow_binder.h"
#include "model/build/slice_nester.h"
#include "model/build/stack_sample_buffer.h"
#include "model/build/trace_builder.h"
#include "model/gpu_activity_cache.h"

#include <map>
#include <memory>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace strata {

struct RawTrack {
    PodVector<RawSlice> slices;
    PodVector<RawEdge> edges;
    uint32_t nextSeq = 0;
    bool prefilled = false; // slices are in the track's columns already (TraceBuilder::prefill)
};

struct TraceBuilder::Impl {
    std::unique_ptr<Trace> trace = std::make_unique<Trace>();
    TimeNs boundsLo = INT64_MAX, boundsHi = INT64_MIN; // includeInBounds()
    std::vector<RawTrack> raw;
    std::unordered_map<std::pair<int64_t, int64_t>, TrackId, PairHashI64> threadTracks;
    std::unordered_map<std::pair<int64_t, int64_t>, TrackId, PairHashI64>
        gpuTracks; // (device, stream)
    std::map<std::pair<int64_t, StringId>, TrackId> counterTracks;
    std::map<std::tuple<int64_t, StringId, uint64_t>, TrackId> asyncTracks;
    std::unordered_map<int64_t, TrackId> processInstantTracks;
    TrackId globalTrack = UINT32_MAX;
    // (pid, tid) as events name them -> tracks they may land on (thread track, GPU stream tracks).
    TrackAliases aliases;
    std::map<int64_t, Process> processes;
    std::map<std::pair<int64_t, int64_t>, Thread> threads;
    PodVector<FlowEventV1> flowsV1;
    std::vector<FlowEventV2> flowsV2;
    // Section sets (indices into trace->sections_) by correlation id: the first set of each id,
    // and the others of an id (another kernel or device under the same id, rare) by the bytes of
    // (correlation, device, kernel). Finding a launch's set is a lookup, not a scan of every set
    // (400,000 Sections records load in linear time). std::hash of an integer is the integer:
    // ids that arrive in order stay close in the table, which on this kind of machine is worth
    // 10x over a mixed hash (a cache miss per lookup).
    std::unordered_map<int64_t, uint32_t> sectionSetOf;
    std::unordered_map<std::string, uint32_t> moreSectionSetsOf;

    TrackId newTrack(Track t) {
        trace->tracks_.push_back(std::move(t));
        raw.emplace_back();
        return static_cast<TrackId>(trace->tracks_.size() - 1);
    }
    void alias(int64_t pid, int64_t tid, TrackId id) {
        auto& v = aliases[{pid, tid}];
        if (std::find(v.begin(), v.end(), id) == v.end()) v.push_back(id);
    }
    RawSlice rawSlice(TrackId track, const SliceInput& s);
    uint32_t makeExtra(const SliceInput& s) {
        if (s.correlation < 0 && s.externalId < 0 && !s.gpu) return kNoExtra;
        SliceExtra e;
        e.correlation = s.correlation;
        if (s.externalId >= 0) {
            e.external = static_cast<uint32_t>(trace->externalIds_.size());
            trace->externalIds_.push_back(s.externalId);
        }
        if (s.gpu) e.gpu = gpuCache.intern(*s.gpu, trace->gpu_);
        trace->extras_.push_back(e);
        return static_cast<uint32_t>(trace->extras_.size() - 1);
    }

    GpuActivityCache gpuCache;
    StackSampleBuffer stackSamples;

    // The track of `key` in `map`, made by `make()` the first time it is asked for.
    template <typename Map, typename Key, typename Make>
    TrackId findOrAdd(Map& map, const Key& key, Make&& make, bool* added = nullptr) {
        auto [it, inserted] = map.try_emplace(key, 0);
        if (inserted) it->second = newTrack(make());
        if (added) *added = inserted;
        return it->second;
    }
    int64_t lastAliasPid = 0, lastAliasTid = 0;
    TrackId lastAliasTrack = UINT32_MAX;

    std::vector<std::pair<int64_t, int64_t>> trackKeys; // (pid, tid) of tracks as added

    // The phases of build(), in order.
    TimeRange bounds(); // drops what is out of range first
    void dropOutOfRange(size_t count);
    void matchAllEdges(TimeRange bounds);
    std::vector<SeqMap> nestIntoLanes(); // and places the extra lanes after the base tracks
    void dropEmptyTracks(std::vector<SeqMap>& seqMaps);
    void sortCountersAndInstants();
    void bindFlows(const std::vector<SeqMap>& seqMaps);
    void listProcessesAndThreads();
    TimeRange finishStackSamples(TimeRange bounds); // the bounds widened to the samples
};

} // namespace strata
