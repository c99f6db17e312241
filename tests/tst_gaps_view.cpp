// The Gaps dock on the hand-made trace of tst_gap_causes (one gap of each cause, 100 ns each,
// threshold 10 ns): the table cell by cell, the totals per cause, a row click moving the timeline
// there and selecting the launch call, the selected range restricting everything, CSV export.
#include "analysis/gaps_panel.h"
#include "analysis/gaps_table_model.h"
#include "analysis_trace_fixture.h"
#include "charts/chart_export.h"
#include "workspace/navigation.h"

#include <qcustomplot.h>

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace strata;
using strata::test::GpuTraceFixture;

namespace {

// As in tst_gap_causes: K1 [0,100); gap [100,200) launch_bound (late 50); gap [300,400)
// synchronization (cudaDeviceSynchronize ended at 320); gap [500,600) dependency; gap [700,800)
// unattributed. The trace starts at -50 (the first launch call).
std::shared_ptr<const Trace> causesTrace() {
    GpuTraceFixture f;
    f.launch(-50, 10, 1);
    f.kernel(0, 7, 0, 100, "K1", 1);
    f.cpuOp(110, 30, "aten::add");
    f.launch(150, 10, 2);
    f.kernel(0, 7, 200, 100, "K2", 2);
    f.launch(250, 70, -1, "cudaDeviceSynchronize");
    f.launch(350, 10, 3);
    f.kernel(0, 7, 400, 100, "K3", 3);
    f.launch(380, 10, 4);
    f.kernel(0, 7, 600, 100, "K4", 4);
    f.kernel(0, 7, 800, 100, "K5");
    return f.build();
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
        p.setThreshold(10);
        const auto t = causesTrace();
        ws.replaceCurrent(t, "causes");
        p.waitForJobs();
        GapsTableModel* m = p.model();
        QCOMPARE(m->rowCount(), 4);
        // Rows in the analysis' order (by start); times from the trace start (-50).
        QCOMPARE(cell(m, 0, GapsTableModel::Start), QString("150 ns"));
        QCOMPARE(cell(m, 0, GapsTableModel::Length), QString("100 ns"));
        QCOMPARE(cell(m, 0, GapsTableModel::Cause), QString("launch_bound"));
        QCOMPARE(cell(m, 0, GapsTableModel::Late), QString("50 ns"));
        QCOMPARE(cell(m, 0, GapsTableModel::CpuWork),
                 QString("aten::add (30 ns), cudaLaunchKernel (10 ns)"));
        QCOMPARE(cell(m, 1, GapsTableModel::Cause), QString("synchronization"));
        QCOMPARE(cell(m, 1, GapsTableModel::Because), QString("after cudaDeviceSynchronize"));
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
        QCOMPARE(t->start(nav.selectedSlice().slice), TimeNs(150));
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
};

QTEST_MAIN(TestGapsView)
#include "tst_gaps_view.moc"
