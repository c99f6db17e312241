#include "analysis/graphs/graph_replays.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace strata {

namespace {

// The replay of a graph launch call: its GPU ops by start, and the graph they name.
GraphReplay replayOf(const Trace& t, SliceRef launch) {
    GraphReplay g;
    g.launch = launch;
    const SliceExtra* e = t.extra(launch);
    if (!e || e->correlation < 0) return g;
    for (SliceRef r : t.byCorrelation(e->correlation)) {
        if (!isGpuBusyKind(t.kind(r))) continue;
        g.nodes.push_back(r);
        if (const GpuActivity* a = t.gpu(r); a && a->graphId >= 0) g.graphId = a->graphId;
    }
    std::sort(g.nodes.begin(), g.nodes.end(), [&](SliceRef a, SliceRef b) {
        return std::pair(t.start(a), a) < std::pair(t.start(b), b);
    });
    if (!g.nodes.empty()) {
        g.span.start = t.start(g.nodes.front());
        g.span.end = g.span.start;
        for (SliceRef r : g.nodes) g.span.end = std::max(g.span.end, t.start(r) + t.duration(r));
    }
    return g;
}

bool isGraphLaunch(const Trace& t, SliceRef r) {
    return isLaunchApiKind(t.kind(r)) && isGraphLaunchName(t.name(r));
}

} // namespace

bool isGraphLaunchName(std::string_view n) {
    return n.starts_with("cudaGraphLaunch") || n.starts_with("cuGraphLaunch");
}

std::vector<GraphReplay> graphReplays(const Trace& trace) {
    std::vector<GraphReplay> out;
    // The names that are a graph launch's, decided once per name (not once per call).
    const StringPool& strings = trace.strings();
    std::vector<uint8_t> launchName(strings.size(), 0);
    bool any = false;
    for (StringId id = 0; id < strings.size(); ++id)
        any |= (launchName[id] = isGraphLaunchName(strings.view(id))) != 0;
    if (!any) return out;
    for (TrackId ti = 0; ti < trace.tracks().size(); ++ti) {
        const Track& tr = trace.track(ti);
        if (tr.kind == TrackKind::GpuStream) continue;
        const SliceColumns& c = tr.slices;
        for (SliceIndex i = 0; i < c.size(); ++i)
            if (launchName[c.name[i]] && isLaunchApiKind(c.kind[i]))
                out.push_back(replayOf(trace, {ti, i}));
    }
    std::sort(out.begin(), out.end(), [&](const GraphReplay& a, const GraphReplay& b) {
        return std::pair(trace.start(a.launch), a.launch) <
               std::pair(trace.start(b.launch), b.launch);
    });
    return out;
}

std::optional<GraphReplay> graphReplayOf(const Trace& trace, SliceRef r) {
    if (!r.valid()) return std::nullopt;
    if (isGraphLaunch(trace, r)) return replayOf(trace, r);
    if (!isGpuBusyKind(trace.kind(r))) return std::nullopt;
    const SliceRef launch = trace.launchOf(r);
    if (!launch.valid() || !isGraphLaunch(trace, launch)) return std::nullopt;
    return replayOf(trace, launch);
}

std::vector<GraphStats> graphStats(const Trace& trace, const std::vector<GraphReplay>& replays) {
    std::map<int64_t, GraphStats> graphs;
    // (graph, node id, and where the id is not recorded, as in Kineto traces, the node's name)
    std::map<std::tuple<int64_t, int64_t, StringId>, GraphNodeStats> nodes;
    for (const GraphReplay& g : replays) {
        if (g.nodes.empty()) continue;
        GraphStats& s = graphs[g.graphId];
        const TimeNs span = g.span.duration();
        if (s.replays++ == 0) {
            s.graphId = g.graphId;
            s.fewestNodes = s.mostNodes = g.nodes.size();
            s.spanMin = s.spanMax = span;
        }
        s.fewestNodes = std::min(s.fewestNodes, g.nodes.size());
        s.mostNodes = std::max(s.mostNodes, g.nodes.size());
        s.spanTotal += span;
        s.spanMin = std::min(s.spanMin, span);
        s.spanMax = std::max(s.spanMax, span);
        for (SliceRef r : g.nodes) {
            const GpuActivity* a = trace.gpu(r);
            const int64_t id = a ? a->graphNodeId : -1;
            const StringId name = trace.track(r.track).slices.name[r.index];
            GraphNodeStats& n = nodes[{g.graphId, id, id >= 0 ? 0 : name}];
            const TimeNs d = trace.duration(r);
            if (n.runs++ == 0) {
                n.nodeId = id;
                n.name = name;
                n.kind = trace.kind(r);
                n.min = n.max = d;
            }
            n.total += d;
            n.min = std::min(n.min, d);
            n.max = std::max(n.max, d);
        }
    }
    for (auto& [key, n] : nodes) graphs[std::get<0>(key)].nodes.push_back(n);
    std::vector<GraphStats> out;
    for (auto& [id, s] : graphs) out.push_back(std::move(s));
    return out;
}

} // namespace strata
