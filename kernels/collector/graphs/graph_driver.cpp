#include "graphs/graph_driver.h"

#include <dlfcn.h>

#include <mutex>

namespace strata::graphs {

namespace {

// libcuda.so.1 when the program loaded it (a runtime that dlopen()s it privately keeps it out of
// the global scope), then the global scope.
void* lookup(void* cuda, const char* name) {
    void* f = cuda ? dlsym(cuda, name) : nullptr;
    return f ? f : dlsym(RTLD_DEFAULT, name);
}

template <typename F> void resolve(F*& f, void* cuda, const char* name) {
    f = reinterpret_cast<F*>(lookup(cuda, name));
}

GraphDriver load() {
    GraphDriver d;
    // RTLD_NOLOAD: never loads the driver into a process that did not; the handle is kept (the
    // driver stays loaded as long as the program uses CUDA).
    void* cuda = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    resolve(d.getNodes, cuda, "cuGraphGetNodes");
    resolve(d.getEdges, cuda, "cuGraphGetEdges_v2");
    if (!d.getEdges) resolve(d.getEdgesV1, cuda, "cuGraphGetEdges");
    resolve(d.nodeType, cuda, "cuGraphNodeGetType");
    resolve(d.kernelParams, cuda, "cuGraphKernelNodeGetParams_v2");
    resolve(d.funcName, cuda, "cuFuncGetName");
    resolve(d.kernelName, cuda, "cuKernelGetName");
    resolve(d.hostParams, cuda, "cuGraphHostNodeGetParams");
    return d;
}

} // namespace

std::string GraphDriver::missing() const {
    std::string out;
    auto add = [&](bool found, const char* name) {
        if (!found) out += (out.empty() ? "" : ", ") + std::string(name);
    };
    add(getNodes, "cuGraphGetNodes");
    add(getEdges || getEdgesV1, "cuGraphGetEdges_v2");
    add(nodeType, "cuGraphNodeGetType");
    return out;
}

const GraphDriver& graphDriver() {
    static std::once_flag once;
    static GraphDriver d;
    std::call_once(once, [] { d = load(); });
    return d;
}

std::string graphNodeTypeName(CUgraphNodeType type) {
    switch (type) {
    case CU_GRAPH_NODE_TYPE_KERNEL:
        return "kernel";
    case CU_GRAPH_NODE_TYPE_MEMCPY:
        return "memcpy";
    case CU_GRAPH_NODE_TYPE_MEMSET:
        return "memset";
    case CU_GRAPH_NODE_TYPE_HOST:
        return "host";
    case CU_GRAPH_NODE_TYPE_GRAPH:
        return "graph";
    case CU_GRAPH_NODE_TYPE_EMPTY:
        return "empty";
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
        return "event_wait";
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
        return "event_record";
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
        return "semaphore_signal";
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
        return "semaphore_wait";
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
        return "mem_alloc";
    case CU_GRAPH_NODE_TYPE_MEM_FREE:
        return "mem_free";
    case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP:
        return "batch_mem_op";
    case CU_GRAPH_NODE_TYPE_CONDITIONAL:
        return "conditional";
    }
    return "type_" + std::to_string(int(type));
}

} // namespace strata::graphs
