// TraceSnapshot::arrays: every plain array of a model, in the order a model file holds them.
#include "io/snapshot/snapshot_arrays.h"
#include "io/snapshot/trace_snapshot.h"

#include <type_traits>

namespace strata {
namespace {

using namespace snapshot;

// Written and read as their bytes: no padding, so every byte is a value's.
static_assert(std::has_unique_object_representations_v<SliceRef>);
static_assert(std::has_unique_object_representations_v<SliceExtra>);
static_assert(std::has_unique_object_representations_v<Flow>);
static_assert(std::has_unique_object_representations_v<SectionSample>);
static_assert(sizeof(SliceKind) == 1 && sizeof(TimeNs) == 8);

struct Collect {
    std::vector<TraceSnapshot::Array>& out;
    template <typename V> void operator()(uint16_t id, uint32_t owner, V& v) {
        using T = std::remove_cvref_t<decltype(*v.data())>;
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
    // Empty arrays need no part.
    std::erase_if(out, [](const Array& a) { return a.count == 0; });
    return out;
}

} // namespace strata
