// What the GPU's counters said while a kernel ran, in the Details dock (issue 51), on
// tests/data/analysis/gpu_metrics.json (worked out by hand in tests/analysis/tst_gpu_metric_means):
// k1's first run [100, 200) µs: SM Active 50 over all of it, DRAM Read 1 over 50 of its 100 µs;
// k3 ran on a GPU with no metric row: a note says so. The timeline puts the metric rows under GPU
// 0.
#include "analysis_views/stats_panel.h"
#include "io/trace_loader.h"
#include "model/build/trace_builder.h"
#include "panels/details_panel.h"
#include "support/test_main.h"
#include "timeline/layout/track_layout.h"
#include "workspace/navigation.h"
#include "workspace/workspace.h"

#include <QSortFilterProxyModel>
#include <QTableView>
#include <QtTest>

#include <map>

using namespace strata;

class TestGpuMetricDetails : public QObject {
    Q_OBJECT

    static SliceRef first(const Trace& t, std::string_view name) {
        SliceRef best;
        for (TrackId tr = 0; tr < t.tracks().size(); ++tr)
            for (SliceIndex s = 0; s < t.track(tr).slices.size(); ++s)
                if (t.name({tr, s}) == name && (!best.valid() || t.start({tr, s}) < t.start(best)))
                    best = {tr, s};
        return best;
    }

private slots:
    void kernelShowsItsGpuMetrics() {
        const auto trace = loadTrace(STRATA_TEST_DATA "/analysis/gpu_metrics.json").trace;
        QVERIFY(trace);
        Workspace ws;
        Navigation nav{&ws};
        DetailsPanel details{&ws, &nav};
        ws.showTrace(trace, "metrics");
        const QString section = QStringLiteral("GPU metrics while it ran (mean)");
        const QString us = QString::fromUtf8("\u00b5s");
        details.showSlice(first(*trace, "k1"));
        QCOMPARE(details.value(QStringLiteral("SM Active"), section), QStringLiteral("50"));
        QCOMPARE(details.value(QStringLiteral("DRAM Read"), section),
                 QStringLiteral("1  (over 50 ") + us + QStringLiteral(" of its 100 ") + us +
                     QStringLiteral(")"));
        details.showSlice(first(*trace, "k3"));
        QCOMPARE(details.value(QStringLiteral("Metrics"), section),
                 QStringLiteral("no sample of its GPU while it ran"));
    }

    // The Statistics dock's kernels: each name's means over its runs (k1: SM Active 35 over both
    // runs, DRAM Read 1), a dash for k3; the column is there only with GPU metric rows.
    void statisticsShowTheMeans() {
        Workspace ws;
        Navigation nav(&ws);
        StatsPanel stats(&ws, &nav);
        ws.showTrace(loadTrace(STRATA_TEST_DATA "/analysis/gpu_metrics.json").trace, "metrics");
        stats.waitForJobs();
        QAbstractItemModel* k = stats.kernelsModel();
        const int column = k->columnCount() - 1;
        QCOMPARE(k->headerData(column, Qt::Horizontal).toString(),
                 QStringLiteral("GPU metrics (mean while it ran)"));
        std::map<QString, QString> byKernel;
        for (int row = 0; row < k->rowCount(); ++row)
            byKernel[k->index(row, 0).data().toString()] = k->index(row, column).data().toString();
        QCOMPARE(byKernel, (std::map<QString, QString>{
                               {"k1", QString::fromUtf8("DRAM Read 1 \u00b7 SM Active 35")},
                               {"k2", QStringLiteral("SM Active 60")},
                               {"k3", QString::fromUtf8("\u2014")}}));
        QTableView* table = nullptr; // the kernels' (through its sorting proxy)
        for (QTableView* t : stats.findChildren<QTableView*>()) {
            auto* proxy = qobject_cast<QSortFilterProxyModel*>(t->model());
            if (t->model() == k || (proxy && proxy->sourceModel() == k)) table = t;
        }
        QVERIFY(table);
        QVERIFY(!table->isColumnHidden(column));
        const auto plain =
            loadTrace(STRATA_SHARED_TRACES "/hta__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz")
                .trace;
        QVERIFY(plain);
        ws.showTrace(plain, "no metrics");
        stats.waitForJobs();
        QVERIFY(table->isColumnHidden(column));
    }

    // The collector's memory counter is no metric row: without its memory row it stays with its
    // process, as before GPU metric rows existed.
    void memoryCounterIsNoMetricRow() {
        TraceBuilder b;
        b.addCounter(b.counterTrack(5, b.intern("GPU 0 memory allocated (bytes)")), 0, 1);
        b.addCounter(b.counterTrack(5, b.intern("GPU 0 SM Active")), 0, 1);
        b.addSlice(
            b.gpuStreamTrack(0, 7, 0, 7),
            SliceInput{.start = 0, .dur = 10, .name = b.intern("k"), .kind = SliceKind::Kernel});
        const auto t = b.build();
        TrackLayout layout;
        layout.build(*t);
        std::map<QString, bool> underGpu;
        for (const TrackRow& r : layout.rows())
            if (r.kind == TrackRow::Kind::Counter)
                underGpu[r.label] = layout.groups()[size_t(r.group)].gpu;
        QCOMPARE(underGpu.size(), size_t(2));
        QCOMPARE(underGpu[QStringLiteral("SM Active")], true);
        QVERIFY(underGpu.count(QStringLiteral("GPU 0 memory allocated (bytes)")));
        QCOMPARE(underGpu[QStringLiteral("GPU 0 memory allocated (bytes)")], false);
    }

    // The timeline draws each GPU metric row under its GPU, named by its metric; other counters
    // stay with their process.
    void metricRowsUnderTheirGpu() {
        const auto trace = loadTrace(STRATA_TEST_DATA "/analysis/gpu_metrics.json").trace;
        QVERIFY(trace);
        TrackLayout layout;
        layout.build(*trace);
        std::map<QString, bool> underGpu;
        for (const TrackRow& r : layout.rows())
            if (r.kind == TrackRow::Kind::Counter) {
                const TrackGroup& g = layout.groups()[size_t(r.group)];
                underGpu[r.label] = g.gpu && g.device == 0;
            }
        QCOMPARE(underGpu, (std::map<QString, bool>{
                               {"SM Active", true}, {"DRAM Read", true}, {"Memory used", false}}));
    }
};

STRATA_TEST_MAIN(TestGpuMetricDetails)
#include "tst_gpu_metric_details.moc"
