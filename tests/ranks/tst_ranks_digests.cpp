// Rank digests open in the main window as the job's report (workspace/rank_set.h fromDigests,
// MainWindow::showDigestSet): no trace loaded, the Ranks dock on the rank x step map, a rank's
// trace opened in a new window from the map. Skipped where the DLRM ranks are absent.
#include "analysis/json/rank_digest_json.h"
#include "ranks/ranks_panel.h"
#include "support/main_window_fixture.h"
#include "support/rank_set_fixture.h"
#include "support/test_main.h"
#include "workspace/rank_set.h"

#include <QApplication>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>

#include <qcustomplot.h>

using namespace strata::test;

namespace {
constexpr TimeNs kUs = 1000;
} // namespace

class TstRanksDigests : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { initMainWindowTests(); }
    void digestsOpenAsReport();
};

// The digests strata-cli digest makes of the planted-straggler set (plantedStraggler above: rank 2,
// 24161 µs) open as the job's report without a trace: the rank x step map on the Ranks dock's
// Steps tab naming rank 2, the report page saying what is reachable (rank 5's trace removed: 7 of
// 8); a double-click on rank 2's cell of the map opens rank 2's trace in a new window; rank 5's
// asked for is said to be out of reach, naming its path.
void TstRanksDigests::digestsOpenAsReport() {
    const std::vector<std::string> files = dlrmFiles();
    if (files.size() != 8) QSKIP("../shared/traces/multirank/param-dlrm is absent");
    QTemporaryDir dir;
    QStringList digests;
    QString gone;
    for (int r = 0; r < 8; ++r) {
        const auto [start, end] = firstCollective(files[r]); // µs
        const Insertion at{r == 2 ? start : end - 1, 20000};
        const QString trace = dir.filePath(QStringLiteral("rank%1.json").arg(r));
        writeShifted(files[r], trace.toStdString(), 0, at);
        digests << dir.filePath(QStringLiteral("rank%1.json.digest.json").arg(r));
        QFile out(digests.back());
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QByteArray::fromStdString(rankDigestToText(digestFile(trace.toStdString(), r))));
        out.close();
        if (r == 5) {
            gone = trace;
            QVERIFY(QFile::remove(trace));
        }
    }
    MainWindow w(testOptions());
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openSync(OpenRequest::paths(digests)));
    const RankSet* ranks = w.workspace()->ranks();
    QVERIFY(ranks->fromDigests());
    QCOMPARE(ranks->ranks().size(), size_t(8));
    QVERIFY(!w.trace()); // no trace is loaded
    auto* panel = w.panel<RanksPanel>();
    const auto& steps = panel->stepRows();
    QCOMPARE(steps.size(), size_t(1));
    QCOMPARE(steps[0].straggler, QStringLiteral("rank 2"));
    QCOMPARE(steps[0].delay, 24161 * kUs);
    QCOMPARE(panel->tabs()->currentIndex(), 1);
    auto* page = w.findChild<QLabel*>(QStringLiteral("digestPage"));
    QVERIFY(page && page->isVisible());
    QVERIFY2(page->text().contains("8 ranks from their digests") &&
                 page->text().contains("rank 2, 24.16 ms late") &&
                 page->text().contains("7 of the 8 traces"),
             qPrintable(page->text()));

    QSignalSpy asked(panel, &RanksPanel::rankTraceRequested);
    QCustomPlot* map = panel->stepMap();
    QTRY_VERIFY(map->isVisible() && map->width() > 50);
    map->replot();
    const QPoint cell(int(map->xAxis->coordToPixel(0)), int(map->yAxis->coordToPixel(2)));
    QCOMPARE(panel->mapRankAt(cell), std::optional<size_t>(2));
    QTest::mouseDClick(map, Qt::LeftButton, {}, cell);
    QCOMPARE(asked.size(), 1);
    QCOMPARE(asked[0][0].value<size_t>(), size_t(2));
    MainWindow* opened = nullptr;
    QTRY_VERIFY((opened = [&]() -> MainWindow* {
        for (QWidget* top : QApplication::topLevelWidgets())
            if (auto* m = qobject_cast<MainWindow*>(top); m && m != &w && m->trace()) return m;
        return nullptr;
    }()));
    QCOMPARE(QFileInfo(opened->currentFile()).fileName(), QStringLiteral("rank2.json"));
    opened->close();

    emit panel->rankTraceRequested(5);
    QVERIFY2(w.errorText().contains("not reachable") && w.errorText().contains(gone),
             qPrintable(w.errorText()));
}

STRATA_TEST_MAIN(TstRanksDigests)
#include "tst_ranks_digests.moc"
