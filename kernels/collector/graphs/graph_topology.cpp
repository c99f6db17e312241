#include "graphs/graph_topology.h"

#include "activities/demangle.h"
#include "collector_instance.h"
#include "graphs/graph_driver.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace strata::graphs {

namespace {

// A node cloned into an executable graph (GRAPHNODE_CLONED).
struct Clone {
    CUgraph graph = nullptr, originalGraph = nullptr;
    uint64_t id = 0, originalId = 0;
};

// The clones of the instantiation under way on this thread: cuGraphInstantiate calls back on the
// instantiating thread, each node's clone first and GRAPHEXEC_CREATED last, so two threads
// instantiating at once never mix theirs. Emptied at each GRAPHEXEC_CREATED; clones of a
// cudaGraphClone (no instantiation follows) are bounded by kMaxPendingClones.
thread_local std::vector<Clone> t_clones;
constexpr size_t kMaxPendingClones = 1u << 20;

// Each kind of failure is said once per process: a program that instantiates a thousand graphs
// on a driver without one entry point gets one warning, not a thousand.
void warnOnce(StrataTraceWriter& w, const std::string& kind, const std::string& text) {
    static std::mutex mutex;
    static std::set<std::string>* said = new std::set<std::string>; // outlives atexit handlers
    {
        std::lock_guard lock(mutex);
        if (!said->insert(kind).second) return;
    }
    w.warning("CUDA graph topology: " + text);
}

std::string cudaError(const char* function, CUresult r) {
    return std::string(function) + " failed (CUDA error " + std::to_string(int(r)) + ")";
}

// What taking one topology ran into: a failure (no topology) or names left out (kept), each
// with the kind it is said once under.
struct Problems {
    std::string failedKind, failed; // the failure
    std::vector<std::pair<std::string, std::string>> notes;
    bool fail(const std::string& kind, const std::string& text) {
        failedKind = kind;
        failed = "not recorded: " + text;
        return false;
    }
    bool fail(const char* function, CUresult r) { return fail(function, cudaError(function, r)); }
    void note(const std::string& kind, const std::string& text) { notes.push_back({kind, text}); }
};

std::string kernelNodeName(const GraphDriver& drv, CUgraphNode node, Problems& p) {
    if (!drv.kernelParams) {
        p.note("kernelParams", "kernel nodes unnamed: the CUDA driver has no "
                               "cuGraphKernelNodeGetParams_v2");
        return {};
    }
    CUDA_KERNEL_NODE_PARAMS params{};
    if (const CUresult r = drv.kernelParams(node, &params); r != CUDA_SUCCESS) {
        p.note("kernelParams",
               "a kernel node unnamed: " + cudaError("cuGraphKernelNodeGetParams_v2", r));
        return {};
    }
    // A runtime launch names its kernel by a CUkernel (func left null) since CUDA 12.
    const bool byFunc = params.func != nullptr;
    const char* getter = byFunc ? "cuFuncGetName" : "cuKernelGetName";
    if (byFunc ? !drv.funcName : !drv.kernelName) {
        p.note(getter, std::string("kernel nodes unnamed: the CUDA driver has no ") + getter);
        return {};
    }
    const char* name = nullptr;
    const CUresult r =
        byFunc ? drv.funcName(&name, params.func) : drv.kernelName(&name, params.kern);
    if (r != CUDA_SUCCESS || !name) {
        p.note(getter, "a kernel node unnamed: " + cudaError(getter, r));
        return {};
    }
    return demangledSymbol(name);
}

// A host node's function by its symbol (dladdr: exported symbols only), else its module.
std::string hostNodeName(const GraphDriver& drv, CUgraphNode node, Problems& p) {
    if (!drv.hostParams) {
        p.note("hostParams", "host nodes unnamed: the CUDA driver has no cuGraphHostNodeGetParams");
        return {};
    }
    CUDA_HOST_NODE_PARAMS params{};
    if (const CUresult r = drv.hostParams(node, &params); r != CUDA_SUCCESS || !params.fn) {
        p.note("hostParams", "a host node unnamed: " + cudaError("cuGraphHostNodeGetParams", r));
        return {};
    }
    Dl_info info{};
    if (!dladdr(reinterpret_cast<void*>(params.fn), &info)) return {};
    if (info.dli_sname) return demangledSymbol(info.dli_sname);
    if (!info.dli_fname) return {};
    const std::string file = info.dli_fname;
    return "[" + file.substr(file.rfind('/') + 1) + "]";
}

// The original graph's nodes, each under its clone's id (its own where no clone was seen).
bool takeNodes(const GraphDriver& drv, CUgraph graph, const std::vector<Clone>& clones,
               ExecTopology& top, std::unordered_map<CUgraphNode, uint64_t>& idOf, Problems& p) {
    size_t n = 0;
    if (CUresult r = drv.getNodes(graph, nullptr, &n); r != CUDA_SUCCESS)
        return p.fail("cuGraphGetNodes", r);
    std::vector<CUgraphNode> nodes(n);
    if (n)
        if (CUresult r = drv.getNodes(graph, nodes.data(), &n); r != CUDA_SUCCESS)
            return p.fail("cuGraphGetNodes", r);
    nodes.resize(std::min(n, nodes.size()));
    std::unordered_map<uint64_t, uint64_t> cloneOf; // original id -> clone id (the last clone)
    for (const Clone& c : clones)
        if (!c.originalGraph || c.originalGraph == graph) cloneOf[c.originalId] = c.id;
    for (CUgraphNode node : nodes) {
        ExecTopology::Node out;
        if (const CUptiResult r = cuptiGetGraphNodeId(node, &out.originalId); r != CUPTI_SUCCESS)
            return p.fail("cuptiGetGraphNodeId", "cuptiGetGraphNodeId: " + cuptiErrorText(r));
        CUgraphNodeType type{};
        if (CUresult r = drv.nodeType(node, &type); r != CUDA_SUCCESS)
            return p.fail("cuGraphNodeGetType", r);
        const auto clone = cloneOf.find(out.originalId);
        out.id = clone != cloneOf.end() ? clone->second : out.originalId;
        out.type = graphNodeTypeName(type);
        if (type == CU_GRAPH_NODE_TYPE_KERNEL) out.name = kernelNodeName(drv, node, p);
        if (type == CU_GRAPH_NODE_TYPE_HOST) out.name = hostNodeName(drv, node, p);
        idOf[node] = out.id;
        top.nodes.push_back(std::move(out));
    }
    return true;
}

bool takeEdges(const GraphDriver& drv, CUgraph graph,
               const std::unordered_map<CUgraphNode, uint64_t>& idOf, ExecTopology& top,
               Problems& p) {
    size_t n = 0;
    auto query = [&](CUgraphNode* from, CUgraphNode* to, CUgraphEdgeData* data) {
        return drv.getEdges ? drv.getEdges(graph, from, to, data, &n)
                            : drv.getEdgesV1(graph, from, to, &n);
    };
    const char* name = drv.getEdges ? "cuGraphGetEdges_v2" : "cuGraphGetEdges";
    if (CUresult r = query(nullptr, nullptr, nullptr); r != CUDA_SUCCESS) return p.fail(name, r);
    std::vector<CUgraphNode> from(n), to(n);
    // With edge data: an edge with ports is refused (CUDA_ERROR_LOSSY_QUERY) without it.
    std::vector<CUgraphEdgeData> data(n);
    if (n)
        if (CUresult r = query(from.data(), to.data(), data.data()); r != CUDA_SUCCESS)
            return p.fail(name, r);
    for (size_t i = 0; i < std::min(n, from.size()); ++i) {
        const auto a = idOf.find(from[i]), b = idOf.find(to[i]);
        if (a != idOf.end() && b != idOf.end()) top.edges.push_back({a->second, b->second});
    }
    return true;
}

// The executable graph's topology from its original graph (the one the driver can list), its
// ids, and the clones this thread saw.
bool takeTopology(const CUpti_GraphData& d, const std::vector<Clone>& clones, ExecTopology& top,
                  Problems& p) {
    const GraphDriver& drv = graphDriver();
    // Whether GRAPHEXEC_CREATED names the original graph or its clone is not documented: a clone
    // graph is taken back to the graph it was cloned from.
    CUgraph original = d.graph, cloneGraph = nullptr;
    for (const Clone& c : clones)
        if (c.graph && c.graph == d.graph && c.originalGraph) original = c.originalGraph;
    for (const Clone& c : clones)
        if (c.originalGraph == original) cloneGraph = c.graph;
    if (!original || !d.graphExec)
        return p.fail("no graph", "CUPTI's GRAPHEXEC_CREATED named no graph");
    if (const CUptiResult r = cuptiGetGraphExecId(d.graphExec, &top.execId); r != CUPTI_SUCCESS)
        return p.fail("cuptiGetGraphExecId", "cuptiGetGraphExecId: " + cuptiErrorText(r));
    if (const CUptiResult r = cuptiGetGraphId(original, &top.graphId); r != CUPTI_SUCCESS)
        return p.fail("cuptiGetGraphId", "cuptiGetGraphId: " + cuptiErrorText(r));
    uint32_t cloneId = 0;
    if (cloneGraph && cloneGraph != original &&
        cuptiGetGraphId(cloneGraph, &cloneId) == CUPTI_SUCCESS && cloneId != top.graphId)
        top.cloneGraphId = cloneId;
    std::unordered_map<CUgraphNode, uint64_t> idOf;
    return takeNodes(drv, original, clones, top, idOf, p) && takeEdges(drv, original, idOf, top, p);
}

void onCloned(StrataTraceWriter& w, const CUpti_GraphData& d) {
    Clone c{d.graph, d.originalGraph, 0, 0};
    const CUptiResult a = cuptiGetGraphNodeId(d.node, &c.id);
    const CUptiResult b =
        a == CUPTI_SUCCESS ? cuptiGetGraphNodeId(d.originalNode, &c.originalId) : a;
    if (b != CUPTI_SUCCESS) {
        warnOnce(w, "cuptiGetGraphNodeId",
                 "a cloned node's id unknown: cuptiGetGraphNodeId failed: " + cuptiErrorText(b));
        return;
    }
    if (t_clones.size() >= kMaxPendingClones) t_clones.clear();
    t_clones.push_back(c);
}

void onExecCreated(StrataTraceWriter& w, const CUpti_GraphData& d) {
    std::vector<Clone> clones;
    clones.swap(t_clones);
    const std::string missing = graphDriver().missing();
    if (!missing.empty()) {
        warnOnce(w, "missing", "not recorded: the CUDA driver has no " + missing);
        return;
    }
    ExecTopology top;
    Problems p;
    const bool ok = takeTopology(d, clones, top, p);
    for (const auto& [kind, text] : p.notes) warnOnce(w, kind, text);
    if (!ok) {
        warnOnce(w, p.failedKind, p.failed);
        return;
    }
    w.metadata(topologyKey(top.execId), topologyJson(top));
}

void appendString(std::string& out, std::string_view s) {
    out += '"';
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += ch;
        } else if (c < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", unsigned(c));
            out += buf;
        } else {
            out += ch;
        }
    }
    out += '"';
}

} // namespace

void enableGraphTopology(CUpti_SubscriberHandle subscriber, StrataTraceWriter& writer) {
    for (const CUpti_CallbackId cbid :
         {CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED, CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED}) {
        const CUptiResult r = cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE, cbid);
        if (r != CUPTI_SUCCESS) {
            writer.warning("CUDA graph topology not recorded: CUPTI refused its graph callbacks (" +
                           cuptiErrorText(r) + ")");
            return;
        }
    }
}

bool isGraphTopologyCallback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
    return domain == CUPTI_CB_DOMAIN_RESOURCE && (cbid == CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED ||
                                                  cbid == CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED);
}

void onGraphResource(StrataTraceWriter& writer, CUpti_CallbackId cbid,
                     const CUpti_ResourceData* data) {
    const auto* d = data ? static_cast<const CUpti_GraphData*>(data->resourceDescriptor) : nullptr;
    if (!d) return;
    if (cbid == CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED) onCloned(writer, *d);
    if (cbid == CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED) onExecCreated(writer, *d);
}

std::string topologyKey(uint32_t execId) {
    return "cuda_graph_exec_" + std::to_string(execId);
}

std::string topologyJson(const ExecTopology& t) {
    std::string out =
        "{\"graph_id\":" + std::to_string(t.graphId) + ",\"exec_id\":" + std::to_string(t.execId);
    if (t.cloneGraphId >= 0) out += ",\"clone_graph_id\":" + std::to_string(t.cloneGraphId);
    out += ",\"nodes\":[";
    for (size_t i = 0; i < t.nodes.size(); ++i) {
        const ExecTopology::Node& n = t.nodes[i];
        out += i ? ",{\"id\":" : "{\"id\":";
        out += std::to_string(n.id) + ",\"original_id\":" + std::to_string(n.originalId) +
               ",\"type\":";
        appendString(out, n.type);
        out += ",\"name\":";
        appendString(out, n.name);
        out += '}';
    }
    out += "],\"edges\":[";
    for (size_t i = 0; i < t.edges.size(); ++i)
        out += (i ? ",[" : "[") + std::to_string(t.edges[i].first) + "," +
               std::to_string(t.edges[i].second) + "]";
    out += "]}";
    return out;
}

} // namespace strata::graphs
