#include "analysis/critical_path/cp_graph.h"

#include <algorithm>

namespace strata::cp {

namespace {
uint64_t key(uint32_t from, uint32_t to) {
    return uint64_t(from) << 32 | to;
}
} // namespace

Graph::Graph(size_t nodes) : succ_(nodes), pred_(nodes), inGraph_(nodes, 0) {}

uint32_t Graph::addEdge(uint32_t from, uint32_t to, CpEdgeType type, TimeNs weight) {
    const auto [it, added] = index_.try_emplace(key(from, to), uint32_t(edges_.size()));
    if (!added) {
        GraphEdge& e = edges_[it->second];
        e.type = type;
        e.weight = weight;
        return it->second;
    }
    for (uint32_t n : {from, to}) {
        if (inGraph_[n]) continue;
        inGraph_[n] = 1;
        joined_.push_back(n);
    }
    edges_.push_back(GraphEdge{from, to, type, weight, kNone});
    succ_[from].push_back(it->second);
    pred_[to].push_back(it->second);
    return it->second;
}

bool Graph::longestPath(std::vector<uint32_t>* path, std::vector<uint32_t>* steps) const {
    path->clear();
    steps->clear();
    if (edges_.empty()) return true;
    // networkx's topological_generations.
    std::vector<uint32_t> indegree(succ_.size(), 0);
    for (const GraphEdge& e : edges_) ++indegree[e.to];
    std::vector<uint32_t> order;
    order.reserve(joined_.size());
    for (uint32_t n : joined_)
        if (indegree[n] == 0) order.push_back(n);
    for (size_t begin = 0; begin < order.size();) {
        const size_t end = order.size();
        for (size_t i = begin; i < end; ++i)
            for (uint32_t ei : succ_[order[i]])
                if (--indegree[edges_[ei].to] == 0) order.push_back(edges_[ei].to);
        begin = end;
    }
    if (order.size() != joined_.size()) return false; // a cycle
    // dag_longest_path.
    std::vector<TimeNs> dist(succ_.size(), 0);
    std::vector<uint32_t> via(succ_.size(), kNone); // the edge each node is reached by
    for (uint32_t v : order) {
        for (uint32_t ei : pred_[v]) {
            const GraphEdge& e = edges_[ei];
            const TimeNs d = dist[e.from] + std::max<TimeNs>(e.weight, 0);
            if (via[v] == kNone || d > dist[v]) {
                dist[v] = d;
                via[v] = ei;
            }
        }
    }
    uint32_t v = order.front();
    for (uint32_t n : order)
        if (dist[n] > dist[v]) v = n;
    for (path->push_back(v); via[v] != kNone; v = edges_[via[v]].from) {
        steps->push_back(via[v]);
        path->push_back(edges_[via[v]].from);
    }
    std::reverse(path->begin(), path->end());
    std::reverse(steps->begin(), steps->end());
    return true;
}

} // namespace strata::cp
