#pragma once
// A CUDA graph's topology (issue 51): its nodes (with the host nodes and others CUPTI records
// nothing for) and dependency edges, as the collector wrote them at each instantiation
// (kernels/collector/graphs/graph_topology.h): one Metadata entry per executable graph,
//   cuda_graph_exec_<execId> = {"graph_id":G,"exec_id":E[,"clone_graph_id":C],"nodes":[{"id":
//     <clone id>,"original_id":<id>,"type":"kernel","name":"..."}...],"edges":[[from,to],...]}
// Node ids are the executable graph's (its clones'), the ids the kernel records' graphNodeId
// carries. Whether a record's graphId names the graph, the executable graph or the clones' graph
// is not settled (docs/gpu-validation.md), so a graph id matches any of the three. Read leniently:
// an entry that does not parse is left out with a warning, never an error.
#include "model/trace.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace strata {

struct GraphTopologyNode {
    int64_t id = -1;         // in the executable graph: the kernel records' graphNodeId
    int64_t originalId = -1; // in the graph it was instantiated from
    std::string type;        // "kernel", "memcpy", "memset", "host", "empty", "graph", ...
    std::string name;        // a kernel's (demangled), a host node's function; may be empty
};

struct GraphTopology {
    int64_t graphId = -1, execId = -1, cloneGraphId = -1;
    std::vector<GraphTopologyNode> nodes;           // as the driver listed them
    std::vector<std::pair<int64_t, int64_t>> edges; // (from, to): to runs after from

    // graphId names this graph, its executable graph or its clones' graph.
    bool isGraph(int64_t graphId) const;
    const GraphTopologyNode* node(int64_t nodeId) const;     // null: not a node of it
    std::vector<int64_t> predecessors(int64_t nodeId) const; // what it runs after, edge order
    std::vector<int64_t> successors(int64_t nodeId) const;   // what runs after it
};

struct GraphTopologies {
    std::vector<GraphTopology> graphs; // by executable graph id
    std::vector<std::string> warnings; // entries (or parts) that did not parse
};

// Every executable graph's topology the trace carries.
GraphTopologies graphTopologies(const Trace& trace);

// The topology recorded for `graphId` (none for -1, an id no record carried); where several
// executable graphs match (one graph instantiated twice), the one holding node `nodeId`, else the
// first.
const GraphTopology* findGraphTopology(const GraphTopologies& all, int64_t graphId,
                                       int64_t nodeId = -1);
std::optional<GraphTopology> graphTopology(const Trace& trace, int64_t graphId,
                                           int64_t nodeId = -1);

// Why a node of this type has no slice: "not timed: CUPTI records no host node" for a host node,
// "no GPU work" for an empty one; empty for the others.
std::string_view untimedNodeNote(std::string_view type);

} // namespace strata
