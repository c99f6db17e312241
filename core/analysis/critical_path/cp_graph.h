#pragma once
// The graph of HTA's critical path (critical_path.h) and its longest path, with the semantics of
// the networkx DiGraph HTA builds, so that equal-length paths are resolved the same way:
//   - a node joins the graph with its first edge (nodes without edges are not in it);
//   - adding an edge that exists replaces its type and weight but keeps its place in the
//     successor and predecessor orders (the order edges were first added);
//   - the topological order is networkx's topological_generations: the nodes with no
//     predecessor in the order they joined, then generation by generation, children in the
//     order their edges were added;
//   - the longest path is dag_longest_path's: each node takes its first predecessor (in edge
//     order) of greatest distance, negative weights count as 0 (HTA's _validate_graph), and the
//     path ends at the first node, in topological order, of greatest distance.
#include "analysis/critical_path/critical_path.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace strata::cp {

inline constexpr uint32_t kNone = UINT32_MAX;

struct GraphEdge {
    uint32_t from = 0;
    uint32_t to = 0;
    CpEdgeType type = CpEdgeType::Operator;
    TimeNs weight = 0;
    uint32_t attributed = kNone; // an event index (operator and kernel-kernel edges)
};

class Graph {
public:
    explicit Graph(size_t nodes);
    // Adds (or replaces) the edge from -> to; returns its index.
    uint32_t addEdge(uint32_t from, uint32_t to, CpEdgeType type, TimeNs weight);
    GraphEdge& edge(uint32_t i) { return edges_[i]; }
    const std::vector<GraphEdge>& edges() const { return edges_; }
    size_t nodesInGraph() const { return joined_.size(); }
    // The longest path as node ids (empty if the graph has no edge) and the edge taken from each
    // to the next (one fewer); false on a cycle.
    bool longestPath(std::vector<uint32_t>* path, std::vector<uint32_t>* edges) const;

private:
    std::vector<GraphEdge> edges_;
    std::vector<std::vector<uint32_t>> succ_, pred_; // edge indices, in the order first added
    std::vector<uint32_t> joined_;                   // nodes in the order they joined
    std::vector<uint8_t> inGraph_;
    std::unordered_map<uint64_t, uint32_t> index_;
};

} // namespace strata::cp
