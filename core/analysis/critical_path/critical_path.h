#pragma once
// The critical path of a step (issue 46), under the rule of HolisticTraceAnalysis's lightweight
// critical path analysis (hta/analyzers/critical_path_analysis.py, HTA 0.6), so a user coming
// from it reads the same path and the same delays:
//   graph     every CPU op, runtime/driver call (and data-loading span, if asked) that starts in
//             the window and lasts > 0, and every GPU op linked by correlation to a CPU call that
//             starts in the window, gets a start and an end node (a point in time);
//   edges     (weight: the time from its source to its destination, except where 0 is said)
//             operator        an event's start to its end, and along each CPU thread's call stack
//                             (HTA's DFS: the previous node to the next start or end);
//             dependency (0)  consecutive top-level ops of a thread; calls that take the CUDA
//                             runtime lock (cudaLaunchKernel, cudaMemcpyAsync, cudaHostAlloc) on
//                             any thread, in the order they end;
//             launch delay    a launch call's start to its GPU op's start, when the stream had
//                             nothing queued (queue length 1 after the launch, 0 at the start:
//                             analysis/ops/launch_queue.h) and the previous op on the stream had
//                             ended before the launch; otherwise a 0-weight launch edge (HTA's
//                             CRITICAL_PATH_ADD_ZERO_WEIGHT_LAUNCH_EDGE, on here: a GPU op never
//                             precedes its launch);
//             kernel-kernel   the previous op on the stream's end to this op's start, when under
//                             1.5 ms apart;
//             sync (0)        the last op on a stream to the end of the cudaStreamSynchronize
//                             that waits for it (Stream Sync), the last op of every stream of the
//                             device to a cudaDeviceSynchronize (Context Sync), the op before a
//                             cudaEventRecord to a cudaEventSynchronize (Event Sync) or to the
//                             first op launched on the waiting stream after a cudaStreamWaitEvent
//                             (Stream Wait Event); the time a blocking call (cudaDeviceSynchronize,
//                             cudaStreamSynchronize, cudaEventSynchronize, cudaEventQuery,
//                             cudaMemcpy, cudaMemcpyAsync) spends is weight 0 on the CPU side;
//   path      the longest path of the graph (negative weights count 0), ties resolved as
//             networkx's dag_longest_path resolves them;
//   bound     each path edge is attributed to an event and classed as HTA's summary does:
//             cpu_bound, data_loading, gpu_compute_bound, gpu_communication_bound (nccl/hccl/hip
//             kernels), gpu_kernel_kernel_overhead, gpu_kernel_launch_overhead; dependency and
//             sync edges are not classed.
// Where Strata departs from HTA: streams are told apart per (device, stream) (HTA: per stream
// number); a Context Sync waits for its own device's streams; events that tie in time are ordered
// by (start, track, index) where HTA uses the event's position in the file.
#include "analysis/ops/hta_conventions.h"
#include "model/trace.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace strata {

enum class CpEdgeType : uint8_t { Operator, Dependency, LaunchDelay, KernelKernelDelay, Sync };
enum class CpBound : uint8_t {
    None, // dependency and sync edges
    Cpu,
    DataLoading,
    GpuCompute,
    GpuCommunication,
    KernelKernelOverhead,
    LaunchOverhead,
};
inline constexpr size_t kCpBoundCount = 7;
const char* cpEdgeTypeName(CpEdgeType t); // "operator", "dependency", "kernel_launch_delay", ...
const char* cpBoundName(CpBound b);       // "", "cpu_bound", "data_loading", ... (HTA's names)

struct CriticalPathOptions {
    TimeRange window = wholeTrace(); // events starting in [window.start, window.end] (inclusive)
    HtaConventions hta;              // HTA's loading rules (--hta-steps, --hta-us)
    std::vector<std::string> dataLoading; // substrings naming data-loading spans (HTA: regexes)
};

// A point of the path: the start or end of an event.
struct CpPoint {
    SliceRef event;
    TimeNs time = 0;
    bool isStart = false;
};

struct CpPathEdge {
    uint32_t from = 0; // indices into CriticalPath::points
    uint32_t to = 0;
    CpEdgeType type = CpEdgeType::Operator;
    TimeNs weight = 0;   // HTA's weight (to.time - from.time, or 0); may be < 0 (counted as 0)
    SliceRef attributed; // the event the edge's time belongs to (operator, kernel-kernel only)
    CpBound bound = CpBound::None;
};

struct CriticalPath {
    bool ok = false;
    std::string error;  // why there is no path (empty window, a cycle, a same-stream sync)
    TimeRange window{}; // as resolved: [first start, last end] of the chosen annotation
    size_t events = 0;  // events with nodes in the graph
    size_t graphNodes = 0;
    size_t graphEdges = 0;
    std::array<size_t, 5> edgesByType{};         // graph edges per CpEdgeType
    std::vector<CpPoint> points;                 // the path, in order
    std::vector<CpPathEdge> edges;               // points.size() - 1
    std::vector<SliceRef> pathEvents;            // distinct events on the path, sorted
    TimeNs length = 0;                           // sum of the path's weights (negative ones as 0)
    std::array<TimeNs, kCpBoundCount> byBound{}; // sum of HTA weights per CpBound
    TimeNs boundTotal = 0;                       // their sum (HTA's summary denominator)
};

// HTA's window for `annotation` (a substring of the slice names, "" for the whole trace) and
// instances [first, last] of the slices it matches in start order: [min start, max end].
// Returns false (and says why in *error) when nothing matches.
bool criticalPathWindow(const Trace& trace, const std::string& annotation, size_t first,
                        size_t last, HtaConventions hta, TimeRange* window, std::string* error);

CriticalPath criticalPath(const Trace& trace, const CriticalPathOptions& options);

} // namespace strata
