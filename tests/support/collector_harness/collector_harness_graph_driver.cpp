#include "collector_harness_graph_driver.h"

#include "fake_cupti_control.h"

#include <cuda.h>
#include <cupti.h>

#include <cstdlib>
#include <cstring>

// The host node's function: exported (the harness is linked with ENABLE_EXPORTS), so the
// collector names it through dladdr as it names a program's own.
namespace harness {
void graphHostStep(void*) {}
} // namespace harness

namespace {

constexpr uint32_t kGraph = 7, kCloneGraph = 8, kExec = 3;
constexpr uint64_t kOriginal[4] = {1, 2, 3, 4}; // A B C H
constexpr uint64_t kCloneOffset = 10;
constexpr uint64_t kEdges[4][2] = {{1, 2}, {1, 4}, {2, 3}, {4, 3}};
const char* const kMangled[3] = {"_Z5scalePf", "_Z4biasPf", "_Z4reluPf"};

bool failing(const char* what) {
    const char* f = std::getenv("HARNESS_GRAPH_FAIL");
    return f && std::strcmp(f, what) == 0;
}

// The node's index (0..3) when `node` is one of the original graph's, else -1.
int indexOf(CUgraphNode node) {
    for (int i = 0; i < 4; ++i)
        if (node == fake_cupti_graph_node(kOriginal[i])) return i;
    return -1;
}

// Kernel handles: the address of the kernel's mangled name, as a CUfunction or CUkernel.
template <typename H> H kernelHandle(int i) {
    return reinterpret_cast<H>(const_cast<char**>(&kMangled[i]));
}

// The count, and the items when the caller gave room (the driver's two-call convention).
template <typename T, typename Fill>
CUresult listed(T* out, size_t* count, size_t available, Fill fill) {
    if (!count) return CUDA_ERROR_INVALID_VALUE;
    if (out)
        for (size_t i = 0; i < available && i < *count; ++i) fill(i);
    *count = available;
    return CUDA_SUCCESS;
}

} // namespace

extern "C" {

CUresult CUDAAPI cuGraphGetNodes(CUgraph graph, CUgraphNode* nodes, size_t* count) {
    if (graph != fake_cupti_graph(kGraph)) return CUDA_ERROR_INVALID_VALUE;
    return listed(nodes, count, 4,
                  [&](size_t i) { nodes[i] = fake_cupti_graph_node(kOriginal[i]); });
}

// cuda.h names it cuGraphGetEdges_v2: the symbol a CUDA 13 driver exports.
CUresult CUDAAPI cuGraphGetEdges(CUgraph graph, CUgraphNode* from, CUgraphNode* to,
                                 CUgraphEdgeData* data, size_t* count) {
    if (graph != fake_cupti_graph(kGraph) || failing("edges")) return CUDA_ERROR_INVALID_VALUE;
    return listed(from, count, 4, [&](size_t i) {
        from[i] = fake_cupti_graph_node(kEdges[i][0]);
        to[i] = fake_cupti_graph_node(kEdges[i][1]);
        if (data) std::memset(&data[i], 0, sizeof data[i]);
    });
}

CUresult CUDAAPI cuGraphNodeGetType(CUgraphNode node, CUgraphNodeType* type) {
    const int i = indexOf(node);
    if (i < 0 || !type) return CUDA_ERROR_INVALID_VALUE;
    *type = i == 3 ? CU_GRAPH_NODE_TYPE_HOST : CU_GRAPH_NODE_TYPE_KERNEL;
    return CUDA_SUCCESS;
}

// cuda.h names it cuGraphKernelNodeGetParams_v2.
CUresult CUDAAPI cuGraphKernelNodeGetParams(CUgraphNode node, CUDA_KERNEL_NODE_PARAMS* params) {
    const int i = indexOf(node);
    if (i < 0 || i == 3 || !params || failing("names")) return CUDA_ERROR_INVALID_VALUE;
    std::memset(params, 0, sizeof *params);
    if (i == 1)
        params->kern = kernelHandle<CUkernel>(i);
    else
        params->func = kernelHandle<CUfunction>(i);
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuFuncGetName(const char** name, CUfunction f) {
    for (int i = 0; i < 3; ++i)
        if (name && f == kernelHandle<CUfunction>(i) && i != 1) {
            *name = kMangled[i];
            return CUDA_SUCCESS;
        }
    return CUDA_ERROR_INVALID_HANDLE;
}

CUresult CUDAAPI cuKernelGetName(const char** name, CUkernel k) {
    if (!name || k != kernelHandle<CUkernel>(1)) return CUDA_ERROR_INVALID_HANDLE;
    *name = kMangled[1];
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphHostNodeGetParams(CUgraphNode node, CUDA_HOST_NODE_PARAMS* params) {
    if (indexOf(node) != 3 || !params) return CUDA_ERROR_INVALID_VALUE;
    params->fn = harness::graphHostStep;
    params->userData = nullptr;
    return CUDA_SUCCESS;
}

} // extern "C"

void instantiateFakeGraph() {
    CUpti_GraphData g;
    std::memset(&g, 0, sizeof g);
    CUpti_ResourceData r;
    std::memset(&r, 0, sizeof r);
    r.resourceDescriptor = &g;
    g.graph = fake_cupti_graph(kCloneGraph);
    g.originalGraph = fake_cupti_graph(kGraph);
    for (int i = 0; i < 4; ++i) {
        g.node = fake_cupti_graph_node(kOriginal[i] + kCloneOffset);
        g.originalNode = fake_cupti_graph_node(kOriginal[i]);
        g.nodeType = i == 3 ? CU_GRAPH_NODE_TYPE_HOST : CU_GRAPH_NODE_TYPE_KERNEL;
        fake_cupti_invoke_callback(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED,
                                   &r);
    }
    std::memset(&g, 0, sizeof g);
    const char* which = std::getenv("HARNESS_GRAPH_EXEC_GRAPH");
    g.graph = fake_cupti_graph(which && std::strcmp(which, "clone") == 0 ? kCloneGraph : kGraph);
    g.graphExec = fake_cupti_graph_exec(kExec);
    fake_cupti_invoke_callback(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED, &r);
}
