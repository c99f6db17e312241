#include "analysis/graphs/graph_topology.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <unordered_set>

namespace strata {

namespace {

constexpr std::string_view kKeyPrefix = "cuda_graph_exec_";

// An integer field (ids are never negative), or -1.
int64_t idField(const nlohmann::json& j, const char* key) {
    const auto it = j.find(key);
    if (it == j.end()) return -1;
    if (it->is_number_unsigned()) return int64_t(it->get<uint64_t>());
    if (it->is_number_integer()) return std::max<int64_t>(it->get<int64_t>(), -1);
    return -1;
}

std::string textField(const nlohmann::json& j, const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The nodes and edges of one entry; those that do not read are counted in `skipped`.
void readParts(const nlohmann::json& j, GraphTopology& t, size_t& skipped) {
    std::unordered_set<int64_t> ids; // a graph may have thousands of nodes
    for (const nlohmann::json& n : j.at("nodes")) {
        GraphTopologyNode node;
        if (n.is_object()) {
            node.id = idField(n, "id");
            node.originalId = idField(n, "original_id");
            node.type = textField(n, "type");
            node.name = textField(n, "name");
        }
        if (node.id < 0 || !ids.insert(node.id).second) {
            ++skipped; // not an object, no id, or an id twice
            continue;
        }
        t.nodes.push_back(std::move(node));
    }
    const auto edges = j.find("edges");
    if (edges == j.end() || !edges->is_array()) return;
    for (const nlohmann::json& e : *edges) {
        const bool pair =
            e.is_array() && e.size() == 2 && e[0].is_number_integer() && e[1].is_number_integer();
        const int64_t from = pair ? e[0].get<int64_t>() : -1, to = pair ? e[1].get<int64_t>() : -1;
        if (!ids.count(from) || !ids.count(to)) {
            ++skipped; // malformed, or naming a node it does not list
            continue;
        }
        t.edges.emplace_back(from, to);
    }
}

// One metadata entry; nullopt with `warning` set when it is not a topology.
std::optional<GraphTopology> readEntry(std::string_view key, std::string_view value,
                                       std::string& warning) {
    const nlohmann::json j = nlohmann::json::parse(value, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
        warning = std::string(key) + ": not JSON; its graph's topology is left out";
        return std::nullopt;
    }
    GraphTopology t;
    t.graphId = idField(j, "graph_id");
    t.execId = idField(j, "exec_id");
    t.cloneGraphId = idField(j, "clone_graph_id");
    const auto nodes = j.find("nodes");
    if (t.graphId < 0 || t.execId < 0 || nodes == j.end() || !nodes->is_array()) {
        warning = std::string(key) + ": no graph_id, exec_id or nodes; its topology is left out";
        return std::nullopt;
    }
    size_t skipped = 0;
    readParts(j, t, skipped);
    if (skipped)
        warning = std::string(key) + ": " + std::to_string(skipped) +
                  " node(s) or edge(s) unreadable, left out";
    return t;
}

} // namespace

bool GraphTopology::isGraph(int64_t id) const {
    return id >= 0 && (id == graphId || id == execId || id == cloneGraphId);
}

const GraphTopologyNode* GraphTopology::node(int64_t nodeId) const {
    if (nodeId < 0) return nullptr;
    const auto it = std::find_if(nodes.begin(), nodes.end(),
                                 [&](const GraphTopologyNode& n) { return n.id == nodeId; });
    return it == nodes.end() ? nullptr : &*it;
}

std::vector<int64_t> GraphTopology::predecessors(int64_t nodeId) const {
    std::vector<int64_t> out;
    for (const auto& [from, to] : edges)
        if (to == nodeId) out.push_back(from);
    return out;
}

std::vector<int64_t> GraphTopology::successors(int64_t nodeId) const {
    std::vector<int64_t> out;
    for (const auto& [from, to] : edges)
        if (from == nodeId) out.push_back(to);
    return out;
}

GraphTopologies graphTopologies(const Trace& trace) {
    GraphTopologies out;
    const auto& meta = trace.metadata();
    for (auto it = meta.lower_bound(std::string(kKeyPrefix));
         it != meta.end() && std::string_view(it->first).starts_with(kKeyPrefix); ++it) {
        std::string warning;
        if (auto t = readEntry(it->first, it->second, warning)) out.graphs.push_back(std::move(*t));
        if (!warning.empty()) out.warnings.push_back(std::move(warning));
    }
    std::stable_sort(
        out.graphs.begin(), out.graphs.end(),
        [](const GraphTopology& a, const GraphTopology& b) { return a.execId < b.execId; });
    return out;
}

const GraphTopology* findGraphTopology(const GraphTopologies& all, int64_t graphId,
                                       int64_t nodeId) {
    const GraphTopology* first = nullptr;
    for (const GraphTopology& t : all.graphs) {
        if (!t.isGraph(graphId)) continue;
        if (nodeId < 0 || t.node(nodeId)) return &t;
        if (!first) first = &t;
    }
    return first;
}

std::optional<GraphTopology> graphTopology(const Trace& trace, int64_t graphId, int64_t nodeId) {
    if (graphId < 0) return std::nullopt;
    const GraphTopologies all = graphTopologies(trace);
    const GraphTopology* t = findGraphTopology(all, graphId, nodeId);
    return t ? std::optional<GraphTopology>(*t) : std::nullopt;
}

std::string_view untimedNodeNote(std::string_view type) {
    if (type == "host") return "not timed: CUPTI records no host node";
    if (type == "empty") return "no GPU work";
    return {};
}

} // namespace strata
