// CUDA graph replays node by node (issue 51), recorded through the real collector and the
// stand-in CUPTI (collector_harness graph_replays): graph 7 of three kernel nodes (ids 11, 12,
// 13) replayed 100 times. Replay r: its cudaGraphLaunch at 100 us + 50 us * r (2 us long,
// correlation 1000 + r); its node k (0..2) at launch + 5 us + 10 us * k for 8 us. So each replay
// spans [launch + 5 us, launch + 33 us): 28 us; each node runs 100 times, 800 us in all.
// analysis/graphs/graph_replays.h, and strata-cli graphs on the same file (its table names
// kernels by their short names, as every view does: "bias(…)").
#include "analysis/gaps/gap_checks.h"
#include "analysis/graphs/graph_replays.h"
#include "support/collector_fixture.h"
#include "support/kineto_json_fixture.h"
#include "support/process_run.h"
#include "support/test_main.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

class TestGraphReplays : public QObject, public CollectorFiles {
    Q_OBJECT
    QString file_;
    std::shared_ptr<const Trace> trace_;

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        file_ = path("graphs.strata");
        const Run r = runHarness("graph_replays", {"STRATA_OUTPUT=" + file_});
        QCOMPARE(r.status, 0);
        trace_ = load(file_);
        QVERIFY(trace_);
    }

    void eachReplayHasItsNodes() {
        const Trace& t = *trace_;
        const std::vector<GraphReplay> replays = graphReplays(t);
        QCOMPARE(replays.size(), size_t(100));
        const char* const names[3] = {"scale(float*)", "bias(float*)", "relu(float*)"};
        for (size_t r = 0; r < replays.size(); ++r) {
            const GraphReplay& g = replays[r];
            const TimeNs launch = 100000 + 50000 * TimeNs(r);
            QCOMPARE(t.name(g.launch), std::string_view("cudaGraphLaunch"));
            QCOMPARE(t.start(g.launch), launch);
            QCOMPARE(g.graphId, int64_t(7));
            QCOMPARE(g.nodes.size(), size_t(3));
            for (size_t k = 0; k < 3; ++k) {
                QCOMPARE(t.gpu(g.nodes[k])->graphNodeId, int64_t(11 + k));
                QCOMPARE(t.name(g.nodes[k]), std::string_view(names[k]));
                QCOMPARE(t.start(g.nodes[k]), launch + 5000 + 10000 * TimeNs(k));
            }
            QCOMPARE(g.span.start, launch + 5000);
            QCOMPARE(g.span.end, launch + 33000);
        }
        // From a node, the replay of its launch; a slice of neither kind has none.
        const std::optional<GraphReplay> of = graphReplayOf(t, replays[42].nodes[1]);
        QVERIFY(of);
        QCOMPARE(of->launch, replays[42].launch);
        QCOMPARE(of->nodes, replays[42].nodes);
        QVERIFY(!graphReplayOf(t, SliceRef{}));
        QVERIFY(graphReplayWarnings(t).empty()); // every replay has its three kernels
    }

    void perGraphAndNode() {
        const Trace& t = *trace_;
        const std::vector<GraphStats> stats = graphStats(t, graphReplays(t));
        QCOMPARE(stats.size(), size_t(1));
        const GraphStats& s = stats[0];
        QCOMPARE(s.graphId, int64_t(7));
        QCOMPARE(s.replays, uint64_t(100));
        QCOMPARE(s.fewestNodes, size_t(3));
        QCOMPARE(s.mostNodes, size_t(3));
        QCOMPARE(s.spanTotal, TimeNs(100 * 28000));
        QCOMPARE(s.spanMin, TimeNs(28000));
        QCOMPARE(s.spanMax, TimeNs(28000));
        QCOMPARE(s.nodes.size(), size_t(3));
        for (size_t k = 0; k < 3; ++k) {
            QCOMPARE(s.nodes[k].nodeId, int64_t(11 + k));
            QCOMPARE(s.nodes[k].kind, SliceKind::Kernel);
            QCOMPARE(s.nodes[k].runs, uint64_t(100));
            QCOMPARE(s.nodes[k].total, TimeNs(800000));
            QCOMPARE(s.nodes[k].min, TimeNs(8000));
            QCOMPARE(s.nodes[k].max, TimeNs(8000));
        }
    }

    // A Kineto trace links a replay's kernels to its cudaGraphLaunch by correlation only: no graph
    // or node ids. Two replays [0, 2) and [50, 52) us, each running a [5, 13) and b [15, 23) us
    // after its launch: one graph (id -1), 2 replays of 2 nodes, spans 18 us; nodes told apart
    // by name, each 2 runs of 8 us.
    void kinetoReplaysByName() {
        test::KinetoJson j;
        for (int r = 0; r < 2; ++r)
            j.call("cudaGraphLaunch", 1, 50 * r, 2, 1 + r)
                .kernel("a", 50 * r + 5, 8, 1 + r)
                .kernel("b", 50 * r + 15, 8, 1 + r);
        const auto t = j.load();
        QVERIFY(t);
        const std::vector<GraphStats> stats = graphStats(*t, graphReplays(*t));
        QCOMPARE(stats.size(), size_t(1));
        QCOMPARE(stats[0].graphId, int64_t(-1));
        QCOMPARE(stats[0].replays, uint64_t(2));
        QCOMPARE(stats[0].spanTotal, TimeNs(2 * 18000));
        QCOMPARE(stats[0].nodes.size(), size_t(2));
        QStringList names;
        for (const GraphNodeStats& n : stats[0].nodes) {
            names << QString::fromUtf8(t->str(n.name));
            QCOMPARE(n.nodeId, int64_t(-1));
            QCOMPARE(n.runs, uint64_t(2));
            QCOMPARE(n.total, TimeNs(16000));
        }
        names.sort();
        QCOMPARE(names, (QStringList{"a", "b"}));
    }

    void cliTableAndJson() {
        const test::ProcessRun table = test::runStrataCli({"graphs", file_});
        QCOMPARE(table.exitCode, 0);
        const QString out = QString::fromUtf8(table.out);
        QVERIFY2(out.contains("100 CUDA graph launches, 1 graph\n"), qPrintable(out));
        QVERIFY2(out.contains(QString::fromUtf8("graph 7: 100 replays of 3 nodes; span per replay "
                                                "mean 28.00 µs (min 28.00 µs, max 28.00 µs)")),
                 qPrintable(out));
        QVERIFY2(out.contains(QString::fromUtf8(
                     "        12  kernel      100    800.0 µs    8.000 µs  bias(…)")),
                 qPrintable(out));

        const test::ProcessRun json = test::runStrataCli({"graphs", "--json", "--replays", file_});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject j = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(j["launches"].toInt(), 100);
        QCOMPARE(j["launches_without_nodes"].toInt(), 0);
        const QJsonObject g = j["graphs"].toArray()[0].toObject();
        QCOMPARE(g["graph_id"].toInt(), 7);
        QCOMPARE(g["span_total_ns"].toInteger(), qint64(2800000));
        QCOMPARE(g["nodes"].toArray()[2].toObject()["name"].toString(), QString("relu(float*)"));
        const QJsonArray replays = j["replays"].toArray();
        QCOMPARE(replays.size(), 100);
        const QJsonObject r1 = replays[1].toObject();
        QCOMPARE(r1["launch_ns"].toInteger() - replays[0].toObject()["launch_ns"].toInteger(),
                 qint64(50000));
        const QJsonArray nodes = r1["nodes"].toArray();
        QCOMPARE(nodes.size(), 3);
        for (int k = 0; k < 3; ++k) {
            QCOMPARE(nodes[k].toObject()["node_id"].toInt(), 11 + k);
            QCOMPARE(nodes[k].toObject()["start_ns"].toInteger() - r1["launch_ns"].toInteger(),
                     qint64(5000 + 10000 * k));
            QCOMPARE(nodes[k].toObject()["dur_ns"].toInteger(), qint64(8000));
        }
    }
};

STRATA_TEST_GUILESS_MAIN(TestGraphReplays)
#include "tst_graph_replays.moc"
