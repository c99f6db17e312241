#pragma once
// Readers stream events into a TraceBuilder; build() sorts, matches B/E, nests, binds flows,
// indexes correlation ids and returns the immutable Trace. One builder per trace, one thread.
#include "model/trace.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

namespace strata {

struct RawEdge;

// A complete slice as a reader hands it over.
struct SliceInput {
    TimeNs start = 0;
    TimeNs dur = 0;
    StringId name = 0;
    StringId category = 0;
    SliceKind kind = SliceKind::Generic;
    ArgSetId args = kNoArgs;
    int64_t correlation = -1;
    int64_t externalId = -1;
    const GpuActivity* gpu = nullptr; // copied if set
};

// Handle of a slice added to the builder (insertion order on its track), for v2 flows.
struct PendingSlice {
    TrackId track = UINT32_MAX;
    uint32_t seq = UINT32_MAX;
};

class TraceBuilder {
public:
    TraceBuilder();
    ~TraceBuilder();
    TraceBuilder(const TraceBuilder&) = delete;
    TraceBuilder& operator=(const TraceBuilder&) = delete;

    StringPool& strings();
    ArgStore& args();
    StringId intern(std::string_view s) { return strings().intern(s); }

    // Tracks (created on first use; the same key returns the same track).
    TrackId threadTrack(int64_t pid, int64_t tid);
    TrackId gpuStreamTrack(int32_t device, int64_t stream, int64_t pid, int64_t tid);
    TrackId counterTrack(int64_t pid, StringId name);
    TrackId asyncTrack(int64_t pid, StringId name, uint64_t cookie);
    TrackId processInstantTrack(int64_t pid);
    TrackId globalInstantTrack();

    // Metadata.
    void setProcessName(int64_t pid, StringId name);
    void setProcessSortIndex(int64_t pid, int32_t index);
    void addProcessLabel(int64_t pid, StringId label);
    void setThreadName(int64_t pid, int64_t tid, StringId name);
    void setThreadSortIndex(int64_t pid, int64_t tid, int32_t index);
    // The ids a process or thread had before an export renumbered them (Process::originalPid).
    void setProcessOriginalPid(int64_t pid, int64_t original);
    void setThreadOriginalTid(int64_t pid, int64_t tid, int64_t original);
    void setMetadata(std::string key, std::string value);
    void addDevice(const DeviceInfo& d);
    void setNameColor(StringId name, uint32_t argb); // the last one given for a name holds
    void addWarning(std::string w);
    // Makes the trace's bounds reach `t` even when no record does (a live picture of a long run,
    // whose earlier rows are left out, still starts at the run's start: io LoadOptions).
    void includeInBounds(TimeNs t);
    // What was run (a .strata Run record). A second one replaces the first, with a warning.
    void setRunInfo(RunInfo run);
    // In-kernel sections: the set of one launch (its records may arrive in several pieces: the
    // set of the same correlation id, kernel and device is continued). Finished by build().
    SectionSet& sectionSet(int64_t correlation, std::string_view kernel, int32_t device);
    // A set read whole elsewhere (a timer array's import), added as it is.
    void addSectionSet(SectionSet set);

    // Sampled stacks (model/stack_samples.h). A callsite is `frame` called from `parent` (a
    // callsite this builder returned before, or kNoCallsite for a stack's root); returns its id.
    // A sample is thread (pid, tid)'s stack at `ts`, `callsite` its innermost frame (a returned
    // id, or kNoCallsite: no frame), kind a StackKind. build() orders each thread's samples.
    CallsiteId addCallsite(CallsiteId parent, StringId frame);
    void addStackSample(int64_t pid, int64_t tid, TimeNs ts, CallsiteId callsite, uint8_t kind);
    size_t callsiteCount() const; // callsites added so far (ids 1..callsiteCount())

    // Events.
    PendingSlice addSlice(TrackId track, const SliceInput& s);           // X
    PendingSlice addBegin(TrackId track, const SliceInput& s);           // B (dur ignored)
    void addEnd(TrackId track, TimeNs ts, StringId name, ArgSetId args); // E (name 0 = any)
    void addInstant(TrackId track, TimeNs ts, StringId name, StringId category, ArgSetId args);
    void addCounter(TrackId track, TimeNs ts, double value);

    // Flows. v1: 's' starts at the enclosing slice, 't' steps, 'f' ends at the enclosing slice
    // (bindEnclosing, "bp":"e") or at the next slice that starts on the track at/after ts.
    enum class FlowPhase : uint8_t { Start, Step, End };
    void addFlowV1(FlowPhase phase, TrackId track, TimeNs ts, uint64_t id, StringId category,
                   StringId name, bool bindEnclosing);
    // v2: bind_id on a slice with flow_out (source) and/or flow_in (destination).
    void addFlowV2(PendingSlice slice, uint64_t bindId, bool flowIn, bool flowOut);
    // A flow between two slices known by correlation (e.g. collector: launch -> kernel) is derived
    // from correlation ids at build time; no call needed.

    // Bulk loading, for a reader that decodes on several threads (the .strata reader). prefill()
    // sizes a track's columns once; the reader then fills them from any thread, each item at
    // its insertion index: slices in start, dur, name, category, args, extra and kind (slice k
    // has the k-th seq not taken by a B), edges as addBegin/addEnd make them (a B's seq counts
    // the slices and B's added to the track before it), counter samples, instants. Room is
    // left for one slice per B, merged in at build time. A prefilled track takes no other
    // events and no v2 flows. Tracks may be prefilled in parallel, once all exist.
    struct Prefilled {
        SliceColumns* slices;
        RawEdge* edges;
        CounterColumns* counter;
        InstantColumns* instants;
    };
    struct PrefillCounts {
        size_t slices = 0, begins = 0, edges = 0, counterSamples = 0, instants = 0;
    };
    Prefilled prefill(TrackId track, const PrefillCounts& counts);
    // Room for n extras, numbered from *first on, left for the caller to write (every one of
    // them); GPU activity values appended, numbered from the returned index on (equal values
    // are not merged).
    SliceExtra* prefillExtras(size_t n, uint32_t* first);
    uint32_t appendGpuActivities(const GpuActivity* values, size_t n);

    // The GPU ops added so far (the slices of GPU stream tracks, prefilled or not): f(kind,
    // correlation id, args) for each, which may replace its args. For records that name an op by
    // its correlation id and may come after it (a .strata KernelMetrics record).
    void updateGpuOpArgs(const std::function<void(SliceKind, int64_t, ArgSetId&)>& f);

    // Sorts, nests, binds and indexes. The builder is empty afterwards.
    std::shared_ptr<const Trace> build();

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace strata
