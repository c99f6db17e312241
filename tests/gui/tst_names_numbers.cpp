// Names and numbers a user reads (issue 28), on the Qwen/H100 trace of ../shared/traces: the
// Statistics dock's kernels read by their short names (Trace::displayName), none "void ...",
// no two alike, the full name on hover and in CSV; times in 4 significant digits with the exact
// value on hover and the ns in CSV; the advisor's idle summary in 4 significant digits; the
// Range table's number columns as wide as their numbers (never elided); the call tree and the
// timeline's slice labels by the same short names.
#include "analysis/trace_analysis.h"
#include "analysis_views/call_tree_model.h"
#include "analysis_views/call_tree_panel.h"
#include "analysis_views/stats_panel.h"
#include "charts/chart_export.h"
#include "io/trace_loader.h"
#include "model/names/time_text.h"
#include "panels/range_aggregation_model.h"
#include "panels/range_panel.h"
#include "support/test_main.h"
#include "timeline/paint/render_cache.h"
#include "workspace/navigation.h"

#include <QFile>
#include <QHeaderView>
#include <QRegularExpression>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <set>

using namespace strata;

namespace {

const char* kQwen = STRATA_SHARED_TRACES "/tracelens-h100__Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz";

QString text(const QAbstractItemModel* m, int row, int col, int role = Qt::DisplayRole) {
    return m->data(m->index(row, col), role).toString();
}

// "459.1 ms", "1.172 s", "12.35 µs", "850 ns": at most 4 significant digits and a unit.
bool fourDigits(const QString& s) {
    static const QRegularExpression re(
        QStringLiteral("^-?(\\d+|\\d\\.\\d{3}|\\d\\d\\.\\d\\d|\\d{3}\\.\\d) (ns|µs|ms|s)$"));
    if (s.endsWith(" ns")) return QRegularExpression("^\\d{1,3} ns$").match(s).hasMatch();
    return re.match(s).hasMatch();
}

} // namespace

class TestNamesNumbers : public QObject {
    Q_OBJECT
    std::shared_ptr<const Trace> trace_;

private slots:
    void initTestCase() {
        if (!QFile::exists(kQwen)) QSKIP("../shared/traces is absent");
        const LoadResult r = loadTrace(kQwen);
        QVERIFY(r.ok());
        trace_ = r.trace;
    }

    void kernelsTable() {
        Workspace ws;
        Navigation nav(&ws);
        StatsPanel p(&ws, &nav);
        ws.showTrace(trace_, "qwen");
        p.waitForJobs();
        QAbstractItemModel* m = p.kernelsModel();
        QVERIFY(m->rowCount() > 20);
        std::set<QString> shown;
        int elementwise128x4 = 0;
        for (int r = 0; r < m->rowCount(); ++r) {
            const QString name = text(m, r, 0), full = text(m, r, 0, Qt::UserRole);
            QVERIFY2(!name.isEmpty() && !name.startsWith("void"), qPrintable(full));
            QVERIFY2(shown.insert(name).second, qPrintable(name)); // never two alike
            QCOMPARE(text(m, r, 0, Qt::ToolTipRole).remove('\n').remove(' '),
                     QString(full).remove(' ')); // whole, in lines broken at its spaces
            elementwise128x4 += name.startsWith("at::native::elementwise_kernel<128, 4, ");
            // Total (column 4): 4 significant digits, the exact ns on hover and in CSV.
            const double ns = m->data(m->index(r, 4), Qt::UserRole).toDouble();
            QVERIFY2(fourDigits(text(m, r, 4)), qPrintable(text(m, r, 4)));
            QCOMPARE(text(m, r, 4, Qt::ToolTipRole),
                     QString::fromStdString(formatPreciseDuration(TimeNs(ns))));
        }
        // The four elementwise_kernel<128, 4, ...> of this trace, told apart (they read
        // "void at::native::elementwise_kernel<128, 4, ..." alike before).
        QCOMPARE(elementwise128x4, 4);
        // The cutlass GEMM reads by its kernel and configuration.
        QVERIFY(shown.count("cutlass::Kernel2<cutlass_80_simt_sgemm_128x32_8x5_nn_align1>(…)"));
        // CSV: full names and ns.
        QTemporaryDir dir;
        const QString csv = dir.filePath("k.csv");
        QString error;
        QVERIFY2(saveTableCsv(m, csv, &error), qPrintable(error));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray all = f.readAll();
        QVERIFY(all.contains("\"void at::native::elementwise_kernel<128, 4, at::native::"));
        QVERIFY(!all.contains("…"));
    }

    void advisorSummary() {
        // "GPU 0 was idle 8.1 % of its span (4.006 ms of 49.65 ms); 2.521 ms of it in 1683 gaps
        // of 10 µs or less": no nanosecond strings.
        const TraceAnalysis a(trace_);
        bool seen = false;
        for (const Finding& f : a.advice().findings) {
            if (f.rule != "idle") continue;
            seen = true;
            const QString title = QString::fromStdString(f.title);
            static const QRegularExpression re(
                QStringLiteral("^GPU 0 was idle \\d+\\.\\d % of its span \\((.+?) of (.+?)\\)(; "
                               "(.+?) of it .*)?$"));
            const QRegularExpressionMatch mt = re.match(title);
            QVERIFY2(mt.hasMatch(), qPrintable(title));
            QVERIFY2(fourDigits(mt.captured(1)) && fourDigits(mt.captured(2)), qPrintable(title));
            QVERIFY2(mt.captured(4).isEmpty() || fourDigits(mt.captured(4)), qPrintable(title));
        }
        QVERIFY(seen);
    }

    void rangeTableNumbersWhole() {
        Workspace ws;
        Navigation nav(&ws);
        RangePanel p(&ws, &nav);
        p.resize(520, 300); // narrow: the name column gives way, never a number
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        ws.showTrace(trace_, "qwen");
        const TimeRange b = trace_->bounds();
        nav.setSelectedRange(TimeRange{b.start, b.end});
        p.waitForJobs();
        QTest::qWait(50);
        auto* view = p.findChild<QTableView*>();
        QVERIFY(view);
        QAbstractItemModel* m = view->model();
        QVERIFY(m->rowCount() > 10);
        const QFontMetrics fm(view->font());
        for (int c = RangeAggregationModel::Count; c <= RangeAggregationModel::Max; ++c) {
            const int width = view->horizontalHeader()->sectionSize(c);
            for (int r = 0; r < std::min(m->rowCount(), 40); ++r) {
                const QString s = text(m, r, c);
                QVERIFY2(fm.horizontalAdvance(s) < width, qPrintable(s));
                if (c >= RangeAggregationModel::Total) QVERIFY2(fourDigits(s), qPrintable(s));
            }
        }
    }

    void callTreeAndTimelineLabels() {
        Workspace ws;
        Navigation nav(&ws);
        CallTreePanel p(&ws, &nav);
        ws.showTrace(trace_, "qwen");
        p.waitForJobs();
        CallTreeModel* m = p.model();
        QVERIFY(m->rowCount() > 0);
        // Depth first until a name the shortener changes: shown short, whole on hover.
        int checked = 0;
        std::function<void(const QModelIndex&)> walk = [&](const QModelIndex& parent) {
            for (int r = 0; r < m->rowCount(parent) && checked < 200; ++r) {
                const QModelIndex i = m->index(r, CallTreeModel::Name, parent);
                const QString full = m->data(i, Qt::UserRole).toString();
                const QString shown = m->data(i).toString();
                QCOMPARE(shown, QString::fromStdString(
                                    std::string(trace_->displayName(full.toStdString()))));
                // Whole on hover (broken into lines at its spaces).
                QCOMPARE(m->data(i, Qt::ToolTipRole).toString().remove('\n').remove(' '),
                         QString(full).remove(' '));
                ++checked;
                walk(i);
            }
        };
        walk({});
        QVERIFY(checked > 10);
        // The timeline labels a slice by the same short name.
        TimelineRenderCache cache;
        cache.reset(trace_, false);
        const StringId id = trace_->strings().find(
            "void cutlass::Kernel2<cutlass_80_simt_sgemm_128x32_8x5_nn_align1>("
            "cutlass_80_simt_sgemm_128x32_8x5_nn_align1::Params)");
        QVERIFY(id != StringPool::kNotFound);
        QCOMPARE(cache.label(id),
                 QString("cutlass::Kernel2<cutlass_80_simt_sgemm_128x32_8x5_nn_align1>(…)"));
    }
};

STRATA_TEST_MAIN(TestNamesNumbers)
#include "tst_names_numbers.moc"
