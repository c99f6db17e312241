// strata-cli graphs: the CUDA graph replays of a trace node by node (analysis/graphs/): per graph
// its replays, nodes per replay and replay span, per node its runs and time, and where the
// collector recorded it the graph's topology (its nodes, host nodes too, and edges); --replays
// lists each replay under its launch call. A table, or (--json) one JSON object.
#include "cli_commands.h"
#include "cli_options.h"
#include "util/terminal_text.h"

#include "analysis/graphs/graph_replays.h"
#include "analysis/graphs/graph_topology.h"
#include "model/names/display_name.h"
#include "model/names/time_text.h"
#include "model/trace.h"

#include <cstdio>
#include <string>

namespace {

using namespace strata;

const char* const kUsage =
    "usage: strata-cli graphs [--json] [--replays] FILE\n"
    "\n"
    "  FILE        a trace with CUDA graph launches (cudaGraphLaunch, cuGraphLaunch)\n"
    "  --json      one JSON object: launches, launches_without_nodes, graphs [{graph_id,\n"
    "              replays, fewest_nodes, most_nodes, span_total_ns, span_min_ns, span_max_ns,\n"
    "              nodes [{node_id, kind, name, runs, total_ns, min_ns, max_ns}], and where\n"
    "              recorded topology {exec_id, nodes [{id, original_id, type, name}], edges\n"
    "              [[from, to]]}}], topology_warnings and, with --replays, replays\n"
    "              [{launch_ns, graph_id, nodes [{node_id, name, start_ns, dur_ns}]}] (times\n"
    "              from the trace's start)\n"
    "  --replays   every replay too: its launch call and its nodes in the order they ran\n"
    "\n"
    "A graph's topology (strata-cli record's collector writes it when a graph is instantiated)\n"
    "lists every node by the id its kernels carry, with its type and name (host nodes too,\n"
    "which CUPTI does not time), and each edge as \"from -> to\" (to runs after from).\n";

std::string text(const Trace& t, StringId name) {
    return terminalSafe(std::string(t.displayName(name)));
}

// Graph launch calls with no GPU work in the trace.
size_t withoutNodes(const std::vector<GraphReplay>& replays) {
    size_t n = 0;
    for (const GraphReplay& g : replays) n += g.nodes.empty();
    return n;
}

int64_t nodeIdOf(const Trace& t, SliceRef r) {
    const GpuActivity* g = t.gpu(r);
    return g ? g->graphNodeId : -1;
}

// The topology recorded for a graph (matched by its first node's id too: one graph instantiated
// twice has two).
const GraphTopology* topologyOf(const GraphTopologies& all, const GraphStats& s) {
    return findGraphTopology(all, s.graphId, s.nodes.empty() ? -1 : s.nodes.front().nodeId);
}

// A topology node's name as the tables show names: the trace's short name for a kernel it ran,
// the name shortened alike for one it did not (a host node's function).
std::string topologyName(const Trace& t, const std::string& full) {
    if (full.empty()) return "(unnamed)";
    const std::string_view shown = t.displayName(full);
    return terminalSafe(shown != full ? std::string(shown) : shortName(full));
}

// Its nodes in the driver's order, then its edges.
void printTopology(const Trace& t, const GraphTopology& g) {
    std::printf("topology (executable graph %lld): %zu node%s, %zu edge%s\n",
                static_cast<long long>(g.execId), g.nodes.size(), g.nodes.size() == 1 ? "" : "s",
                g.edges.size(), g.edges.size() == 1 ? "" : "s");
    for (const GraphTopologyNode& n : g.nodes) {
        const std::string_view note = untimedNodeNote(n.type);
        const std::string name = topologyName(t, n.name);
        std::printf("%10lld  %-8s %s%s%s\n", static_cast<long long>(n.id),
                    terminalSafe(n.type).c_str(), name.c_str(), note.empty() ? "" : "  (",
                    note.empty() ? "" : (std::string(note) + ")").c_str());
    }
    for (const auto& [from, to] : g.edges)
        std::printf("%10lld -> %lld\n", static_cast<long long>(from), static_cast<long long>(to));
}

void printTable(const Trace& t, const std::vector<GraphReplay>& replays,
                const std::vector<GraphStats>& graphs, const GraphTopologies& topology, bool each) {
    const size_t empty = withoutNodes(replays);
    std::printf("%zu CUDA graph launch%s, %zu graph%s", replays.size(),
                replays.size() == 1 ? "" : "es", graphs.size(), graphs.size() == 1 ? "" : "s");
    if (empty)
        std::printf(" (%zu launch%s with no GPU work recorded)", empty, empty == 1 ? "" : "es");
    std::printf("\n");
    for (const GraphStats& s : graphs) {
        std::printf("\ngraph %s: %llu replay%s of ",
                    s.graphId >= 0 ? std::to_string(s.graphId).c_str() : "(id not recorded)",
                    static_cast<unsigned long long>(s.replays), s.replays == 1 ? "" : "s");
        if (s.fewestNodes == s.mostNodes)
            std::printf("%zu node%s", s.mostNodes, s.mostNodes == 1 ? "" : "s");
        else
            std::printf("%zu to %zu nodes", s.fewestNodes, s.mostNodes);
        std::printf("; span per replay mean %s (min %s, max %s)\n",
                    formatDuration(s.spanTotal / TimeNs(s.replays)).c_str(),
                    formatDuration(s.spanMin).c_str(), formatDuration(s.spanMax).c_str());
        std::printf("%10s  %-8s %6s %12s %12s  %s\n", "node", "kind", "runs", "total", "mean",
                    "name");
        for (const GraphNodeStats& n : s.nodes)
            std::printf("%10s  %-8s %6llu %12s %12s  %s\n",
                        n.nodeId >= 0 ? std::to_string(n.nodeId).c_str() : "-",
                        std::string(sliceKindName(n.kind)).c_str(),
                        static_cast<unsigned long long>(n.runs), formatDuration(n.total).c_str(),
                        formatDuration(n.total / TimeNs(n.runs)).c_str(), text(t, n.name).c_str());
        if (const GraphTopology* g = topologyOf(topology, s)) printTopology(t, *g);
    }
    for (const std::string& w : topology.warnings)
        std::printf("warning: %s\n", terminalSafe(w).c_str());
    if (!each) return;
    const TimeNs origin = t.bounds().start;
    std::printf("\nreplays (times from the trace's start):\n");
    for (const GraphReplay& g : replays) {
        std::printf("%s at %s: %zu node%s\n", std::string(t.name(g.launch)).c_str(),
                    formatPreciseDuration(t.start(g.launch) - origin).c_str(), g.nodes.size(),
                    g.nodes.size() == 1 ? "" : "s");
        for (SliceRef r : g.nodes)
            std::printf("  node %-6s %s for %s  %s\n",
                        nodeIdOf(t, r) >= 0 ? std::to_string(nodeIdOf(t, r)).c_str() : "-",
                        formatPreciseDuration(t.start(r) - origin).c_str(),
                        formatPreciseDuration(t.duration(r)).c_str(),
                        text(t, t.track(r.track).slices.name[r.index]).c_str());
    }
}

nlohmann::json topologyJson(const GraphTopology& g) {
    nlohmann::json j{{"exec_id", g.execId},
                     {"nodes", nlohmann::json::array()},
                     {"edges", nlohmann::json::array()}};
    for (const GraphTopologyNode& n : g.nodes)
        j["nodes"].push_back(
            {{"id", n.id}, {"original_id", n.originalId}, {"type", n.type}, {"name", n.name}});
    for (const auto& [from, to] : g.edges) j["edges"].push_back({from, to});
    return j;
}

nlohmann::json toJson(const Trace& t, const std::vector<GraphReplay>& replays,
                      const std::vector<GraphStats>& graphs, const GraphTopologies& topology,
                      bool each) {
    nlohmann::json j;
    j["launches"] = replays.size();
    j["launches_without_nodes"] = withoutNodes(replays);
    j["graphs"] = nlohmann::json::array();
    for (const GraphStats& s : graphs) {
        nlohmann::json g{{"graph_id", s.graphId},         {"replays", s.replays},
                         {"fewest_nodes", s.fewestNodes}, {"most_nodes", s.mostNodes},
                         {"span_total_ns", s.spanTotal},  {"span_min_ns", s.spanMin},
                         {"span_max_ns", s.spanMax},      {"nodes", nlohmann::json::array()}};
        for (const GraphNodeStats& n : s.nodes)
            g["nodes"].push_back({{"node_id", n.nodeId},
                                  {"kind", std::string(sliceKindName(n.kind))},
                                  {"name", std::string(t.str(n.name))},
                                  {"runs", n.runs},
                                  {"total_ns", n.total},
                                  {"min_ns", n.min},
                                  {"max_ns", n.max}});
        if (const GraphTopology* topo = topologyOf(topology, s))
            g["topology"] = topologyJson(*topo);
        j["graphs"].push_back(std::move(g));
    }
    j["topology_warnings"] = topology.warnings;
    if (!each) return j;
    const TimeNs origin = t.bounds().start;
    j["replays"] = nlohmann::json::array();
    for (const GraphReplay& g : replays) {
        nlohmann::json r{{"launch_ns", t.start(g.launch) - origin},
                         {"graph_id", g.graphId},
                         {"nodes", nlohmann::json::array()}};
        for (SliceRef n : g.nodes)
            r["nodes"].push_back({{"node_id", nodeIdOf(t, n)},
                                  {"name", std::string(t.name(n))},
                                  {"start_ns", t.start(n) - origin},
                                  {"dur_ns", t.duration(n)}});
        j["replays"].push_back(std::move(r));
    }
    return j;
}

} // namespace

namespace strata::cli {

int graphs(const Args& args) {
    bool json = false, each = false;
    std::vector<std::string> files;
    CommandLine line("graphs", kUsage);
    line.flag("--json", &json).flag("--replays", &each).files(&files, 1, 1);
    if (const auto exit = line.parse(args)) return *exit;
    const std::string& file = files.front();
    double loadMs = 0;
    const std::shared_ptr<const Trace> trace = loadTraceOrSay("graphs", file, &loadMs);
    if (!trace) return 1;
    const std::vector<GraphReplay> replays = graphReplays(*trace);
    const std::vector<GraphStats> stats = graphStats(*trace, replays);
    const GraphTopologies topology = graphTopologies(*trace);
    if (json) {
        nlohmann::json j = toJson(*trace, replays, stats, topology, each);
        j["file"] = file;
        j["load_ms"] = loadMs;
        printJson(j);
        return 0;
    }
    std::printf("%s: ", terminalSafe(file).c_str());
    printTable(*trace, replays, stats, topology, each);
    return 0;
}

} // namespace strata::cli
