// An imported timer array is analysed as iterations (issue 28): the Sections dock's figures for a
// hand-made times[section][iteration] array equal strata-cli sections --json and numbers worked out
// by hand; its box plot and iteration chart are over the iterations; the views that need blocks
// and %globaltimer times are not offered and say why.
#include "sections/section_stats_model.h"
#include "sections/section_view_data.h"
#include "sections/sections_panel.h"
#include "support/test_files.h"
#include "support/test_main.h"
#include "window/main_window.h"
#include "window/message_banner.h"
#include "window/window_pages.h"
#include "window/window_status.h"

#include <qcustomplot.h>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace strata;

namespace {

QString cell(QAbstractItemModel* m, int row, int col, int role = Qt::DisplayRole) {
    return m->data(m->index(row, col), role).toString();
}

} // namespace

class TestSectionsArray : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    // An imported times[section][iteration] array (uint64, as clock64() deltas are) gives per
    // section the statistics over its iterations, equal to strata-cli sections --json and to
    // these, worked out by hand (issue 28: the dock gave mean = median = p95 = max = total):
    //   load    2000 1990 2194 1999 1995 2003 1997 2010 1998 2001: total 20187, mean 2018.7;
    //           sorted 1990 1995 1997 1998 1999 | 2000 2001 2003 2010 2194: median 1999.5,
    //           p95 (nearest rank ceil(9.5) = 10) 2194, max 2194
    //   compute 500 nine times and 1500 (iteration 4): total 6000, mean 600, median 500,
    //           p95 1500, max 1500
    //   shares 20187 / 26187 and 6000 / 26187.
    // At 2 GHz every time is half the cycles. The box plot is over the iterations; the heatmap
    // and SM timeline, which need blocks and times, are not offered.
    void arrayStatisticsEqualTheCli() {
        const QString file = dir_.filePath("loop.npy");
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            const std::string b =
                test::npy("<u8", false, "(2, 10)",
                          test::bytesOf<uint64_t>({2000, 1990, 2194, 1999, 1995, 2003, 1997,
                                                   2010, 1998, 2001, 500,  500,  500,  500,
                                                   1500, 500,  500,  500,  500,  500}));
            f.write(b.data(), qint64(b.size()));
        }
        const std::vector<std::vector<double>> hand{
            {10, 20187, 2018.7, 1999.5, 2194, 2194, 20187.0 / 26187},
            {10, 6000, 600, 500, 1500, 1500, 6000.0 / 26187}};
        const int columns[] = {SectionStatsModel::Samples, SectionStatsModel::Blocks,
                               SectionStatsModel::Mean,    SectionStatsModel::Median,
                               SectionStatsModel::P95,     SectionStatsModel::Max,
                               SectionStatsModel::Share};
        const char* keys[] = {"count", "total", "mean", "median", "p95", "max", "share"};
        for (double hz : {0.0, 2e9}) {
            MainWindow::Options o;
            o.restoreSettings = false;
            MainWindow w(o);
            LoadOptions lo;
            lo.sectionNames = {"load", "compute"};
            lo.clockHz = hz;
            QString error;
            QVERIFY2(w.openSync(OpenRequest::trace(file, lo), &error), qPrintable(error));
            SectionsPanel* p = w.panel<SectionsPanel>();
            p->waitForJobs();
            QAbstractItemModel* m = p->statsModel();
            QCOMPARE(m->rowCount(), 2);
            QCOMPARE(m->headerData(SectionStatsModel::Samples, Qt::Horizontal).toString(),
                     QString("Iterations"));
            QCOMPARE(m->headerData(SectionStatsModel::Blocks, Qt::Horizontal).toString(),
                     QString("Total"));
            QStringList args{"sections", "--json", "--names", "load,compute", file};
            if (hz > 0)
                args << "--clock-hz"
                     << "2e9";
            QProcess cli;
            cli.start(STRATA_CLI, args);
            QVERIFY(cli.waitForFinished(30000));
            QCOMPARE(cli.exitCode(), 0);
            const QJsonArray s =
                QJsonDocument::fromJson(cli.readAllStandardOutput()).object()["sections"].toArray();
            QCOMPARE(s.size(), 2);
            for (int r = 0; r < 2; ++r) {
                QCOMPARE(cell(m, r, SectionStatsModel::Name), s[r].toObject()["name"].toString());
                for (int k = 0; k < 7; ++k) {
                    // Times (total to max) at 2 GHz: half the cycles.
                    const bool time = k >= 1 && k <= 5;
                    const double expected = hand[size_t(r)][size_t(k)] * (time && hz ? 0.5 : 1);
                    const double dock = m->data(m->index(r, columns[k]), Qt::UserRole).toDouble();
                    QCOMPARE(dock, expected);
                    QCOMPARE(s[r].toObject()[keys[k]].toDouble(), dock);
                }
            }
            QCOMPARE(cell(m, 0, SectionStatsModel::Median),
                     hz ? QString("999.8 ns") : QString("1\u2009999.5 cycles"));
            QVERIFY(p->view()->perIteration);
            // The box plot: over the 10 iterations (load's median 1999.5 cycles).
            QCustomPlot* box = p->chart(SectionsPanel::BoxTab);
            auto* b = qobject_cast<QCPStatisticalBox*>(box->plottable(0));
            QVERIFY(b);
            QCOMPARE(b->data()->at(0)->median, hz ? 999.75 : 1999.5);
            QCOMPARE(b->data()->at(0)->maximum, hz ? 1005.0 : 2010.0); // 2194 is an outlier
            QVERIFY2(box->xAxis->label().contains("10 iterations"),
                     qPrintable(box->xAxis->label()));
            // Iterations: iteration 2 is load's 2194.
            auto* bars =
                qobject_cast<QCPBars*>(p->chart(SectionsPanel::IterationsTab)->plottable(0));
            QVERIFY(bars);
            QCOMPARE(bars->data()->at(2)->value, hz ? 1097.0 : 2194.0);
            // No heatmap, no SM timeline: the tabs are off and say why.
            auto* tabs = p->findChild<QTabWidget*>();
            QVERIFY(tabs);
            QVERIFY(!tabs->isTabEnabled(SectionsPanel::HeatmapTab));
            QVERIFY(!tabs->isTabEnabled(SectionsPanel::SmTimelineTab));
            QVERIFY(tabs->tabToolTip(SectionsPanel::HeatmapTab).contains("timer array"));
            QVERIFY(tabs->isTabEnabled(SectionsPanel::BoxTab));
        }
    }

    // strata-cli sections' table: the same figures in 4 significant digits (the dock's
    // formatter), worked out by hand from the array above at 2 GHz: load total 20187 / 2 =
    // 10093.5 ns -> "10.09 µs", mean 1009.35 -> "1.009 µs", median 999.75 -> "999.8 ns", p95 and
    // max 1097 -> "1.097 µs"; compute 3000, 300, 250, 750, 750 ns.
    void cliTableInFourDigits() {
        const QString file = dir_.filePath("loop.npy");
        QVERIFY(QFile::exists(file)); // written by arrayStatisticsEqualTheCli
        QProcess cli;
        cli.start(STRATA_CLI, {"sections", "--names", "load,compute", "--clock-hz", "2e9", file});
        QVERIFY(cli.waitForFinished(30000));
        QCOMPARE(cli.exitCode(), 0);
        const QStringList lines = QString::fromUtf8(cli.readAllStandardOutput()).split('\n');
        QVERIFY(lines.size() >= 5);
        QCOMPARE(lines[0], QString("loop.npy: a timer array of 10 iterations, values in ns "
                                   "(clock 2e+09 Hz)"));
        const QStringList load = lines[3].split(' ', Qt::SkipEmptyParts);
        const QStringList compute = lines[4].split(' ', Qt::SkipEmptyParts);
        QCOMPARE(load,
                 QString("load 10 10.09 µs 1.009 µs 999.8 ns 1.097 µs 1.097 µs 77.1%").split(' '));
        QCOMPARE(compute,
                 QString("compute 10 3.000 µs 300 ns 250 ns 750 ns 750 ns 22.9%").split(' '));
    }
};

STRATA_TEST_MAIN(TestSectionsArray)
#include "tst_sections_array.moc"
