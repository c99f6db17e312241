// The Ranks dock's rank x step map (widgets/ranks/step_map.h) on the eight PARAM DLRM ranks
// (../shared/traces/multirank/param-dlrm/), issue 44: coloured by default by how late each rank
// started the step, so the rank the others waited for (rank 7, 7.513 ms late: the step starts
// read off the files, tests/data/ranks/expected_late_starts.py) is the hottest cell and the rank
// that started first (rank 1) the most muted; its cell and its tooltip say "started its step
// 7.513 ms late"; the legend says what the colour means; the choice over the map colours it by
// the wait caused or the step length instead. Skipped where the traces are absent.
#include "ranks/ranks_panel.h"
#include "support/main_window_fixture.h"
#include "support/rank_set_fixture.h"
#include "support/test_main.h"
#include "workspace/rank_set.h"

#include <QComboBox>
#include <QDir>
#include <QTabWidget>

#include <qcustomplot.h>

using namespace strata::test;

namespace {

#define REQUIRE_DLRM(files)                                                                        \
    REQUIRE_DLRM_FILES(files##Std);                                                                \
    QStringList files;                                                                             \
    for (const std::string& f : files##Std) files << QString::fromStdString(f)

// The fill of the map's cell of (step 0, rank), and the texts written over the map.
QColor cellColour(QCustomPlot* map, int rank) {
    for (int i = 0; i < map->itemCount(); ++i)
        if (auto* r = qobject_cast<QCPItemRect*>(map->item(i));
            r && r->brush().style() != Qt::NoBrush &&
            std::abs(r->topLeft->coords().y() - (rank - 0.5)) < 1e-9)
            return r->brush().color();
    return {};
}

QStringList cellTexts(QCustomPlot* map) {
    QStringList out;
    for (int i = 0; i < map->itemCount(); ++i)
        if (auto* t = qobject_cast<QCPItemText*>(map->item(i))) out << t->text();
    return out;
}

QString scaleLabel(QCustomPlot* map) {
    for (int i = 0; i < map->plotLayout()->elementCount(); ++i)
        if (auto* s = qobject_cast<QCPColorScale*>(map->plotLayout()->elementAt(i)))
            return s->label();
    return {};
}

QString title(QCustomPlot* map) {
    for (int i = 0; i < map->plotLayout()->elementCount(); ++i)
        if (auto* t = qobject_cast<QCPTextElement*>(map->plotLayout()->elementAt(i)))
            return t->text();
    return {};
}

// How strongly a cell reads as "late": the gradient runs from a pale grey-blue through orange to
// a deep red, its relative luminance (Rec. 709) falling all the way, so the later the darker.
double heat(const QColor& c) {
    return -(0.2126 * c.red() + 0.7152 * c.green() + 0.0722 * c.blue());
}

} // namespace

class TstStepMap : public QObject {
    Q_OBJECT
private slots:
    void lateStartColoursTheStraggler();
};

void TstStepMap::lateStartColoursTheStraggler() {
    REQUIRE_DLRM(files);
    MainWindow w(testOptions());
    w.resize(1400, 900);
    QVERIFY(w.openSync(OpenRequest::paths(files)));
    auto* panel = w.panel<RanksPanel>();
    QCOMPARE(int(panel->mapColour()), int(StepMapColour::LateStart));
    QCustomPlot* map = panel->stepMap();
    QVERIFY(title(map).contains(QStringLiteral("how late each rank started the step")));
    QCOMPARE(scaleLabel(map), QStringLiteral("started the step late by (ms)"));
    // Rank 7 (7.513 ms late) the hottest cell, rank 1 (first) the most muted; by late start the
    // ranks order 1 < 3 < 4 < 5 < 0 < 6 < 2 < 7, and so does their colours' heat (6 and 2, 12 µs
    // apart, may share a level of the gradient).
    const int order[8] = {1, 3, 4, 5, 0, 6, 2, 7};
    for (int i = 1; i < 8; ++i)
        QVERIFY2(heat(cellColour(map, order[i])) >= heat(cellColour(map, order[i - 1])),
                 qPrintable(QStringLiteral("rank %1 vs rank %2").arg(order[i]).arg(order[i - 1])));
    QCOMPARE(cellColour(map, 7), QColor(165, 15, 21));   // the gradient's hot end
    QCOMPARE(cellColour(map, 1), QColor(214, 224, 235)); // its muted end
    QVERIFY2(cellTexts(map).contains(QStringLiteral("straggler: started its step 7.513 ms late")),
             qPrintable(cellTexts(map).join(" | ")));
    // The late start in the rank x step table, the tooltip over rank 7's cell.
    QCOMPARE(*panel->rankStepRows()[7].lateStart, TimeNs(7'513'000));
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    panel->tabs()->setCurrentIndex(1);
    QTRY_VERIFY(map->isVisible() && map->width() > 50);
    map->replot();
    const QPoint cell(int(map->xAxis->coordToPixel(0)), int(map->yAxis->coordToPixel(7)));
    const QString tip = panel->mapTipAt(cell);
    QVERIFY2(tip.contains(QStringLiteral("started its step 7.513 ms late (after rank 1, the first "
                                         "to start it)")) &&
                 tip.contains(QStringLiteral("the straggler")),
             qPrintable(tip));
    const QPoint first(int(map->xAxis->coordToPixel(0)), int(map->yAxis->coordToPixel(1)));
    QVERIFY2(panel->mapTipAt(first).contains(QStringLiteral("the first rank to start the step")),
             qPrintable(panel->mapTipAt(first)));
    // The choice over the map: by the wait caused, by the step length.
    auto* choice = panel->findChild<QComboBox*>(QStringLiteral("step-map-colour"));
    QVERIFY(choice);
    QCOMPARE(choice->count(), 3);
    panel->setMapColour(StepMapColour::CausedWait);
    QCOMPARE(choice->currentText(), QStringLiteral("wait caused"));
    QCOMPARE(scaleLabel(map), QStringLiteral("the others waited for it (ms)"));
    QCOMPARE(cellColour(map, 7), QColor(165, 15, 21)); // rank 7 caused the most wait too
    panel->setMapColour(StepMapColour::Length);
    QCOMPARE(scaleLabel(map), QStringLiteral("step length × the median rank's"));
    QVERIFY(title(map).contains(QStringLiteral("step length over the median rank's")));
}

STRATA_TEST_MAIN(TstStepMap)
#include "tst_step_map.moc"
