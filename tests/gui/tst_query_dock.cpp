// The Query dock (issue 48) on a real trace (../shared/traces: HTA's MI250 toy training step,
// skipped where it is absent). Expected values from Python's json module over the file:
//   kernels (cat "kernel") with dur > 10 µs, longest first: 4 of them; the longest is
//   "Cijk_Alik_Bljk_SB_Bias_AS_SAV_UserArgs_MT64x16x32_…" at ts 4203669603847.969 µs, dur 17.6 µs,
//   correlation 121; the second "void at::native::reduce_kernel<128, 4, …", 13.6 µs, corr 133.
// The query is typed into the editor and run with Ctrl+Enter; a click on a row selects its
// kernel on the timeline, a double-click shows it; the highlight offers every row's slice; a
// syntax error names its line and column and moves the cursor there; a cross join is stopped;
// Export CSV writes every row as strata-cli query --csv does; saved queries come and go.
#include "query/query_editor.h"
#include "query/query_panel.h"
#include "query/query_results_model.h"
#include "query/query_runner.h"
#include "query/saved_queries.h"
#include "support/main_window_fixture.h"
#include "support/test_files.h"
#include "support/test_main.h"
#include "window/dock_policy.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QPushButton>

using namespace strata;

namespace {

const QString kMi250 =
    QStringLiteral(STRATA_SHARED_TRACES "/hta__mi250_minitoy_train_ROCm6_2_kineto.json.gz");
const char* const kLongest = "Cijk_Alik_Bljk_SB_Bias_AS_SAV_UserArgs_MT64x16x32_MI16x16x1_";
const char* const kQuery = "SELECT id, name, dur, correlation FROM gpu_ops\n"
                           "WHERE kind = 'kernel' AND dur > 10000 ORDER BY dur DESC";

} // namespace

class TestQueryDock : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> w_;
    QueryPanel* p_ = nullptr;
    qlonglong secondId_ = -1; // the id of the query's second row (the reduce kernel)

    // `sql` typed into the editor line by line (Return between lines, the completion's popup
    // closed first), then Ctrl+Enter.
    void runTyped(const QString& sql) {
        p_->editor()->clear();
        p_->editor()->setFocus();
        const QStringList lines = sql.split(QLatin1Char('\n'));
        for (qsizetype i = 0; i < lines.size(); ++i) {
            if (i > 0) QTest::keyClick(p_->editor(), Qt::Key_Return);
            QTest::keyClicks(p_->editor(), lines[i]);
            p_->editor()->completer()->popup()->hide();
        }
        QCOMPARE(p_->editor()->toPlainText(), sql);
        QTest::keyClick(p_->editor(), Qt::Key_Return, Qt::ControlModifier);
    }
    void clickRow(int row, bool twice) {
        QTableView* t = p_->table();
        const QRect r = t->visualRect(t->model()->index(row, 1));
        // A double-click is a click, then the second press (Qt 6's mouseDClick sends the latter).
        QTest::mouseClick(t->viewport(), Qt::LeftButton, {}, r.center());
        if (twice) QTest::mouseDClick(t->viewport(), Qt::LeftButton, {}, r.center());
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        if (!QFile::exists(kMi250)) QSKIP("../shared/traces is absent");
        w_ = std::make_unique<MainWindow>(testOptions());
        w_->resize(1600, 1000);
        QVERIFY(w_->openSync(OpenRequest::trace(kMi250)));
        w_->show();
        QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
        p_ = w_->panel<QueryPanel>();
        QVERIFY(p_);
        w_->docks()->showDock(p_);
        QTRY_VERIFY(p_->isVisible());
    }
    void cleanupTestCase() { w_.reset(); }

    void completesTablesAndColumns() {
        const QStringList words = p_->editor()->words();
        for (const char* w : {"gpu_ops", "api_calls", "slices", "correlation", "launch_id"})
            QVERIFY2(words.contains(QString::fromLatin1(w)), w);
        p_->editor()->clear();
        p_->editor()->setFocus();
        QTest::keyClicks(p_->editor(), "SELECT * FROM gpu_o");
        QCompleter* c = p_->editor()->completer();
        QTRY_VERIFY(c->popup()->isVisible());
        QCOMPARE(c->currentCompletion(), QStringLiteral("gpu_ops"));
        QTest::keyClick(c->popup(), Qt::Key_Tab);
        QCOMPARE(p_->editor()->toPlainText(), QStringLiteral("SELECT * FROM gpu_ops"));
    }

    void runsAndShowsRows() {
        runTyped(QString::fromLatin1(kQuery));
        QTRY_VERIFY(p_->statusText().contains("4 rows"));
        QueryResultsModel* m = p_->model();
        QCOMPARE(m->rowCount(), 4);
        QCOMPARE(m->columns(), QStringList({"id", "name", "dur", "correlation"}));
        QCOMPARE(m->sliceColumn(), 0);
        QVERIFY(m->cell(0, 1).toString().startsWith(kLongest));
        QCOMPARE(m->cell(0, 2).toLongLong(), 17600);
        QCOMPARE(m->cell(0, 3).toLongLong(), 121);
        QVERIFY(m->cell(1, 1).toString().startsWith("void at::native::reduce_kernel<128, 4,"));
        QCOMPARE(m->cell(1, 2).toLongLong(), 13600);
        QCOMPARE(m->cell(1, 3).toLongLong(), 133);
        secondId_ = m->cell(1, 0).toLongLong();
    }

    void rowSelectsItsSliceOnTheTimeline() {
        clickRow(0, false);
        const Trace& t = *w_->trace();
        const TraceSliceRef sel = w_->navigation()->selectedSlice();
        QVERIFY(sel.valid());
        QVERIFY(QString::fromUtf8(t.name(sel.slice).data(), qsizetype(t.name(sel.slice).size()))
                    .startsWith(kLongest));
        QCOMPARE(t.duration(sel.slice), TimeNs(17600));
        QCOMPARE(t.extra(sel.slice)->correlation, int64_t(121));
        // The second row: its kernel; a double-click shows it whole.
        clickRow(1, true);
        const SliceRef second = w_->navigation()->selectedSlice().slice;
        QCOMPARE(t.duration(second), TimeNs(13600));
        QCOMPARE(t.extra(second)->correlation, int64_t(133));
        const TimeRange v = w_->navigation()->visibleRange();
        QVERIFY(v.start <= t.start(second));
        QVERIFY(v.end >= t.start(second) + t.duration(second));
        QVERIFY(v.duration() < 10 * t.duration(second));
    }

    void highlightsEveryRow() {
        QSignalSpy spy(p_, &QueryPanel::highlightsChanged);
        p_->highlightBox()->setChecked(true);
        QCOMPARE(spy.count(), 1);
        const auto slices = spy.at(0).at(0).value<std::vector<SliceRef>>();
        QCOMPARE(slices.size(), size_t(4));
        for (int row = 0; row < 4; ++row)
            QCOMPARE(w_->trace()->duration(p_->sliceOf(row)),
                     p_->model()->cell(row, 2).toLongLong());
        p_->highlightBox()->setChecked(false);
        QCOMPARE(spy.count(), 2);
        QVERIFY(spy.at(1).at(0).value<std::vector<SliceRef>>().empty());
    }

    void syntaxErrorNamesLineAndColumn() {
        // "FROM" of line 2 is its 11th character (two spaces, "count(* ").
        const QString sql = QStringLiteral("SELECT name,\n  count(* FROM gpu_ops");
        runTyped(sql);
        QTRY_VERIFY(p_->statusText().startsWith("Error"));
        QVERIFY2(p_->statusText().contains("line 2, column 11"), qPrintable(p_->statusText()));
        QCOMPARE(p_->editor()->textCursor().position(), int(sql.indexOf("FROM")));
        QCOMPARE(p_->model()->rowCount(), 0);
    }

    void longQueryStops() {
        runTyped(QStringLiteral("SELECT count(*) FROM slices a, slices b, slices c, slices d"));
        QTRY_VERIFY(p_->stopButton()->isEnabled());
        QTest::qWait(200);
        QTest::mouseClick(p_->stopButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(p_->statusText().startsWith("Stopped"), 20000);
        QVERIFY(p_->runButton()->isEnabled());
    }

    // 150,000 rows: the first 100,000 held and shown, the rest counted; the status says so.
    void holdsTheFirstRowsOnly() {
        p_->editor()->setPlainText(
            QStringLiteral("WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n "
                           "WHERE x < 150000) SELECT x FROM n"));
        p_->run();
        QTRY_VERIFY_WITH_TIMEOUT(p_->statusText().startsWith("First"), 20000);
        QCOMPARE(p_->model()->rowCount(), int(QueryRunner::kHeld));
        QCOMPARE(p_->model()->cell(99999, 0).toLongLong(), 100000);
        const QLocale l = QLocale::system();
        QVERIFY2(p_->statusText().contains(l.toString(100000) + " of " + l.toString(150000) +
                                           " rows shown — Export CSV for all"),
                 qPrintable(p_->statusText()));
    }

    void exportsEveryRowAsCsv() {
        QTemporaryDir dir;
        const QString path = dir.filePath("kernels.csv");
        p_->editor()->setPlainText(QString::fromLatin1(kQuery));
        p_->exportCsv(path);
        QTRY_VERIFY(p_->statusText().contains("written"));
        const QByteArray csv =
            QByteArray::fromStdString(strata::test::readAll(QFile::encodeName(path).toStdString()));
        const QList<QByteArray> lines = csv.split('\n');
        QCOMPARE(lines.size(), 6); // header, 4 rows, the empty tail after the last CRLF
        QCOMPARE(lines[0], QByteArray("id,name,dur,correlation\r"));
        QVERIFY(lines[2].startsWith(QByteArray::number(secondId_) +
                                    ",\"void at::native::reduce_kernel<128, 4,"));
        QVERIFY(lines[2].endsWith(",13600,133\r"));
    }

    // Each of Strata's own queries runs on this trace (no error: the schema they name is there).
    void shippedQueriesRun() {
        for (const SavedQuery& q : SavedQueries::shipped()) {
            QVERIFY(p_->loadSaved(q.name));
            p_->run();
            QTRY_VERIFY_WITH_TIMEOUT(p_->runButton()->isEnabled(), 20000);
            QVERIFY2(p_->statusText().contains(QRegularExpression("^\\S+ rows? in ")),
                     qPrintable(q.name + ": " + p_->statusText()));
        }
    }

    void savedQueries() {
        QVERIFY(p_->loadSaved(SavedQueries::shipped()[1].name));
        QVERIFY(p_->editor()->toPlainText().contains("bytes > 1000000"));
        p_->editor()->setPlainText(QStringLiteral("SELECT count(*) FROM gpu_ops"));
        p_->saveAs(QStringLiteral("kernel count"));
        QVERIFY(p_->savedChoice()->findText("kernel count") > 0);
        p_->editor()->clear();
        QVERIFY(p_->loadSaved(QStringLiteral("kernel count")));
        QCOMPARE(p_->editor()->toPlainText(), QStringLiteral("SELECT count(*) FROM gpu_ops"));
        p_->removeSaved(QStringLiteral("kernel count"));
        QCOMPARE(p_->savedChoice()->findText("kernel count"), -1);
        QVERIFY(SavedQueries::user().empty());
    }
};

STRATA_TEST_MAIN(TestQueryDock)
#include "tst_query_dock.moc"
