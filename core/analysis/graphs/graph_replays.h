#pragma once
// CUDA graph replays node by node (issue 51): each graph launch call (cudaGraphLaunch,
// cuGraphLaunch) with the GPU ops it replayed — those that share its correlation
// id — as the graph's nodes in the order they started, and per graph what its replays and nodes
// took. One implementation for the Details panel, `strata-cli graphs` and the gap checks'
// graph-replay warnings.
#include "model/trace.h"

#include <optional>
#include <string_view>
#include <vector>

namespace strata {

// A graph launch call's name: cudaGraphLaunch*, cuGraphLaunch* (HIP's are not told apart yet).
bool isGraphLaunchName(std::string_view name);

struct GraphReplay {
    SliceRef launch;             // the graph launch call
    int64_t graphId = -1;        // the graph its nodes name (-1: no node names one)
    std::vector<SliceRef> nodes; // its GPU ops (kernels, copies, sets), by start
    TimeRange span{0, 0};        // the first node's start to the last node's end (none: 0, 0)
};

// Every graph launch call of the trace, by start (ties: track, index).
std::vector<GraphReplay> graphReplays(const Trace& trace);

// The replay `r` belongs to: r a graph launch call, or one of the GPU ops it replayed; none for
// any other slice.
std::optional<GraphReplay> graphReplayOf(const Trace& trace, SliceRef r);

// A node across the replays of its graph: the ops that carry its node id.
struct GraphNodeStats {
    int64_t nodeId = -1;
    StringId name = 0; // its first run's name
    SliceKind kind = SliceKind::Kernel;
    uint64_t runs = 0;
    TimeNs total = 0, min = 0, max = 0;
};

struct GraphStats {
    int64_t graphId = -1;
    uint64_t replays = 0;                  // launch calls whose nodes name this graph
    size_t fewestNodes = 0, mostNodes = 0; // nodes per replay
    TimeNs spanTotal = 0, spanMin = 0, spanMax = 0;
    std::vector<GraphNodeStats> nodes; // by node id (nodes without one: one per name)
};

// Per graph id, ascending; replays with no recorded node are left out (graphReplayWarnings
// counts them).
std::vector<GraphStats> graphStats(const Trace& trace, const std::vector<GraphReplay>& replays);

} // namespace strata
