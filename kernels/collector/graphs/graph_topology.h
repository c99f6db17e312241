#pragma once
// A CUDA graph's topology (issue 51): its nodes (types and names, host nodes and others that
// leave no GPU record too) and its dependency edges, which CUPTI's activity records do not carry.
// Taken once per instantiation from two RESOURCE callbacks: GRAPHNODE_CLONED, once per node as
// cuGraphInstantiate clones the graph into the executable one (the kernel records name the
// clone's node id), then GRAPHEXEC_CREATED, where the original graph's nodes and edges are asked
// of the driver (graph_driver.h) and written as one Metadata record:
//   cuda_graph_exec_<execId> = {"graph_id":G,"exec_id":E,"nodes":[{"id":<clone id>,
//     "original_id":<id>,"type":"kernel","name":"..."}...],"edges":[[from,to],...]}
// with "clone_graph_id" too when the clones' graph has an id of its own (which of the three the
// kernel records' graphId names is for a GPU to say: docs/gpu-validation.md). Read back by
// core/analysis/graphs/graph_topology.h. Nothing here runs per launch; a failure is one warning
// in the trace (once per kind) and no topology, never an error of the program.
#include "io/strata/strata_trace_writer.h"

#include <cupti.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace strata::graphs {

// Enables the two callbacks (a refusal is a warning: the replays are still recorded node by
// node, only the topology is not).
void enableGraphTopology(CUpti_SubscriberHandle subscriber, StrataTraceWriter& writer);

// True for the callbacks onGraphResource handles.
bool isGraphTopologyCallback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid);

// A RESOURCE callback's data (CUpti_ResourceData, its resourceDescriptor a CUpti_GraphData).
void onGraphResource(StrataTraceWriter& writer, CUpti_CallbackId cbid,
                     const CUpti_ResourceData* data);

// What one instantiation's record holds.
struct ExecTopology {
    uint32_t graphId = 0, execId = 0;
    int64_t cloneGraphId = -1; // the clones' graph, when it has an id other than graphId
    struct Node {
        uint64_t id = 0, originalId = 0;
        std::string type, name;
    };
    std::vector<Node> nodes;
    std::vector<std::pair<uint64_t, uint64_t>> edges; // clone ids
};

// The Metadata record's key and value.
std::string topologyKey(uint32_t execId);
std::string topologyJson(const ExecTopology& t);

} // namespace strata::graphs
