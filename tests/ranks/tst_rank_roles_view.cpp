// The Ranks dock's Step roles tab (widgets/ranks/rank_roles_view.h, issue 46) on the eight PARAM
// DLRM ranks (../shared/traces/multirank/param-dlrm/): one bar and one table row per rank, each
// rank's step time, kernel and communication time and comm/compute overlap as the TensorBoard
// plugin's rule gives them on that rank's raw JSON (tests/data/analysis/expected_step_roles.py's
// expected(): one step, ProfilerStep#10, per rank), the roles stacked to the step's length; the
// step choice and the overlap split (computation alone, overlapping, communication alone, other,
// summing to the step too). Skipped where the traces are absent.
#include "ranks/rank_roles_view.h"
#include "ranks/ranks_panel.h"
#include "support/main_window_fixture.h"
#include "support/rank_set_fixture.h"
#include "support/test_main.h"
#include "workspace/rank_set.h"

#include <QAbstractItemModel>
#include <QComboBox>
#include <QHeaderView>
#include <QTabWidget>
#include <QTableView>

#include <qcustomplot.h>

using namespace strata::test;

namespace {

// expected_step_roles.py's expected() on worker0..7 (ns): step, kernel, communication, CPU op,
// overlap, communication (all, for the overlap).
struct Expected {
    TimeNs total, kernel, comm, cpuOp, overlap, commAll;
};
constexpr Expected kRanks[8] = {{14'455'000, 6'571'000, 60'000, 5'444'000, 100'000, 160'000},
                                {18'584'000, 12'106'000, 61'000, 5'222'000, 98'000, 159'000},
                                {13'017'000, 4'285'000, 84'000, 6'025'000, 68'000, 152'000},
                                {18'711'000, 10'514'000, 60'000, 5'785'000, 106'000, 166'000},
                                {17'979'000, 7'676'000, 94'000, 7'448'000, 85'000, 179'000},
                                {17'797'000, 7'252'000, 101'000, 7'552'000, 93'000, 194'000},
                                {13'091'000, 4'340'000, 65'000, 6'093'000, 91'000, 156'000},
                                {12'509'000, 2'639'000, 79'000, 7'182'000, 89'000, 168'000}};

// The height of rank `rank`'s stacked bar (ms): its layers' values at that key, added up.
double barLength(QCustomPlot* chart, int rank) {
    double sum = 0;
    for (int i = 0; i < chart->plottableCount(); ++i)
        if (auto* bars = qobject_cast<QCPBars*>(chart->plottable(i))) {
            const auto it = bars->data()->findBegin(rank, false);
            if (it != bars->data()->constEnd() && it->key == rank) sum += it->value;
        }
    return sum;
}

int barLayers(QCustomPlot* chart) {
    int n = 0;
    for (int i = 0; i < chart->plottableCount(); ++i)
        if (auto* bars = qobject_cast<QCPBars*>(chart->plottable(i));
            bars && bars->dataCount() == 8)
            ++n;
    return n;
}

} // namespace

class TstRankRolesView : public QObject {
    Q_OBJECT
private slots:
    void oneBarPerRank();
};

void TstRankRolesView::oneBarPerRank() {
    REQUIRE_DLRM_FILES(filesStd);
    QStringList files;
    for (const std::string& f : filesStd) files << QString::fromStdString(f);
    MainWindow w(testOptions());
    w.resize(1400, 900);
    QVERIFY(w.openSync(OpenRequest::paths(files)));
    auto* panel = w.panel<RanksPanel>();
    RankRolesView* view = panel->rolesView();
    QCOMPARE(panel->tabs()->tabText(3), QStringLiteral("Step roles"));
    QCOMPARE(panel->tabs()->widget(3), static_cast<QWidget*>(view));

    QCOMPARE(view->rows().size(), size_t(8));
    QCOMPARE(view->model()->rowCount(), 8);
    QCustomPlot* chart = view->chart();
    QCOMPARE(barLayers(chart), kStepRoleCount); // a layer per role, a bar per rank in each
    for (size_t r = 0; r < 8; ++r) {
        const RankRolesView::Row& row = view->rows()[r];
        QCOMPARE(row.rank, QStringLiteral("rank %1").arg(r));
        QCOMPARE(row.sum.steps, size_t(1));
        QCOMPARE(row.sum.total, kRanks[r].total);
        QCOMPARE(row.sum.role[size_t(StepRole::Kernel)], kRanks[r].kernel);
        QCOMPARE(row.sum.role[size_t(StepRole::Communication)], kRanks[r].comm);
        QCOMPARE(row.sum.role[size_t(StepRole::CpuOp)], kRanks[r].cpuOp);
        QCOMPARE(row.sum.overlap, kRanks[r].overlap);
        QCOMPARE(row.sum.communication, kRanks[r].commAll);
        QVERIFY(std::abs(barLength(chart, int(r)) - double(kRanks[r].total) / 1e6) < 1e-9);
    }
    // The table says it as the Steps tab does: rank 1's step time 18.58 ms.
    const QAbstractItemModel* m = view->model();
    QCOMPARE(m->headerData(2, Qt::Horizontal).toString(), QStringLiteral("Step time"));
    QCOMPARE(m->data(m->index(1, 2)).toString(), QStringLiteral("18.58 ms"));

    // One step chosen: each rank's ProfilerStep#10, the same figures (one step per rank).
    QCOMPARE(view->stepChoice()->count(), 2); // all steps, ProfilerStep#10
    view->setStep(QStringLiteral("ProfilerStep#10"));
    QCOMPARE(view->step(), QStringLiteral("ProfilerStep#10"));
    QCOMPARE(view->rows()[7].sum.total, kRanks[7].total);
    QVERIFY(chart->yAxis->label().contains(QStringLiteral("ProfilerStep#10")));
    view->setStep(QStringLiteral("ProfilerStep#99")); // none such: all steps
    QCOMPARE(view->step(), QString());

    // A column's tooltip: the rank, its step time, each role and its share (rank 1's kernel time
    // 12.106 of 18.584 ms: 65.1 %).
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    panel->tabs()->setCurrentIndex(3);
    QTRY_VERIFY(chart->isVisible() && chart->width() > 50);
    chart->replot();
    const QPoint column(int(chart->xAxis->coordToPixel(1)), int(chart->yAxis->coordToPixel(1)));
    const QString tip = view->tipAt(column);
    QVERIFY2(tip.startsWith(QStringLiteral("rank 1: 18.58 ms over 1 step")) &&
                 tip.contains(QStringLiteral("\nkernel: 12.11 ms (65.1%)")),
             qPrintable(tip));

    // Split by overlap: four layers, each bar still the step's length; the table's overlap
    // columns (the model's last four) come first after the step time.
    view->setSplit(RankRolesView::Split::Overlap);
    QCOMPARE(barLayers(chart), 4);
    for (int r = 0; r < 8; ++r)
        QVERIFY(std::abs(barLength(chart, r) - double(kRanks[r].total) / 1e6) < 1e-9);
    QCOMPARE(chart->legend->itemCount(), 4);
    auto* table = view->findChild<QTableView*>(QStringLiteral("rank-roles-table"));
    QVERIFY(table);
    const int columns = m->columnCount();
    QCOMPARE(m->headerData(columns - 4, Qt::Horizontal).toString(), QStringLiteral("Computation"));
    QCOMPARE(table->horizontalHeader()->visualIndex(columns - 4), 3);
    view->setSplit(RankRolesView::Split::Roles);
    QCOMPARE(table->horizontalHeader()->visualIndex(columns - 4), columns - 4);
}

STRATA_TEST_MAIN(TstRankRolesView)
#include "tst_rank_roles_view.moc"
