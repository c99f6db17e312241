#pragma once
// The CUDA driver's graph queries the collector asks when a graph is instantiated (issue 51:
// a graph's topology, graph_topology.h). The collector does not link libcuda: each entry point
// is looked up once by its exact exported name, with the CUDA 13 ABI its header declares
// (cuGraphGetEdges is cuGraphGetEdges_v2, with edge data; the older four-argument one is the
// fallback), in libcuda.so.1 when the program has loaded it and otherwise in the process's
// global scope (a program linked with libcuda, or the tests' stand-in driver in the harness).
#include <cupti.h>

#include <string>

namespace strata::graphs {

struct GraphDriver {
    // Needed for a topology: without one of these none is recorded.
    CUresult(CUDAAPI* getNodes)(CUgraph, CUgraphNode*, size_t*) = nullptr;
    CUresult(CUDAAPI* getEdges)(CUgraph, CUgraphNode*, CUgraphNode*, CUgraphEdgeData*,
                                size_t*) = nullptr; // cuGraphGetEdges_v2
    CUresult(CUDAAPI* getEdgesV1)(CUgraph, CUgraphNode*, CUgraphNode*, size_t*) = nullptr;
    CUresult(CUDAAPI* nodeType)(CUgraphNode, CUgraphNodeType*) = nullptr;
    // Names only: without them the nodes are recorded unnamed.
    CUresult(CUDAAPI* kernelParams)(CUgraphNode, CUDA_KERNEL_NODE_PARAMS*) = nullptr; // _v2
    CUresult(CUDAAPI* funcName)(const char**, CUfunction) = nullptr;
    CUresult(CUDAAPI* kernelName)(const char**, CUkernel) = nullptr;
    CUresult(CUDAAPI* hostParams)(CUgraphNode, CUDA_HOST_NODE_PARAMS*) = nullptr;

    // The needed entry points not found, by name ("cuGraphGetNodes, cuGraphNodeGetType"); empty
    // when a topology can be taken.
    std::string missing() const;
};

// Looked up on first use (the first instantiation), then kept.
const GraphDriver& graphDriver();

// A node type as the topology's JSON names it: "kernel", "memcpy", "host", "empty", ...;
// "type_N" for one this header does not know.
std::string graphNodeTypeName(CUgraphNodeType type);

} // namespace strata::graphs
