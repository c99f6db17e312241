// A CUDA graph's topology (issue 51), recorded through the real collector on the stand-in CUPTI
// and the harness's stand-in driver (collector_harness graph_replays; the graph is described in
// collector_harness_graph_driver.h): graph 7, instantiated once as exec 3 whose clones' graph is
// 8, a diamond of kernels A scale 1 -> {B bias 2, host H 4} -> C relu 3, cloned as 11, 12, 14, 13
// (the ids the replays' kernels carry); then replayed 100 times (tst_graph_replays.cpp checks the
// replays). Read back by analysis/graphs/graph_topology.h and strata-cli graphs; a driver query
// that fails is one warning and no topology, the kernels recorded all the same.
#include "analysis/graphs/graph_replays.h"
#include "analysis/graphs/graph_topology.h"
#include "io/strata/strata_trace_writer.h"
#include "support/collector_fixture.h"
#include "support/process_run.h"
#include "support/test_main.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace {

// The record the collector writes for the instantiation, written out by hand.
const char* const kTopology =
    R"j({"graph_id":7,"exec_id":3,"clone_graph_id":8,"nodes":[)j"
    R"j({"id":11,"original_id":1,"type":"kernel","name":"scale(float*)"},)j"
    R"j({"id":12,"original_id":2,"type":"kernel","name":"bias(float*)"},)j"
    R"j({"id":13,"original_id":3,"type":"kernel","name":"relu(float*)"},)j"
    R"j({"id":14,"original_id":4,"type":"host","name":"harness::graphHostStep(void*)"}],)j"
    R"j("edges":[[11,12],[11,14],[12,13],[14,13]]})j";

// The metadata keys of recorded topologies.
QStringList topologyKeys(const Trace& t) {
    QStringList keys;
    for (const auto& [key, value] : t.metadata())
        if (key.starts_with("cuda_graph_exec_")) keys << QString::fromStdString(key);
    return keys;
}

QStringList topologyWarnings(const Trace& t) {
    QStringList out;
    for (const std::string& w : t.warnings())
        if (w.find("CUDA graph topology") != std::string::npos) out << QString::fromStdString(w);
    return out;
}

size_t kernelCount(const Trace& t) {
    size_t n = 0;
    for (const char* name : {"scale(float*)", "bias(float*)", "relu(float*)"})
        n += slicesNamed(t, name).size();
    return n;
}

} // namespace

class TestGraphTopology : public QObject, public CollectorFiles {
    Q_OBJECT
    QString file_;
    std::shared_ptr<const Trace> trace_;

    std::shared_ptr<const Trace> record(const QString& name, const QStringList& env) {
        const QString file = path(name);
        const Run r = runHarness("graph_replays", QStringList{"STRATA_OUTPUT=" + file} + env);
        if (r.status != 0) qWarning("harness: %d %s", r.status, qPrintable(r.stderrText));
        return r.status == 0 ? load(file) : nullptr;
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        file_ = path("topology.strata");
        trace_ = record("topology.strata", {});
        QVERIFY(trace_);
    }

    // One record for the one instantiation, exactly as written above; nothing to warn about.
    void recordedOncePerInstantiation() {
        const Trace& t = *trace_;
        QCOMPARE(topologyKeys(t), QStringList{"cuda_graph_exec_3"});
        QCOMPARE(meta(t, "cuda_graph_exec_3"), QString::fromUtf8(kTopology));
        QCOMPARE(topologyWarnings(t), QStringList{});
    }

    void nodesAndEdges() {
        const std::optional<GraphTopology> g = graphTopology(*trace_, 7);
        QVERIFY(g);
        QCOMPARE(g->graphId, int64_t(7));
        QCOMPARE(g->execId, int64_t(3));
        QCOMPARE(g->cloneGraphId, int64_t(8));
        const int64_t ids[4] = {11, 12, 13, 14}, originals[4] = {1, 2, 3, 4};
        const char* const types[4] = {"kernel", "kernel", "kernel", "host"};
        const char* const names[4] = {"scale(float*)", "bias(float*)", "relu(float*)",
                                      "harness::graphHostStep(void*)"};
        QCOMPARE(g->nodes.size(), size_t(4));
        for (size_t i = 0; i < 4; ++i) {
            QCOMPARE(g->nodes[i].id, ids[i]);
            QCOMPARE(g->nodes[i].originalId, originals[i]);
            QCOMPARE(g->nodes[i].type, std::string(types[i]));
            QCOMPARE(g->nodes[i].name, std::string(names[i]));
        }
        using Edges = std::vector<std::pair<int64_t, int64_t>>;
        QCOMPARE(g->edges, (Edges{{11, 12}, {11, 14}, {12, 13}, {14, 13}}));
        QCOMPARE(g->successors(11), (std::vector<int64_t>{12, 14}));
        QCOMPARE(g->predecessors(13), (std::vector<int64_t>{12, 14}));
        QCOMPARE(g->predecessors(11), std::vector<int64_t>{});
        QCOMPARE(g->successors(13), std::vector<int64_t>{});
        QCOMPARE(g->predecessors(14), std::vector<int64_t>{11});
        // The exec's and the clones' graph ids find it too; other ids do not.
        QCOMPARE(graphTopology(*trace_, 3)->execId, int64_t(3));
        QCOMPARE(graphTopology(*trace_, 8)->execId, int64_t(3));
        QVERIFY(!graphTopology(*trace_, 9));
        QVERIFY(!graphTopology(*trace_, -1));
        QCOMPARE(untimedNodeNote("host"),
                 std::string_view("not timed: CUPTI records no host node"));
        QCOMPARE(untimedNodeNote("kernel"), std::string_view());
    }

    // Every replayed kernel is a kernel node of the topology by its id, with the same name; the
    // host node is the one node no replay has a slice for.
    void replaysMatchTheTopology() {
        const Trace& t = *trace_;
        const std::optional<GraphTopology> g = graphTopology(t, 7);
        QVERIFY(g);
        const std::vector<GraphReplay> replays = graphReplays(t);
        QCOMPARE(replays.size(), size_t(100));
        for (const GraphReplay& r : replays) {
            QCOMPARE(r.nodes.size(), size_t(3));
            for (SliceRef n : r.nodes) {
                const GraphTopologyNode* node = g->node(t.gpu(n)->graphNodeId);
                QVERIFY(node);
                QCOMPARE(node->type, std::string("kernel"));
                QCOMPARE(node->name, std::string(t.name(n)));
            }
        }
        QCOMPARE(g->node(14)->type, std::string("host"));
    }

    // Whether CUPTI's GRAPHEXEC_CREATED names the graph or its clone, the record is the same.
    void execNamingTheClonesGraph() {
        const auto t = record("clone.strata", {"HARNESS_GRAPH_EXEC_GRAPH=clone"});
        QVERIFY(t);
        QCOMPARE(meta(*t, "cuda_graph_exec_3"), QString::fromUtf8(kTopology));
        QCOMPARE(topologyWarnings(*t), QStringList{});
    }

    // cuGraphGetEdges fails: one warning, no topology, the kernels and replays all recorded.
    void edgesRefused() {
        const auto t = record("edges.strata", {"HARNESS_GRAPH_FAIL=edges"});
        QVERIFY(t);
        QCOMPARE(topologyKeys(*t), QStringList{});
        QCOMPARE(topologyWarnings(*t),
                 QStringList{"CUDA graph topology: not recorded: cuGraphGetEdges_v2 failed "
                             "(CUDA error 1)"});
        QCOMPARE(kernelCount(*t), size_t(300));
        QCOMPARE(graphReplays(*t).size(), size_t(100));
        QVERIFY(!graphTopology(*t, 7));
    }

    // The kernel nodes' parameters refused: the topology is recorded with them unnamed, one
    // warning for the three.
    void kernelNamesRefused() {
        const auto t = record("names.strata", {"HARNESS_GRAPH_FAIL=names"});
        QVERIFY(t);
        QCOMPARE(topologyWarnings(*t),
                 QStringList{"CUDA graph topology: a kernel node unnamed: "
                             "cuGraphKernelNodeGetParams_v2 failed (CUDA error 1)"});
        const std::optional<GraphTopology> g = graphTopology(*t, 7);
        QVERIFY(g);
        QCOMPARE(g->nodes.size(), size_t(4));
        for (size_t i = 0; i < 3; ++i) QCOMPARE(g->nodes[i].name, std::string());
        QCOMPARE(g->nodes[3].name, std::string("harness::graphHostStep(void*)"));
        QCOMPARE(g->edges.size(), size_t(4));
        QCOMPARE(kernelCount(*t), size_t(300));
    }

    void cliTextAndJson() {
        const test::ProcessRun table = test::runStrataCli({"graphs", file_});
        QCOMPARE(table.exitCode, 0);
        const QString out = QString::fromUtf8(table.out);
        const QString expected = QString::fromUtf8(
            "topology (executable graph 3): 4 nodes, 4 edges\n"
            "        11  kernel   scale(\u2026)\n"
            "        12  kernel   bias(\u2026)\n"
            "        13  kernel   relu(\u2026)\n"
            "        14  host     harness::graphHostStep(\u2026)  (not timed: CUPTI records no "
            "host node)\n"
            "        11 -> 12\n"
            "        11 -> 14\n"
            "        12 -> 13\n"
            "        14 -> 13\n");
        QVERIFY2(out.contains(expected), qPrintable(out));
        QVERIFY2(!out.contains("warning"), qPrintable(out));

        const test::ProcessRun json = test::runStrataCli({"graphs", "--json", file_});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject j = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(j["topology_warnings"].toArray().size(), 0);
        const QJsonObject topo = j["graphs"].toArray()[0].toObject()["topology"].toObject();
        QCOMPARE(topo["exec_id"].toInt(), 3);
        const QJsonArray nodes = topo["nodes"].toArray();
        QCOMPARE(nodes.size(), 4);
        const QJsonObject host = nodes[3].toObject();
        QCOMPARE(host["id"].toInt(), 14);
        QCOMPARE(host["original_id"].toInt(), 4);
        QCOMPARE(host["type"].toString(), QString("host"));
        QCOMPARE(host["name"].toString(), QString("harness::graphHostStep(void*)"));
        QCOMPARE(nodes[1].toObject()["name"].toString(), QString("bias(float*)"));
        QCOMPARE(QJsonDocument(topo["edges"].toArray()).toJson(QJsonDocument::Compact),
                 QByteArray("[[11,12],[11,14],[12,13],[14,13]]"));
    }

    // Entries that are not topologies, or parts of one that do not read, are left out with a
    // warning; one graph instantiated twice is told apart by the node asked about.
    void lenientReading() {
        const QString file = path("lenient.strata");
        StrataTraceWriter w;
        std::string error;
        QVERIFY(w.open(file.toStdString(), &error));
        w.cpuSlice(1, 1, 1000, 2000, w.string("main"), SliceKind::Generic, -1, 0);
        w.metadata("cuda_graph_exec_1", "not json");
        w.metadata("cuda_graph_exec_2", R"j({"graph_id":5})j");
        w.metadata("cuda_graph_exec_4",
                   R"j({"graph_id":5,"exec_id":4,"nodes":[{"id":21,"type":"kernel"},)j"
                   R"j({"type":"kernel"},"x",{"id":21},{"id":22,"type":"empty"}],)j"
                   R"j("edges":[[21,22],[21],[21,99],"x"]})j");
        w.metadata(
            "cuda_graph_exec_6",
            R"j({"graph_id":5,"exec_id":6,"nodes":[{"id":31,"type":"kernel"}],"edges":[]})j");
        w.close();
        const auto t = load(file);
        QVERIFY(t);
        const GraphTopologies all = graphTopologies(*t);
        QCOMPARE(all.graphs.size(), size_t(2));
        QCOMPARE(all.warnings,
                 (std::vector<std::string>{
                     "cuda_graph_exec_1: not JSON; its graph's topology is left out",
                     "cuda_graph_exec_2: no graph_id, exec_id or nodes; its topology is left out",
                     "cuda_graph_exec_4: 6 node(s) or edge(s) unreadable, left out"}));
        const GraphTopology& four = all.graphs[0];
        QCOMPARE(four.execId, int64_t(4));
        QCOMPARE(four.nodes.size(), size_t(2));
        QCOMPARE(four.nodes[0].originalId, int64_t(-1));
        QCOMPARE(four.edges, (std::vector<std::pair<int64_t, int64_t>>{{21, 22}}));
        QCOMPARE(untimedNodeNote(four.nodes[1].type), std::string_view("no GPU work"));
        QCOMPARE(findGraphTopology(all, 5)->execId, int64_t(4));
        QCOMPARE(findGraphTopology(all, 5, 31)->execId, int64_t(6));
        QCOMPARE(findGraphTopology(all, 5, 77)->execId, int64_t(4));
        QVERIFY(!findGraphTopology(all, 7));
    }
};

STRATA_TEST_GUILESS_MAIN(TestGraphTopology)
#include "tst_graph_topology.moc"
