#pragma once
// The immutable, columnar trace. Built once by TraceBuilder::build(); everything after that reads
// it through `const Trace&` (or std::shared_ptr<const Trace> across threads).
#include "model/arg_store.h"
#include "model/id_index.h"
#include "model/kernel_sections.h"
#include "model/run_info.h"
#include "model/stack_samples.h"
#include "model/string_pool.h"
#include "model/track.h"
#include "util/pod_vector.h"

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace strata {

// Data that GPU activity carries (kernels, copies, sets).
struct GpuActivity {
    int32_t device = -1;
    int64_t stream = -1;
    int64_t context = -1;
    std::array<int32_t, 3> grid{0, 0, 0};
    std::array<int32_t, 3> block{0, 0, 0};
    int32_t registersPerThread = -1;
    int32_t staticSharedBytes = -1;
    int32_t dynamicSharedBytes = -1;
    int64_t bytes = -1;    // memcpy/memset size
    uint8_t copyKind = 0;  // CUPTI memcpy kind (HtoD=1, DtoH=2, ...), 0 unknown
    uint8_t srcMemory = 0; // CUPTI memory kind (pageable=1, pinned=2, device=3, ...), 0 unknown
    uint8_t dstMemory = 0;
    int64_t graphId = -1;
    int64_t graphNodeId = -1;
    friend bool operator==(const GpuActivity&, const GpuActivity&) = default;
};

// Side data of a slice: correlation id (launch <-> GPU op), External id (Kineto: CPU op <->
// runtime call <-> kernel), and GPU activity data. 16 bytes: External ids (JSON only) are kept
// apart.
struct SliceExtra {
    static constexpr uint32_t kNone = UINT32_MAX;
    int64_t correlation = -1;
    uint32_t gpu = kNone;      // index into Trace::gpuActivities() (equal values may be shared)
    uint32_t external = kNone; // index into Trace::externalIds()
};

struct Process {
    int64_t pid = 0;
    StringId name = 0;
    int32_t sortIndex = 0;
    bool hasSortIndex = false;
    std::vector<StringId> labels;
    // The pid it had before an export gave it another (Strata's Perfetto export renumbers pid 0
    // and ids past 2^31 and says so): the one shown (model/track_names.h).
    std::optional<int64_t> originalPid;
    int64_t shownPid() const { return originalPid.value_or(pid); }
};

struct Thread {
    int64_t pid = 0;
    int64_t tid = 0;
    StringId name = 0;
    int32_t sortIndex = 0;
    bool hasSortIndex = false;
    std::optional<int64_t> originalTid; // as Process::originalPid
    int64_t shownTid() const { return originalTid.value_or(tid); }
};

struct Flow {
    SliceRef from;
    SliceRef to;
    StringId category = 0;
    StringId name = 0;
    uint64_t id = 0;
};

struct DeviceInfo {
    int32_t id = -1;
    std::string name;
    int32_t smCount = 0;
    int64_t totalMemoryBytes = 0;
    int32_t computeMajor = 0;
    int32_t computeMinor = 0;
    int64_t clockRateKHz = 0;
    int64_t memoryClockRateKHz = 0;
};

// The short names of a trace's slice names (Trace::displayName), made on first use.
struct DisplayNameCache {
    std::once_flag once;
    std::unordered_map<StringId, std::string> shortOf; // the names that have a shorter form
};

class Trace {
public:
    const StringPool& strings() const { return strings_; }
    std::string_view str(StringId id) const { return strings_.view(id); }
    const ArgStore& argStore() const { return args_; }
    std::vector<Arg> args(ArgSetId id) const { return args_.decode(id); }

    const std::vector<Track>& tracks() const { return tracks_; }
    const Track& track(TrackId id) const { return tracks_[id]; }
    const std::vector<Process>& processes() const { return processes_; }
    const std::vector<Thread>& threads() const { return threads_; }
    const Process* process(int64_t pid) const;
    const Thread* thread(int64_t pid, int64_t tid) const;
    const std::vector<Flow>& flows() const { return flows_; }
    const PodVector<SliceExtra>& extras() const { return extras_; }
    const PodVector<GpuActivity>& gpuActivities() const { return gpu_; }
    const PodVector<int64_t>& externalIds() const { return externalIds_; }
    const std::vector<DeviceInfo>& devices() const { return devices_; }
    // Top-level metadata (key -> JSON text or plain string), e.g. schemaVersion.
    const std::map<std::string, std::string>& metadata() const { return metadata_; }
    const std::vector<std::string>& warnings() const { return warnings_; }
    // What was run to record it (a .strata file the launcher completed), if known.
    const std::optional<RunInfo>& run() const { return run_; }
    // Colours the recorded program gave slice names (NVTX event attributes, 0xAARRGGBB); a
    // viewer paints slices of other names from its own palette.
    const std::map<StringId, uint32_t>& nameColors() const { return nameColors_; }
    // In-kernel timer sections recorded with the trace, one set per kernel launch
    // (model/kernel_sections.h); a set's correlation id names its launch.
    const std::vector<SectionSet>& sections() const { return sections_; }
    // The section sets of the launch with this correlation id (usually none or one).
    std::vector<const SectionSet*> sectionsOf(int64_t correlation) const;
    // Sampled call stacks (model/stack_samples.h): the callsites and each thread's samples; a
    // thread track's are stackSamples().thread(track.pid, track.tid).
    const StackSamples& stackSamples() const { return stackSamples_; }
    // A copy of this trace with `other`'s in-kernel sections and warnings added: timer sections
    // imported into an open trace (they then belong to it: the timeline, the Sections dock, the
    // export and Trace Info all see them). Costs a copy of the trace; call it off the GUI thread.
    std::shared_ptr<const Trace> withSectionsOf(const Trace& other) const;
    // A copy of this trace with every GPU op (the GPU stream tracks) moved by `shift` against the
    // CPU: a clock offset between them corrected (analysis/clock_checks.h estimates one). The
    // bounds follow; the in-kernel sections keep their own clocks.
    std::shared_ptr<const Trace> withGpuTimeShifted(TimeNs shift) const;

    // [earliest start, latest end) over every slice, instant and counter sample.
    TimeRange bounds() const { return bounds_; }
    // The same without the trace-wide (global) instants, the profiler's markers ("Iteration
    // Start", "Record Window End") that can lie far outside what was recorded: what a view of
    // the whole trace shows (bounds() when nothing else is there). O(tracks x log slices).
    TimeRange contentBounds() const;
    size_t sliceCount() const { return sliceCount_; }
    size_t counterSampleCount() const { return counterSampleCount_; }
    size_t instantCount() const { return instantCount_; }

    // Convenience accessors for one slice.
    TimeNs start(SliceRef r) const { return tracks_[r.track].slices.start[r.index]; }
    TimeNs duration(SliceRef r) const { return tracks_[r.track].slices.dur[r.index]; }
    std::string_view name(SliceRef r) const { return str(tracks_[r.track].slices.name[r.index]); }
    // The name a slice is shown by in tables, trees and labels (model/display_name.h): its
    // templates and parameter lists elided, no two of the trace's slice and instant names
    // reading the same; the full name (str) where nothing is shorter. Hover, Details and exports
    // show the full name. Made for every name on first use, from any thread, then kept.
    std::string_view displayName(StringId id) const;
    // The same for a name given as text (the full name when the trace has no such string).
    std::string_view displayName(std::string_view fullName) const;
    SliceKind kind(SliceRef r) const { return tracks_[r.track].slices.kind[r.index]; }
    const SliceExtra* extra(SliceRef r) const;
    const GpuActivity* gpu(SliceRef r) const;
    int64_t externalId(SliceRef r) const; // -1: none

    // Correlation, in logarithmic time.
    // The CPU API call (cuda_runtime/cuda_driver) that launched a GPU op, by correlation id.
    SliceRef launchOf(SliceRef gpuOp) const;
    // GPU ops launched by an API call (by correlation id).
    std::vector<SliceRef> gpuOpsOf(SliceRef launch) const;
    // All slices carrying this correlation id / External id.
    std::span<const SliceRef> byCorrelation(int64_t id) const { return correlationIndex_.find(id); }
    std::span<const SliceRef> byExternalId(int64_t id) const { return externalIndex_.find(id); }
    // Outermost-to-innermost chain of CPU slices enclosing `r` on its track (r excluded).
    std::vector<SliceRef> ancestors(SliceRef r) const;
    // Indices into flows() of the flows that leave / arrive at `r` (logarithmic time).
    std::span<const uint32_t> flowsFrom(SliceRef r) const;
    std::span<const uint32_t> flowsTo(SliceRef r) const;

    size_t memoryBytes() const; // model memory (columns, args, strings, indices)

private:
    friend class TraceBuilder;
    friend class FlowBinder;
    friend class TraceSetMerger; // io/set/trace_set_merge.cpp
    friend class TraceSnapshot;  // io/snapshot: the model written and read whole (.strata 1.5)
    StringPool strings_;
    ArgStore args_;
    std::vector<Track> tracks_;
    std::vector<Process> processes_; // sorted by pid
    std::vector<Thread> threads_;    // sorted by (pid, tid)
    std::vector<Flow> flows_;
    std::vector<uint32_t> flowsByFrom_, flowsByTo_; // flow indices sorted by endpoint
    PodVector<SliceExtra> extras_; // realloc-grown: no copy-doubling peak while loading
    PodVector<GpuActivity> gpu_;
    PodVector<int64_t> externalIds_;
    std::vector<DeviceInfo> devices_;
    std::map<std::string, std::string> metadata_;
    std::vector<std::string> warnings_;
    std::optional<RunInfo> run_;
    std::map<StringId, uint32_t> nameColors_;
    std::vector<SectionSet> sections_; // ordered by correlation id
    StackSamples stackSamples_;
    // Shared by copies (withSectionsOf keeps the strings and their ids).
    std::shared_ptr<DisplayNameCache> displayNames_ = std::make_shared<DisplayNameCache>();
    IdIndex correlationIndex_;
    IdIndex externalIndex_;
    TimeRange bounds_;
    size_t sliceCount_ = 0;
    size_t counterSampleCount_ = 0;
    size_t instantCount_ = 0;
};

} // namespace strata
