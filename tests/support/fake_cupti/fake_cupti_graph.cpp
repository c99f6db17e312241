// The stand-in CUPTI's CUDA graph ids: cuptiGetGraphId, cuptiGetGraphExecId and
// cuptiGetGraphNodeId over opaque handles a test makes for the ids it chooses
// (fake_cupti_graph, fake_cupti_graph_exec, fake_cupti_graph_node in fake_cupti_control.h). A
// handle it did not make is refused, as CUPTI refuses a null one.
#include "fake_cupti_control.h"

#include <cupti.h>

#include <map>
#include <mutex>
#include <utility>

namespace {

enum class Kind { Graph, Exec, Node };

struct Handle {
    Kind kind;
    uint64_t id;
};

struct Handles {
    std::mutex mutex;
    std::map<std::pair<Kind, uint64_t>, Handle*> byId;
    std::map<const void*, const Handle*> byAddress;
};

Handles& handles() {
    static Handles* h = new Handles; // never destroyed: atexit handlers may still ask
    return *h;
}

void* make(Kind kind, uint64_t id) {
    Handles& h = handles();
    std::lock_guard lock(h.mutex);
    Handle*& slot = h.byId[{kind, id}];
    if (!slot) {
        slot = new Handle{kind, id};
        h.byAddress[slot] = slot;
    }
    return slot;
}

bool idOf(Kind kind, const void* handle, uint64_t* id) {
    Handles& h = handles();
    std::lock_guard lock(h.mutex);
    const auto it = h.byAddress.find(handle);
    if (it == h.byAddress.end() || it->second->kind != kind) return false;
    *id = it->second->id;
    return true;
}

} // namespace

extern "C" {

CUgraph fake_cupti_graph(uint32_t id) {
    return static_cast<CUgraph>(make(Kind::Graph, id));
}

CUgraphExec fake_cupti_graph_exec(uint32_t id) {
    return static_cast<CUgraphExec>(make(Kind::Exec, id));
}

CUgraphNode fake_cupti_graph_node(uint64_t id) {
    return static_cast<CUgraphNode>(make(Kind::Node, id));
}

CUptiResult CUPTIAPI cuptiGetGraphNodeId(CUgraphNode node, uint64_t* nodeId) {
    if (!nodeId || !idOf(Kind::Node, node, nodeId)) return CUPTI_ERROR_INVALID_PARAMETER;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetGraphId(CUgraph graph, uint32_t* id) {
    uint64_t v = 0;
    if (!id || !idOf(Kind::Graph, graph, &v)) return CUPTI_ERROR_INVALID_PARAMETER;
    *id = uint32_t(v);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetGraphExecId(CUgraphExec exec, uint32_t* id) {
    uint64_t v = 0;
    if (!id || !idOf(Kind::Exec, exec, &v)) return CUPTI_ERROR_INVALID_PARAMETER;
    *id = uint32_t(v);
    return CUPTI_SUCCESS;
}

} // extern "C"
