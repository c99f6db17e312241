#pragma once
// Builds HTA's critical path graph (critical_path.h) over the events of a window (cp_events.h):
// the nodes, then the edges in HTA's order (the runtime lock, each thread's call stack, the GPU
// ops and syncs), each edge attributed to an event as HTA's _attribute_edge does.
#include "analysis/critical_path/cp_events.h"
#include "analysis/critical_path/cp_graph.h"

#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace strata::cp {

struct Node {
    uint32_t event = kNone;
    TimeNs ts = 0;
    bool isStart = false;
};

class Builder {
public:
    Builder(const Trace& trace, Events& events);
    void addLockEdges();
    void addCallStackEdges();
    // GPU ops and syncs, in HTA's order (ops by start, syncs by end).
    void addGpuEdges();
    // HTA's _validate_graph, but for cycles (Graph::longestPath): a sync edge between two ops of
    // one stream. Returns the error, or "".
    std::string validate() const;
    const std::vector<Node>& nodes() const { return nodes_; }
    Graph& graph() { return graph_; }

private:
    uint32_t add(uint32_t from, uint32_t to, CpEdgeType type, bool zeroWeight = false);
    void attribute(uint32_t edge, uint32_t srcParent);
    void addThreadEdges(const std::vector<uint32_t>& threadEvents);
    bool sharesLock(uint32_t a, uint32_t b) const;
    void syncOnCpu(uint32_t gpuEnd, uint32_t callEvent);
    void addOpEdges(uint32_t event);
    void handleSync(const Event& sync);
    uint32_t previousLaunchOp(int64_t record);
    uint32_t nextLaunchOp(const Event& wait);

    const Trace& trace_;
    Events& ev_;
    std::vector<Node> nodes_;
    Graph graph_;
    // GPU pass state: the last op's end node per (device, stream), in the order streams were
    // first seen; GPU->GPU syncs scheduled (dest op event -> src op event).
    std::vector<std::pair<std::pair<int32_t, int64_t>, uint32_t>> lastOnStream_;
    std::unordered_map<uint32_t, uint32_t> kernelSync_;
    uint32_t* lastOn(int32_t device, int64_t stream);
    // Launches (indices into Events::launches, in time order) per (device, stream) and per
    // (pid, tid, stream), made when a sync first needs them.
    std::map<std::pair<int32_t, int64_t>, std::vector<uint32_t>> byStream_;
    std::map<std::tuple<int64_t, int64_t, int64_t>, std::vector<uint32_t>> byThreadStream_;
    void indexLaunches();
};

} // namespace strata::cp
