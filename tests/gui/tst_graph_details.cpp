// A CUDA graph replay in the Details dock (issue 51): a cudaGraphLaunch [1 us, 3 us) with
// correlation 5 replays graph 7, whose nodes 11, 12, 13 ran [5, 13), [15, 23), [25, 33) us on
// stream 9 (written here in reverse order). The launch shows its replay: graph 7, 3 nodes, GPU span
// 28 us, 4 us from the launch's start to the first node, each node linked in the order it ran;
// a node shows the same replay, itself marked, its launch linked once.
// The graph's topology as the collector records it (cuda_graph_exec_3: a diamond, scale 11 ->
// {bias 12, host node 14 "step(void*)"} -> relu 13): the launch shows its size and the host node
// it has no slice for; a node the nodes it runs after and before, linked to their runs.
#include "io/strata/strata_trace_writer.h"
#include "io/trace_loader.h"
#include "panels/details_panel.h"
#include "support/slice_lookup.h"
#include "support/test_main.h"
#include "workspace/navigation.h"
#include "workspace/workspace.h"

#include <QTemporaryDir>
#include <QTreeWidgetItem>
#include <QtTest>

using namespace strata;

namespace {

std::shared_ptr<const Trace> graphTrace(const QString& path) {
    StrataTraceWriter w;
    std::string error;
    if (!w.open(path.toStdString(), &error)) return nullptr;
    const uint32_t launch = w.string("cudaGraphLaunch");
    const uint32_t names[3] = {w.string("scale"), w.string("bias"), w.string("relu")};
    w.cpuSlice(1, 1, 1000, 3000, launch, SliceKind::CudaRuntime, 5, 0);
    w.metadata("cuda_graph_exec_3",
               R"j({"graph_id":7,"exec_id":3,"nodes":[)j"
               R"j({"id":11,"original_id":1,"type":"kernel","name":"scale"},)j"
               R"j({"id":12,"original_id":2,"type":"kernel","name":"bias"},)j"
               R"j({"id":13,"original_id":3,"type":"kernel","name":"relu"},)j"
               R"j({"id":14,"original_id":4,"type":"host","name":"step(void*)"}],)j"
               R"j("edges":[[11,12],[11,14],[12,13],[14,13]]})j");
    for (int k = 2; k >= 0; --k) {
        GpuActivity g;
        g.device = 0;
        g.stream = 9;
        g.graphId = 7;
        g.graphNodeId = 11 + k;
        w.gpuOp(5000 + 10000 * k, 13000 + 10000 * k, names[k], SliceKind::Kernel, g, 5);
    }
    w.close();
    return loadTrace(path.toStdString()).trace;
}

// The rows of a section: field -> (value, link target).
QList<std::pair<QString, QString>> rows(const DetailsPanel& d, const QString& section) {
    QList<std::pair<QString, QString>> out;
    auto* tree = d.findChild<QTreeWidget*>();
    for (int i = 0; tree && i < tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem* s = tree->topLevelItem(i);
        if (s->text(0) != section) continue;
        for (int j = 0; j < s->childCount(); ++j)
            out.push_back({s->child(j)->text(0), s->child(j)->text(1)});
    }
    return out;
}

} // namespace

// The trace in a workspace with a Details dock on it.
struct DetailsOn {
    explicit DetailsOn(const QString& path) : trace(graphTrace(path)) {
        if (trace) ws.showTrace(trace, "graph");
    }
    std::shared_ptr<const Trace> trace;
    Workspace ws;
    Navigation nav{&ws};
    DetailsPanel details{&ws, &nav};
};

class TestGraphDetails : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void launchShowsItsReplay() {
        DetailsOn shown(dir_.filePath(QStringLiteral("graph.strata")));
        QVERIFY(shown.trace);
        const Trace& t = *shown.trace;
        DetailsPanel& details = shown.details;
        const SliceRef launch = test::sliceNamed(t, "cudaGraphLaunch");
        details.showSlice(launch);
        const QString replay = QStringLiteral("CUDA graph replay");
        const QString us = QString::fromUtf8("\u00b5s");
        QCOMPARE(rows(details, replay),
                 (QList<std::pair<QString, QString>>{
                     {"Graph", "7"},
                     {"Nodes", "3"},
                     {"GPU span", "28 " + us},
                     {"Launch to first node", "4 " + us},
                     {"Node 11", QString::fromUtf8("+0 ns \u00b7 scale for 8 ") + us},
                     {"Node 12", QString::fromUtf8("+10 ") + us +
                                     QString::fromUtf8(" \u00b7 bias for 8 ") + us},
                     {"Node 13", QString::fromUtf8("+20 ") + us +
                                     QString::fromUtf8(" \u00b7 relu for 8 ") + us},
                 }));
        // The node links select the nodes; the Correlated section does not list them again.
        QList<SliceRef> targets;
        for (QTreeWidgetItem* item : details.linkItems())
            if (item->parent() && item->parent()->text(0) == replay)
                targets << DetailsPanel::linkTarget(item);
        QCOMPARE(targets,
                 (QList<SliceRef>{test::sliceNamed(t, "scale"), test::sliceNamed(t, "bias"),
                                  test::sliceNamed(t, "relu")}));
        QVERIFY(rows(details, QStringLiteral("Correlated")).isEmpty());
    }

    void nodeShowsItsReplay() {
        DetailsOn shown(dir_.filePath(QStringLiteral("node.strata")));
        QVERIFY(shown.trace);
        const Trace& t = *shown.trace;
        DetailsPanel& details = shown.details;
        details.showSlice(test::sliceNamed(t, "bias"));
        QCOMPARE(details.value(QStringLiteral("Graph node"), QStringLiteral("GPU activity")),
                 QStringLiteral("12"));
        const auto replay = rows(details, QStringLiteral("CUDA graph replay"));
        QCOMPARE(replay.size(), 8);
        QCOMPARE(replay[1].first, QStringLiteral("Launched by"));
        QCOMPARE(replay[6].first, QStringLiteral("Node 12 (this one)"));
        SliceRef launchedBy;
        for (QTreeWidgetItem* item : details.linkItems())
            if (item->text(0) == QStringLiteral("Launched by")) {
                QVERIFY(!launchedBy.valid()); // once
                launchedBy = DetailsPanel::linkTarget(item);
            }
        QCOMPARE(launchedBy, test::sliceNamed(t, "cudaGraphLaunch"));
    }

    void launchShowsTopology() {
        DetailsOn shown(dir_.filePath(QStringLiteral("topology.strata")));
        QVERIFY(shown.trace);
        shown.details.showSlice(test::sliceNamed(*shown.trace, "cudaGraphLaunch"));
        QCOMPARE(rows(shown.details, QStringLiteral("Graph topology")),
                 (QList<std::pair<QString, QString>>{
                     {"Executable graph", "3"},
                     {"Nodes", "4 (3 kernel, 1 host)"},
                     {"Edges", "4"},
                     {"Without a slice",
                      QString::fromUtf8("node 14 \u00b7 host \u00b7 step(void*) (not timed: "
                                        "CUPTI records no host node)")},
                 }));
    }

    void nodeShowsWhatItRunsAfterAndBefore() {
        DetailsOn shown(dir_.filePath(QStringLiteral("neighbours.strata")));
        QVERIFY(shown.trace);
        const Trace& t = *shown.trace;
        DetailsPanel& details = shown.details;
        const QString topology = QStringLiteral("Graph topology");
        const QString dot = QString::fromUtf8(" \u00b7 ");
        details.showSlice(test::sliceNamed(t, "bias"));
        QCOMPARE(rows(details, topology),
                 (QList<std::pair<QString, QString>>{{"Executable graph", "3"},
                                                     {"Nodes", "4 (3 kernel, 1 host)"},
                                                     {"Edges", "4"},
                                                     {"After", "node 11" + dot + "scale"},
                                                     {"Before", "node 13" + dot + "relu"}}));
        // Each neighbour links to its run in this replay.
        QList<SliceRef> targets;
        for (QTreeWidgetItem* item : details.linkItems())
            if (item->parent() && item->parent()->text(0) == topology)
                targets << DetailsPanel::linkTarget(item);
        QCOMPARE(targets,
                 (QList<SliceRef>{test::sliceNamed(t, "scale"), test::sliceNamed(t, "relu")}));

        // relu runs after bias and the host node (not a link: it has no slice); nothing after it.
        details.showSlice(test::sliceNamed(t, "relu"));
        const auto relu = rows(details, topology);
        QCOMPARE(relu.mid(3),
                 (QList<std::pair<QString, QString>>{
                     {"After", "node 12" + dot + "bias"},
                     {"After", "node 14" + dot + "host" + dot +
                                   "step(void*) (not timed: CUPTI records no host node)"},
                     {"Before", QString::fromUtf8("\u2014 (a last node)")}}));
        int links = 0;
        for (QTreeWidgetItem* item : details.linkItems())
            links += item->parent() && item->parent()->text(0) == topology;
        QCOMPARE(links, 1);
    }
};

STRATA_TEST_MAIN(TestGraphDetails)
#include "tst_graph_details.moc"
