// The Roofline dock (issue 51) on tests/data/analysis/roofline.json, whose figures are worked out
// by hand in tests/analysis/tst_roofline.cpp: the dock opens with a trace that has per-kernel
// counters and stays shut without; its table (dgemm, copy_kernel, gemm_tile on GPU 0, gemm_tile on
// GPU 1, by time), the chart's ceilings (GPU 0: DRAM, FP64 and FP32; GPU 1 none) and one point per
// kernel that has FLOPs and DRAM traffic (copy_kernel has no FLOP: named as off the chart); a
// click selects the kernel's longest launch (gemm_tile on GPU 0: its 130 µs run at 300 µs).
#include "analysis_views/roofline_panel.h"
#include "support/test_main.h"
#include "window/dock_policy.h"
#include "window/main_window.h"
#include "workspace/navigation.h"
#include "workspace/workspace.h"

#include <qcustomplot.h>

#include <QDockWidget>
#include <QtTest>

using namespace strata;

namespace {

QString cell(const QAbstractItemModel* m, int row, int column) {
    return m->index(row, column).data().toString();
}

MainWindow::Options plain() {
    MainWindow::Options o;
    o.restoreSettings = false;
    return o;
}

} // namespace

class TestRooflinePanel : public QObject {
    Q_OBJECT

private slots:
    void tableChartAndSelection() {
        MainWindow w(plain());
        QString error;
        QVERIFY2(w.openSync(OpenRequest::trace(STRATA_TEST_DATA "/analysis/roofline.json"), &error),
                 qPrintable(error));
        RooflinePanel* p = w.panel<RooflinePanel>();
        QVERIFY(!DockPolicy::dockOf(p)->isHidden()); // opened for what the file holds
        p->waitForJobs();
        const QAbstractItemModel* m = p->model();
        QCOMPARE(m->rowCount(), 4);
        QCOMPARE(cell(m, 0, 0), QStringLiteral("dgemm"));
        QCOMPARE(cell(m, 0, 4), QStringLiteral("FP64"));
        QCOMPARE(cell(m, 0, 7), QStringLiteral("100"));
        QCOMPARE(cell(m, 0, 8), QStringLiteral("20.0 TFLOP/s"));
        QCOMPARE(cell(m, 0, 9), QStringLiteral("79 %"));
        QCOMPARE(cell(m, 0, 10), QStringLiteral("compute"));
        QCOMPARE(cell(m, 1, 0), QStringLiteral("copy_kernel"));
        QCOMPARE(cell(m, 1, 9), QString::fromUtf8("\u2014"));
        QCOMPARE(cell(m, 2, 0), QStringLiteral("gemm_tile"));
        QCOMPARE(cell(m, 2, 2), QStringLiteral("2"));
        QCOMPARE(cell(m, 2, 6), QStringLiteral("220 MB"));
        QCOMPARE(cell(m, 2, 9), QStringLiteral("50 %"));
        QCOMPARE(cell(m, 2, 10), QStringLiteral("memory"));
        QCOMPARE(cell(m, 3, 1), QStringLiteral("1"));
        QCOMPARE(cell(m, 3, 10), QString::fromUtf8("\u2014"));

        const QString summary = p->summaryText();
        QVERIFY2(summary.contains("5 kernel launches measured, 1 without the roofline"),
                 qPrintable(summary));
        QVERIFY2(summary.contains("GPU 0: DRAM 2.00 TB/s, FP64 25.3 TFLOP/s, FP32 50.7 TFLOP/s."),
                 qPrintable(summary));
        QVERIFY2(summary.contains("GPU 1: no ceilings"), qPrintable(summary));
        QVERIFY2(summary.contains("Not on the chart (no FLOP or no DRAM traffic): copy_kernel."),
                 qPrintable(summary));

        // GPU 0: the DRAM diagonal and two compute roofs; then a point for each of the three
        // kernels with FLOPs and bytes.
        QCustomPlot* c = p->chart();
        QCOMPARE(c->graphCount(), 3 + 3);
        QCOMPARE(c->graph(0)->name(), QStringLiteral("GPU 0 DRAM 2.00 TB/s"));
        QCOMPARE(c->graph(1)->name(), QStringLiteral("GPU 0 FP64 25.3 TFLOP/s"));
        QCOMPARE(c->graph(2)->name(), QStringLiteral("GPU 0 FP32 50.7 TFLOP/s"));
        // The FP32 roof starts at its ridge point, 5.0688e13 / 2e12 = 25.344 FLOP/B.
        QCOMPARE(c->graph(2)->data()->at(0)->key, 25.344);
        QCOMPARE(c->graph(3)->data()->at(0)->key, 100.0); // dgemm: intensity, achieved
        QCOMPARE(c->graph(3)->data()->at(0)->value, 2e13);

        // Row 2 (gemm_tile, GPU 0; the table is unsorted): its longest launch is selected.
        p->activateRow(2);
        const TraceSliceRef sel = w.navigation()->selectedSlice();
        QVERIFY(sel.valid());
        QCOMPARE(w.trace()->name(sel.slice), std::string_view("gemm_tile"));
        QCOMPARE(w.trace()->duration(sel.slice), TimeNs(130000));
    }

    void shutWithoutCounters() {
        MainWindow w(plain());
        QString error;
        QVERIFY2(
            w.openSync(OpenRequest::trace(STRATA_TEST_DATA "/analysis/gpu_metrics.json"), &error),
            qPrintable(error));
        RooflinePanel* p = w.panel<RooflinePanel>();
        QVERIFY(DockPolicy::dockOf(p)->isHidden());
        p->waitForJobs();
        QCOMPARE(p->model()->rowCount(), 0);
        QVERIFY(p->summaryText().contains("No kernel here carries per-kernel counters"));
    }
};

STRATA_TEST_MAIN(TestRooflinePanel)
#include "tst_roofline_panel.moc"
