// The Gaps dock on the hand-made trace of tst_gap_causes (one gap of four causes, 100 ns each,
// threshold 10 ns): the table cell by cell, the totals per cause, a row click moving the timeline
// there and selecting the launch call, the selected range restricting everything, CSV export.
#include "analysis/ops/gpu_ops.h"
#include "analysis_views/call_tree_model.h"
#include "analysis_views/call_tree_panel.h"
#include "analysis_views/clock_notice.h"
#include "analysis_views/flame_graph.h"
#include "analysis_views/gaps_panel.h"
#include "analysis_views/gaps_table_model.h"
#include "analysis_views/gpu_time_view.h"
#include "analysis_views/stats_panel.h"
#include "analysis_views/step_roles_view.h"
#include "charts/chart_export.h"
#include "support/analysis_trace_fixture.h"
#include "support/test_main.h"
#include "timeline/layout/track_layout.h"
#include "timeline/paint/gpu_utilisation.h"
#include "timeline/paint/queue_rows.h"
#include "timeline/timeline_view.h"
#include "workspace/analyses.h"
#include "workspace/navigation.h"

#include <qcustomplot.h>

#include <QAbstractItemModelTester>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace strata;
using strata::test::GpuTraceFixture;

namespace {

// One gap of each cause, 100 ns each (analysis_trace_fixture.h: gapCausesTrace); the trace starts
// at -50 (the first launch call).
std::shared_ptr<const Trace> causesTrace() {
    return strata::test::gapCausesTrace();
}

QString cell(QAbstractItemModel* m, int row, int col) {
    return m->data(m->index(row, col)).toString();
}

} // namespace

class TestGapsView : public QObject {
    Q_OBJECT
private slots:
    void tableAndTotals() {
        Workspace ws;
        Navigation nav(&ws);
        GapsPanel p(&ws, &nav);
        QAbstractItemModelTester tester(p.model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        ws.analyses()->setGapThreshold(10);
        const auto t = causesTrace();
        ws.showTrace(t, "causes");
        p.waitForJobs();
        GapsTableModel* m = p.model();
        QCOMPARE(m->rowCount(), 4);
        // Rows in the analysis' order (by start); times from the trace start (-50).
        QCOMPARE(cell(m, 0, GapsTableModel::Start), QString("150 ns"));
        QCOMPARE(cell(m, 0, GapsTableModel::Length), QString("100 ns"));
        // Where the gap's time went (gapCausesTrace): aten::add 40, queued 35, untraced 20, the
        // launch call 5.
        QCOMPARE(cell(m, 0, GapsTableModel::Cause), QString("CPU-bound"));
        QCOMPARE(cell(m, 0, GapsTableModel::Late), QString("60 ns"));
        QCOMPARE(cell(m, 0, GapsTableModel::Because), QString("CPU busy: aten::add 40 ns"));
        QCOMPARE(cell(m, 0, GapsTableModel::CpuWork),
                 QString("aten::add 40 ns; queued after the launch returned 35 ns; untraced, "
                         "outside any traced slice 20 ns; cudaLaunchKernel 5 ns"));
        QCOMPARE(cell(m, 1, GapsTableModel::Cause), QString("synchronization"));
        QCOMPARE(cell(m, 1, GapsTableModel::Because),
                 QString("blocked in cudaDeviceSynchronize 70 ns"));
        QCOMPARE(cell(m, 2, GapsTableModel::Cause), QString("dependency"));
        QCOMPARE(cell(m, 2, GapsTableModel::Late), QString("—"));
        QCOMPARE(cell(m, 3, GapsTableModel::Cause), QString("unattributed"));
        QVERIFY2(p.summaryText().contains("4 device gaps over 10 ns</b> (400 ns idle)"),
                 qPrintable(p.summaryText()));
        // A click on the launch-bound gap's row (sorted by length, all 100 ns: the proxy keeps
        // the model's order) moves the timeline around it and selects K2's launch call.
        p.activateRow(0);
        // [100 - 1000, 200 + 1000) (padding of a microsecond), kept inside the trace [-50, 900).
        QCOMPARE(nav.visibleRange().start, TimeNs(-50));
        QCOMPARE(nav.visibleRange().end, TimeNs(900));
        QVERIFY(nav.selectedSlice().valid());
        QCOMPARE(t->start(nav.selectedSlice().slice), TimeNs(160)); // K2's launch [160, 165)
        // The selected range restricts it: [350, 900) holds the ops from K3 on: two gaps.
        nav.setSelectedRange(TimeRange{350, 900});
        p.waitForJobs();
        QCOMPARE(m->rowCount(), 2);
        QCOMPARE(cell(m, 0, GapsTableModel::Cause), QString("dependency"));
        // CSV: numbers in ns.
        QTemporaryDir dir;
        QString error;
        QVERIFY(saveTableCsv(m, dir.filePath("gaps.csv"), &error));
        QFile f(dir.filePath("gaps.csv"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().split('\n');
        QCOMPARE(lines[1].left(21), QByteArray("550,100,dependency,,0"));
        QVERIFY(saveChart(p.causeChart(), dir.filePath("c.svg"), &error));
        QVERIFY(saveChart(p.histogram(), dir.filePath("h.pdf"), &error));
    }

    void statsDockCellByCell() {
        // The trace of tst_op_stats' tablesByHand: aten::mm [0,1000) launching gemm_k twice
        // (100 and 300 ns, latencies 50 and 70, calls 10 and 20), ew_elementwise outside it, two
        // pageable HtoD copies of 1000 bytes in 100 ns each.
        Workspace ws;
        Navigation nav(&ws);
        StatsPanel p(&ws, &nav);
        std::vector<std::unique_ptr<QAbstractItemModelTester>> testers;
        for (QAbstractItemModel* m : {p.kernelsModel(), p.cpuOpsModel(), p.copiesModel(),
                                      p.findingsModel(), p.devicesModel()})
            testers.push_back(std::make_unique<QAbstractItemModelTester>(
                m, QAbstractItemModelTester::FailureReportingMode::QtTest));
        ws.showTrace(strata::test::opStatsTrace(), "ops");
        p.waitForJobs();
        QAbstractItemModel* k = p.kernelsModel();
        QCOMPARE(k->rowCount(), 2);
        QCOMPARE(cell(k, 0, 0), QString("gemm_k"));
        QCOMPARE(cell(k, 0, 2), QString("gemm"));
        QCOMPARE(cell(k, 0, 3), QString("2"));
        QCOMPARE(cell(k, 0, 4), QString("400 ns"));
        QCOMPARE(cell(k, 0, 5), QString("200 ns"));
        QCOMPARE(cell(k, 0, 10), QString("88.9 %")); // 400 / 450
        QCOMPARE(cell(k, 0, 11), QString("60 ns"));
        QCOMPARE(cell(k, 0, 12), QString("15 ns"));
        QAbstractItemModel* c = p.cpuOpsModel();
        QCOMPARE(cell(c, 0, 0), QString("aten::mm"));
        QCOMPARE(cell(c, 0, 2), QString("1.000 µs")); // 4 significant digits
        QCOMPARE(cell(c, 0, 3), QString("970 ns"));
        QCOMPARE(cell(c, 0, 5), QString("400 ns"));
        QAbstractItemModel* m = p.copiesModel();
        QCOMPARE(cell(m, 0, 0), QString("HtoD (pageable)"));
        QCOMPARE(cell(m, 0, 2), QString("2\u2009000"));
        QCOMPARE(cell(m, 0, 4), QString("10.00"));
        // The advisor says pageable copies are there.
        bool pageable = false;
        for (int r = 0; r < p.findingsModel()->rowCount(); ++r)
            pageable = pageable || cell(p.findingsModel(), r, 3) == QString("pageable");
        QVERIFY(pageable);
        // Grouped by the launching op: gemm_k under aten::mm.
        p.setGroupByOp(true);
        p.waitForJobs();
        QCOMPARE(cell(k, 0, 1), QString("aten::mm"));
    }

    // The GPU Time tab (issue 46): gemm [0, 100), an NCCL kernel [50, 200), a copy [150, 260),
    // gemm [400, 500): computation 200, communication 150, exposed [100, 200) 100, memcpy 110,
    // exposed [200, 260) 60, busy 360, span 500, idle 140 (28.0 %); the chart's stacks the same.
    void statsDockGpuTime() {
        GpuTraceFixture f;
        f.kernel(0, 1, 0, 100, "gemm");
        f.kernel(0, 2, 50, 150, "ncclKernel_AllReduce");
        f.memcpy(0, 3, 150, 110);
        f.kernel(0, 1, 400, 100, "gemm");
        // A GPU annotation "fwd" [0, 300) on stream 1: its one op there, the first gemm (100 ns
        // of the device's 360 ns busy: 27.8 %); the other stream's ops are not under it.
        f.op(SliceKind::GpuUserAnnotation, 0, 1, 0, 300, "fwd");
        Workspace ws;
        Navigation nav(&ws);
        StatsPanel p(&ws, &nav);
        QAbstractItemModelTester tester(p.gpuTimeView()->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        ws.showTrace(f.build(), "breakdown");
        p.waitForJobs();
        p.showTab(StatsPanel::GpuTimeTab);
        QAbstractItemModel* m = p.gpuTimeView()->model();
        QCOMPARE(m->rowCount(), 1);
        const QStringList want{"GPU 0",  "0",      "4",     "500 ns", "200 ns", "150 ns",
                               "100 ns", "110 ns", "60 ns", "360 ns", "140 ns", "28.0 %"};
        for (int c = 0; c < want.size(); ++c) QCOMPARE(cell(m, 0, c), want[c]);
        // Each stream's idle as HTA splits it: stream 1's gemms 300 ns apart, no launch found:
        // kernel wait (under 30 µs); streams 2 and 3 have one op each (no interval).
        QAbstractItemModel* idle = p.gpuTimeView()->idleModel();
        QCOMPARE(idle->rowCount(), 3);
        const QStringList stream1{"GPU 0 stream 1", "2", "0 ns", "300 ns", "0 ns", "0.0 %", "1"};
        for (int c = 0; c < stream1.size(); ++c) QCOMPARE(cell(idle, 0, c), stream1[c]);
        QAbstractItemModel* ann = p.gpuTimeView()->annotationsModel();
        QCOMPARE(ann->rowCount(), 1);
        const QStringList fwd{"fwd", "1", "100 ns", "27.8 %", "300 ns"};
        for (int c = 0; c < fwd.size(); ++c) QCOMPARE(cell(ann, 0, c), fwd[c]);
        QCustomPlot* chart = p.gpuTimeView()->chart();
        QCOMPARE(chart->plottableCount(), 4); // computation, exposed comm, exposed memcpy, idle
        const double ms[] = {200e-6, 100e-6, 60e-6, 140e-6};
        for (int i = 0; i < 4; ++i) {
            auto* bars = qobject_cast<QCPBars*>(chart->plottable(i));
            QVERIFY(bars);
            QCOMPARE(bars->data()->size(), 1);
            QVERIFY(qAbs(bars->data()->at(0)->value - ms[i]) < 1e-12);
        }
    }

    // The Steps tab (issue 46): ProfilerStep#1 [0, 1000) with aten::mm [10, 300) and a launch
    // [100, 150) of a kernel [200, 600): kernel 400, runtime 50, CPU op [10, 100) + [150, 200)
    // = 140, other 410; the chart's stacks the same.
    void statsDockSteps() {
        GpuTraceFixture f;
        f.annotation(0, 1000, "ProfilerStep#1");
        f.cpuOp(10, 290);
        f.launch(100, 50, 1);
        f.kernel(0, 7, 200, 400, "k", 1);
        Workspace ws;
        Navigation nav(&ws);
        StatsPanel p(&ws, &nav);
        QAbstractItemModelTester tester(p.stepRolesView()->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        ws.showTrace(f.build(), "steps");
        p.waitForJobs();
        p.showTab(StatsPanel::StepsTab);
        QAbstractItemModel* m = p.stepRolesView()->model();
        QCOMPARE(m->rowCount(), 1);
        const QStringList want{"ProfilerStep#1", "1.000 µs", "400 ns", "0 ns",   "0 ns",
                               "0 ns",           "50 ns",    "0 ns",   "140 ns", "410 ns",
                               "400 ns",         "0 ns",     "0 ns"};
        for (int c = 0; c < want.size(); ++c) QCOMPARE(cell(m, 0, c), want[c]);
        QCustomPlot* chart = p.stepRolesView()->chart();
        QCOMPARE(chart->plottableCount(), 8);
        const double ms[] = {400e-6, 0, 0, 0, 50e-6, 0, 140e-6, 410e-6};
        for (int i = 0; i < 8; ++i) {
            auto* bars = qobject_cast<QCPBars*>(chart->plottable(i));
            QVERIFY(bars);
            QVERIFY(qAbs(bars->data()->at(0)->value - ms[i]) < 1e-12);
        }
    }

    void oneAnalysisForEveryView() {
        // The Gaps and Statistics docks and the timeline read one analysis of the trace: its gap
        // causes are computed once and shared, and the workspace's threshold reaches all three.
        Workspace ws;
        Navigation nav(&ws);
        GapsPanel gaps(&ws, &nav);
        StatsPanel stats(&ws, &nav);
        TimelineView timeline(&ws, &nav);
        ws.analyses()->setGapThreshold(10);
        ws.showTrace(causesTrace(), "causes");
        auto settle = [&] {
            gaps.waitForJobs();
            stats.waitForJobs();
            timeline.waitForGaps();
        };
        settle();
        QVERIFY(gaps.analysis());
        QCOMPARE(gaps.analysis().get(), stats.analysis().get());
        QCOMPARE(gaps.analysis().get(), timeline.gapAnalysis().get());
        QCOMPARE(gaps.analysis().get(), ws.analyses()->current().get());
        QCOMPARE(&gaps.analysis()->gapCauses(), &stats.analysis()->gapCauses());
        QCOMPARE(gaps.model()->rowCount(), 4);
        // 100 ns: the four gaps of 100 ns are not strictly longer; every view follows.
        ws.analyses()->setGapThreshold(100);
        settle();
        QCOMPARE(gaps.model()->rowCount(), 0);
        QCOMPARE(stats.analysis()->settings().gapThreshold, TimeNs(100));
        QCOMPARE(timeline.gapThresholdNs(), TimeNs(100));
        QCOMPARE(gaps.analysis().get(), stats.analysis().get());
        QCOMPARE(gaps.analysis().get(), timeline.gapAnalysis().get());
        // A selected range: both docks read the one analysis of that range; the timeline keeps
        // the whole trace's.
        nav.setSelectedRange(TimeRange{350, 900});
        settle();
        QCOMPARE(gaps.analysis().get(), stats.analysis().get());
        QCOMPARE(gaps.analysis()->range(), (TimeRange{350, 900}));
        QCOMPARE(timeline.gapAnalysis()->range(), wholeTrace());
    }

    void utilisationByHand() {
        // Device 0: [0,100) on stream 7 and [50,150) on stream 8 overlap -> busy [0,150); then
        // [300,400). Busy in [0,400) 250; in [100,350) 50 + 50; in [120,130) 10; device 1 none.
        GpuTraceFixture f;
        f.kernel(0, 7, 0, 100);
        f.kernel(0, 8, 50, 100);
        f.kernel(0, 7, 300, 100);
        const auto t = f.build();
        GpuUtilisation u;
        u.build(collectGpuOps(*t));
        QCOMPARE(u.busyBetween(0, 0, 400), TimeNs(250));
        QCOMPARE(u.busyBetween(0, 100, 350), TimeNs(100));
        QCOMPARE(u.busyBetween(0, 120, 130), TimeNs(10));
        QCOMPARE(u.busyBetween(1, 0, 400), TimeNs(0));
        // The idle row's tooltip (issue 46): span 400, computation 250 (62.5 %), idle 150.
        u.setBreakdown(gpuTimeBreakdown(*t));
        QVERIFY(u.split(0));
        QVERIFY(!u.split(1));
        QCOMPARE(deviceTimeTooltip(0, *u.split(0)),
                 QString("GPU 0: 400 ns from its first op to its last\n"
                         "  computation 250 ns (62.5 %)\n"
                         "  exposed communication 0 ns (0.0 %)\n"
                         "  exposed memcpy 0 ns (0.0 %)\n"
                         "  idle 150 ns (37.5 %)\n"
                         "communication 0 ns in all, memcpy 0 ns (Statistics, GPU Time)"));
        // The layout adds a utilisation row under the device's idle row when asked.
        TrackLayout layout;
        layout.build(*t);
        const auto kinds = [&] {
            std::vector<TrackRow::Kind> k;
            for (const TrackRow& r : layout.rows()) k.push_back(r.kind);
            return k;
        };
        const std::vector<TrackRow::Kind> before = kinds();
        QCOMPARE(std::count(before.begin(), before.end(), TrackRow::Kind::Utilisation), 0);
        layout.setShowUtilisation(true);
        layout.rebuild(*t);
        const auto k = kinds();
        QCOMPARE(k[1], TrackRow::Kind::DeviceIdle);
        QCOMPARE(k[2], TrackRow::Kind::Utilisation);
    }

    // The launch queue rows (issue 46): launches at 0 and 20 of kernels starting at 100 and 250
    // on stream 7: the queue is 1 from 0, 2 from 20, 1 from 100, 0 from 250; most 2, for 80 ns.
    void queueRowsByHand() {
        GpuTraceFixture f;
        f.launch(0, 10, 1);
        f.kernel(0, 7, 100, 100, "a", 1);
        f.launch(20, 10, 2);
        f.kernel(0, 7, 250, 50, "b", 2);
        const auto t = f.build();
        const TimeNs o = t->bounds().start; // the trace's times as built (the first launch: 0)
        QueueRows rows;
        rows.build(launchQueue(*t, collectGpuOps(*t)));
        const StreamQueue* q = rows.stream(0, 7);
        QVERIFY(q);
        QVERIFY(!rows.stream(0, 8));
        QCOMPARE(q->maxLength, int64_t(2));
        QCOMPARE(q->timeAtMax, TimeNs(80));
        QCOMPARE(QueueRows::lengthAt(*q, o - 5), int64_t(0));
        QCOMPARE(QueueRows::lengthAt(*q, o + 50), int64_t(2));
        QCOMPARE(QueueRows::lengthAt(*q, o + 100), int64_t(1));
        QCOMPARE(QueueRows::lengthAt(*q, o + 300), int64_t(0));
        QCOMPARE(queueTooltip(*q, o + 50),
                 QString("launch queue of stream 7: 2 launched, not started\n"
                         "most 2, for 80 ns in all; 2 ops launched (HTA's queue length)"));
        // The layout puts a queue row under the stream's row when asked.
        TrackLayout layout;
        layout.setShowQueues(true);
        layout.build(*t);
        int stream = -1, queue = -1;
        for (int i = 0; i < int(layout.rows().size()); ++i) {
            const TrackRow& r = layout.rows()[size_t(i)];
            if (r.gpuStream && r.stream == 7) stream = i;
            if (r.kind == TrackRow::Kind::Queue) queue = i;
        }
        QVERIFY(stream >= 0);
        QCOMPARE(queue, stream + 1);
        QCOMPARE(layout.rows()[size_t(queue)].device, 0);
        QCOMPARE(layout.rows()[size_t(queue)].stream, int64_t(7));
    }

    void flameGraphAndTree() {
        // A [0,100) > B [10,40); A [200,300) > B [210,260): A total 200, B 80 (40 % of A).
        GpuTraceFixture f;
        f.cpuOp(0, 100, "A");
        f.cpuOp(10, 30, "B");
        f.cpuOp(200, 100, "A");
        f.cpuOp(210, 50, "B");
        Workspace ws;
        Navigation nav(&ws);
        CallTreePanel p(&ws, &nav);
        QAbstractItemModelTester tester(p.model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        ws.showTrace(f.build(), "tree");
        p.waitForJobs();
        QCOMPARE(p.model()->rowCount(), 1);
        const QModelIndex a = p.model()->index(0, 0);
        QCOMPARE(p.model()->data(a).toString(), QString("A"));
        QCOMPARE(p.model()->data(p.model()->index(0, CallTreeModel::Self)).toString(),
                 QString("120 ns"));
        QCOMPARE(p.model()->rowCount(a), 1);
        // The flame graph, 500 px wide: the root row 0, A row 1 full width, B row 2 at 40 %.
        FlameGraph* g = p.flameGraph();
        g->resize(500, 200);
        g->setTree(ws.current(), p.tree());
        const CallTree& t = *p.tree();
        QCOMPARE(t.nodes[g->nodeAt(QPoint(490, 18 + 5))].total, TimeNs(200)); // A
        QCOMPARE(t.nodes[g->nodeAt(QPoint(190, 36 + 5))].total, TimeNs(80));  // B: [0, 200) px
        QCOMPARE(g->nodeAt(QPoint(210, 36 + 5)), UINT32_MAX);                 // A's self time
        g->zoomTo(g->nodeAt(QPoint(190, 36 + 5)));                            // B fills it
        QCOMPARE(t.nodes[g->nodeAt(QPoint(490, 36 + 5))].total, TimeNs(80));
        // Exports: the flame graph as PNG, SVG and PDF; the tree as CSV, depth first.
        QTemporaryDir dir;
        QString error;
        for (const char* ext : {"png", "svg", "pdf"}) {
            const QString out = dir.filePath(QString("flame.%1").arg(ext));
            QVERIFY2(saveWidget(g, out, &error), qPrintable(error));
            QVERIFY(QFileInfo(out).size() > 100);
        }
        QVERIFY(saveTreeCsv(p.model(), dir.filePath("tree.csv"), &error));
        QFile csv(dir.filePath("tree.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csv.readAll().split('\n');
        QCOMPARE(lines[0], QByteArray("depth,Name,Total,Self,Count,GPU launched"));
        QCOMPARE(lines[1], QByteArray("1,A,200,120,2,0")); // A: 2 slices, 200 ns, self 120
        QCOMPARE(lines[2], QByteArray("2,B,80,80,2,0"));
    }

    void clockNoticeOffersTheShift() {
        // Five launches of 5'000 at i ms on an idle GPU, kernel i starting 150 ms + 10'000 i
        // after its call returned (tst_clock_checks' offsetTrace): the status bar's notice says
        // the GPU clock is 150 ms ahead and its button shifts the GPU ops by -150 ms, after
        // which the notice hides (kernel i then starts 10'000 i after its call).
        GpuTraceFixture f;
        for (int i = 0; i < 5; ++i) {
            const TimeNs call = 1'000'000 * TimeNs(i);
            f.launch(call, 5'000, 1 + i);
            f.kernel(0, 7, call + 5'000 + 150'000'000 + 10'000 * i, 100'000, "k", 1 + i);
        }
        Workspace ws;
        Navigation nav(&ws);
        ClockNotice notice(&ws, &nav);
        ws.analyses()->setGapThreshold(10'000);
        ws.showTrace(f.build(), "offset");
        notice.waitForJobs();
        QVERIFY2(
            notice.text().startsWith(QString::fromUtf8("⚠ GPU clock 150.0 ms ahead: 5 launches "
                                                       "on an idle GPU started 150.0 ms")),
            qPrintable(notice.text()));
        QCOMPARE(notice.suggestedShift(), TimeNs(-150'000'000));
        notice.applyShift();
        notice.waitForJobs();
        QVERIFY2(notice.text().isEmpty(), qPrintable(notice.text()));
        QCOMPARE(notice.suggestedShift(), TimeNs(0));
    }
};

STRATA_TEST_MAIN(TestGapsView)
#include "tst_gaps_view.moc"
