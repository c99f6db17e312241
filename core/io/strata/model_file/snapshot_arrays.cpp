// TraceSnapshot::arrays: every plain array of a model, in the order a model file holds them.
#include "io/strata/model_file/snapshot_arrays.h"
#include "io/strata/model_file/trace_snapshot.h"

#include <string>
#include <type_traits>

namespace strata {
namespace {

using namespace snapshot;

// Written and read as their bytes: no padding, so every byte is a value's.
static_assert(std::has_unique_object_representations_v<SliceRef>);
static_assert(std::has_unique_object_representations_v<SliceExtra>);
static_assert(std::has_unique_object_representations_v<Flow>);
static_assert(std::has_unique_object_representations_v<SectionSample>);
static_assert(std::has_unique_object_representations_v<SampleThread>);
static_assert(sizeof(SliceKind) == 1 && sizeof(TimeNs) == 8);

// Empty arrays need no part and get no entry (a track's sixteen arrays are mostly empty).
struct Collect {
    std::vector<TraceSnapshot::Array>& out;
    template <typename V> void operator()(uint16_t id, uint32_t owner, V& v) {
        using T = std::remove_cvref_t<decltype(*v.data())>;
        if (v.size() == 0) return;
        out.push_back({id, owner, reinterpret_cast<uint8_t*>(v.data()), sizeof(T), v.size()});
    }
};

void indexArrays(Collect& add, IdIndex& index, uint16_t first) {
    add(first, 0, index.denseCount);
    add(uint16_t(first + 1), 0, index.densePlaces);
    add(uint16_t(first + 2), 0, index.listIds);
    add(uint16_t(first + 3), 0, index.listRefs);
}

} // namespace

std::vector<TraceSnapshot::Array> TraceSnapshot::arrays(Trace& t) {
    std::vector<Array> out;
    Collect add{out};
    for (uint32_t i = 0; i < t.tracks_.size(); ++i) {
        Track& k = t.tracks_[i];
        SliceColumns& s = k.slices;
        add(SliceStart, i, s.start);
        add(SliceDur, i, s.dur);
        add(SliceName, i, s.name);
        add(SliceCategory, i, s.category);
        add(SliceParent, i, s.parent);
        add(SliceArgs, i, s.args);
        add(SliceExtraColumn, i, s.extra);
        add(SliceDepth, i, s.depth);
        add(SliceKindColumn, i, s.kind);
        add(SliceFlagsColumn, i, s.flags);
        add(CounterTs, i, k.counter.ts);
        add(CounterValue, i, k.counter.value);
        add(InstantTs, i, k.instants.ts);
        add(InstantName, i, k.instants.name);
        add(InstantCategory, i, k.instants.category);
        add(InstantArgs, i, k.instants.args);
    }
    add(Extras, 0, t.extras_);
    add(ExternalIds, 0, t.externalIds_);
    add(ArgBytes, 0, t.args_.bytes_);
    add(ArgOffsets, 0, t.args_.offsets_);
    add(Flows, 0, t.flows_);
    add(FlowsByFrom, 0, t.flowsByFrom_);
    add(FlowsByTo, 0, t.flowsByTo_);
    indexArrays(add, t.correlationIndex_, CorrelationDenseCount);
    indexArrays(add, t.externalIndex_, ExternalDenseCount);
    for (uint32_t i = 0; i < t.sections_.size(); ++i)
        add(SectionSamples, i, t.sections_[i].samples);
    StackSamples& k = t.stackSamples_;
    if (k.callsiteCount() || !k.empty()) { // id 0's entry alone is no part
        add(StackCallsiteParents, 0, k.callsiteParent);
        add(StackCallsiteFrames, 0, k.callsiteFrame);
        add(StackSampleTimes, 0, k.ts);
        add(StackSampleCallsites, 0, k.callsite);
        add(StackSampleKinds, 0, k.kind);
        add(StackSampleThreads, 0, k.threads);
    }
    return out;
}

std::string snapshot::describeArray(uint16_t id, uint32_t owner) {
    static constexpr const char* kTrackArrays[] = {
        "slice starts",  "slice durations", "slice names",        "slice categories",
        "slice parents", "slice args",      "slice extras",       "slice depths",
        "slice kinds",   "slice flags",     "counter times",      "counter values",
        "instant times", "instant names",   "instant categories", "instant args"};
    static constexpr const char* kTraceArrays[] = {"slice extras",
                                                   "GPU activities",
                                                   "External ids",
                                                   "arg bytes",
                                                   "arg offsets",
                                                   "string bytes",
                                                   "string lengths",
                                                   "flows",
                                                   "flows by source",
                                                   "flows by destination",
                                                   "correlation index's counts",
                                                   "correlation index's places",
                                                   "correlation index's listed ids",
                                                   "correlation index's listed slices",
                                                   "External-id index's counts",
                                                   "External-id index's places",
                                                   "External-id index's listed ids",
                                                   "External-id index's listed slices"};
    static constexpr const char* kStackArrays[] = {"callsite parents",   "callsite frames",
                                                   "stack sample times", "stack sample callsites",
                                                   "stack sample kinds", "stack sample threads"};
    static_assert(std::size(kTrackArrays) == InstantArgs - SliceStart + 1);
    static_assert(std::size(kStackArrays) == StackSampleThreads - StackCallsiteParents + 1);
    static_assert(std::size(kTraceArrays) == ExternalListRefs - Extras + 1);
    std::string what;
    if (id >= SliceStart && id <= InstantArgs)
        what = "track " + std::to_string(owner) + "'s " + kTrackArrays[id - SliceStart];
    else if (id >= Extras && id <= ExternalListRefs)
        what = std::string("the ") + kTraceArrays[id - Extras];
    else if (id == SectionSamples)
        what = "section set " + std::to_string(owner) + "'s samples";
    else if (id >= StackCallsiteParents && id <= StackSampleThreads)
        what = std::string("the ") + kStackArrays[id - StackCallsiteParents];
    else
        what = "an unknown array of owner " + std::to_string(owner);
    return what + " (array " + std::to_string(id) + ")";
}

} // namespace strata
