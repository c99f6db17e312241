// Python call sites in the GUI (issue 45): the Details dock names an API call's and a GPU op's
// call site (a link to the frame), and the Statistics dock groups kernels by it. A hand-made
// Kineto trace, its sites worked out by hand beside each check.
#include "analysis_views/stats_panel.h"
#include "panels/details_panel.h"
#include "support/kineto_json_fixture.h"
#include "support/slice_lookup.h"
#include "support/test_main.h"
#include "workspace/analyses.h"
#include "workspace/navigation.h"

#include <QComboBox>
#include <QTreeWidgetItem>
#include <QtTest>

using namespace strata;
using strata::test::KinetoJson;

namespace {

// Times in µs. Thread 1:
//   train.py(10): main                      [0, 1000)
//     torch/optim/adam.py(100): step        [100, 400)   library
//       cudaLaunchKernel corr 1             [150, 160) -> adam_k [200, 250)
//     model.py(20): forward                 [500, 900)
//       aten::mm (cpu_op)                   [505, 600)
//         cudaLaunchKernel corr 2           [510, 520) -> gemm_k [530, 600)
// Thread 3: cudaLaunchKernel corr 3 [1000, 1010), no Python -> lonely_k [1020, 1030)
std::shared_ptr<const Trace> pythonTrace() {
    KinetoJson j;
    j.x("python_function", "train.py(10): main", 1, 1, 0, 1000);
    j.x("python_function", "torch/optim/adam.py(100): step", 1, 1, 100, 300);
    j.call("cudaLaunchKernel", 1, 150, 10, 1).kernel("adam_k", 200, 50, 1);
    j.x("python_function", "model.py(20): forward", 1, 1, 500, 400);
    j.cpuOp("aten::mm", 1, 505, 95);
    j.call("cudaLaunchKernel", 1, 510, 10, 2).kernel("gemm_k", 530, 70, 2);
    j.call("cudaLaunchKernel", 3, 1000, 10, 3).kernel("lonely_k", 1020, 10, 3);
    return j.load();
}

QString cell(QAbstractItemModel* m, int row, int col) {
    return m->data(m->index(row, col)).toString();
}

} // namespace

class TestPythonCallSites : public QObject {
    Q_OBJECT
private slots:
    void detailsNameTheCallSite() {
        Workspace ws;
        Navigation nav(&ws);
        DetailsPanel details(&ws, &nav);
        const auto trace = pythonTrace();
        QVERIFY(trace);
        ws.showTrace(trace, "python");
        const Trace& t = *trace;
        const QString field = QStringLiteral("Python call site");
        // A kernel through its launch: model.py's frame (aten::mm is no Python frame).
        details.showSlice(test::sliceNamed(t, "gemm_k"));
        QCOMPARE(details.value(field), QStringLiteral("model.py:20 forward"));
        // Under the library's optimizer: the user frame around it.
        details.showSlice(test::sliceNamed(t, "adam_k"));
        QCOMPARE(details.value(field), QStringLiteral("train.py:10 main"));
        // The launch call itself.
        const SliceRef launch = t.launchOf(test::sliceNamed(t, "gemm_k"));
        details.showSlice(launch);
        QCOMPARE(details.value(field), QStringLiteral("model.py:20 forward"));
        // A link: clicking it selects the frame.
        QTreeWidgetItem* link = nullptr;
        for (QTreeWidgetItem* item : details.linkItems())
            if (item->text(0) == field) link = item;
        QVERIFY(link);
        QCOMPARE(DetailsPanel::linkTarget(link), test::sliceNamed(t, "model.py(20): forward"));
        // No Python around the launch, and a slice that is no API call: no row.
        details.showSlice(test::sliceNamed(t, "lonely_k"));
        QCOMPARE(details.value(field), QString());
        details.showSlice(test::sliceNamed(t, "aten::mm"));
        QCOMPARE(details.value(field), QString());
    }

    void statisticsGroupByCallSite() {
        Workspace ws;
        Navigation nav(&ws);
        StatsPanel stats(&ws, &nav);
        ws.showTrace(pythonTrace(), "python");
        auto* grouping = stats.findChild<QComboBox*>(QStringLiteral("kernelGrouping"));
        QVERIFY(grouping);
        QCOMPARE(grouping->count(), 3);
        grouping->setCurrentIndex(grouping->findData(int(StatsPanel::ByCallSite)));
        QCOMPARE(stats.grouping(), StatsPanel::ByCallSite);
        stats.waitForJobs();
        // By total: gemm_k 70 µs (model.py), adam_k 50 µs (train.py), lonely_k 10 µs (none).
        QAbstractItemModel* k = stats.kernelsModel();
        QCOMPARE(k->rowCount(), 3);
        QCOMPARE(cell(k, 0, 0), QStringLiteral("gemm_k"));
        QCOMPARE(cell(k, 0, 1), QStringLiteral("model.py:20 forward"));
        QCOMPARE(cell(k, 1, 0), QStringLiteral("adam_k"));
        QCOMPARE(cell(k, 1, 1), QStringLiteral("train.py:10 main"));
        QCOMPARE(cell(k, 2, 0), QStringLiteral("lonely_k"));
        QCOMPARE(cell(k, 2, 1), QString());
        // Back to the launching op: gemm_k under aten::mm, adam_k under none.
        stats.setGroupByOp(true);
        QCOMPARE(grouping->currentData().toInt(), int(StatsPanel::ByLaunchingOp));
        stats.waitForJobs();
        QCOMPARE(cell(k, 0, 1), QStringLiteral("aten::mm"));
        QCOMPARE(cell(k, 1, 1), QString());
    }
};

STRATA_TEST_MAIN(TestPythonCallSites)
#include "tst_python_call_sites.moc"
