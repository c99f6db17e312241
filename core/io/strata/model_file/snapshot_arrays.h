#pragma once
// The arrays of a model file (io/snapshot/trace_snapshot.h) by id, as ModelPart records name
// them. New ids may be added; a reader refuses an id it does not know (its model would be
// incomplete). Internal to io/snapshot.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace strata {
struct SnapshotSource;
}

namespace strata::snapshot {

// A ModelPart body: u16 array | u32 owner | u64 byte offset in the array | the bytes.
inline constexpr uint32_t kPartHeadBytes = 14;
// The Model record's body: u32 layout version | the header JSON (trace_snapshot_header.cpp).
inline constexpr uint32_t kLayoutVersion = 1;
// Parts are cut to at most this many bytes, chunks filled to about twice that.
inline constexpr size_t kPartBytes = 16u << 20;

enum ArrayId : uint16_t {
    // One per track (owner: the track's index).
    SliceStart = 1,
    SliceDur,
    SliceName,
    SliceCategory,
    SliceParent,
    SliceArgs,
    SliceExtraColumn,
    SliceDepth,
    SliceKindColumn,
    SliceFlagsColumn,
    CounterTs,
    CounterValue,
    InstantTs,
    InstantName,
    InstantCategory,
    InstantArgs,
    // The trace's own (owner 0).
    Extras = 32,
    GpuActivities, // kGpuActivityBytes each (the codec of io/strata/strata_slice_rows.h)
    ExternalIds,
    ArgBytes,
    ArgOffsets,
    StringBytes,   // every string's text, one after the other
    StringLengths, // u32 each
    Flows,
    FlowsByFrom,
    FlowsByTo,
    CorrelationDenseCount,
    CorrelationDensePlaces,
    CorrelationListIds,
    CorrelationListRefs,
    ExternalDenseCount,
    ExternalDensePlaces,
    ExternalListIds,
    ExternalListRefs,
    // One per section set (owner: the set's index).
    SectionSamples = 64,
    // The stack samples (owner 0; model/stack_samples.h), when the trace has any.
    StackCallsiteParents = 80,
    StackCallsiteFrames,
    StackSampleTimes,
    StackSampleCallsites,
    StackSampleKinds,
    StackSampleThreads,
};

// An array for messages: "track 3's slice starts (array 1)", "the flows (array 39)".
std::string describeArray(uint16_t id, uint32_t owner);

// The source file a Model record's JSON names (trace_snapshot_header.cpp); nullopt with
// `error` set when the JSON does not say.
std::optional<SnapshotSource> sourceFromHeader(const std::string& json, std::string* error);

} // namespace strata::snapshot
