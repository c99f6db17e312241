#pragma once
// The Query dock (issue 48): SQL over the trace shown (core/query, docs/query.md), as Perfetto
// UI's query page and Nsight users' SQL over the export. An editor with completion of the tables
// and columns (query_editor.h); Run (Ctrl+Enter) runs the query off the GUI thread
// (query_runner.h), Stop cancels it; the rows stream into a sortable table, the first 100,000
// held ("first N of M rows shown — Export CSV for all" past that); Export CSV… runs the query
// again into the file chosen. A row with a slice column (query_results_model.h: the first
// column holding a slice's id) is that slice: a click selects it on the timeline, a
// double-click zooms to it, and "Highlight on timeline" highlights every row's slice (the find
// bar's highlight). The status line says the rows and the time, or the error with its line and
// column (the editor's cursor moved there). Saved queries (saved_queries.h): Strata's own and the
// user's, in the settings.
//
// A rank set is queried as the one merged trace the window shows (its processes and GPUs named
// "rank N: ..."; the rank column is NULL): the ranks' own traces are let go once merged.
#include "workspace/trace_panel.h"

#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QTableView;
class QToolButton;

namespace strata {

class QueryEditor;
class QueryResultsModel;
class QueryRunner;
struct QueryOutcome;

class QueryPanel : public TracePanel {
    Q_OBJECT
public:
    QueryPanel(Workspace* workspace, Navigation* navigation, QWidget* parent = nullptr);
    ~QueryPanel() override;

    QueryEditor* editor() const { return editor_; }
    QTableView* table() const { return table_; }
    QueryResultsModel* model() const { return model_; }
    QPushButton* runButton() const { return run_; }
    QPushButton* stopButton() const { return stop_; }
    QCheckBox* highlightBox() const { return highlight_; }
    QComboBox* savedChoice() const { return saved_; }
    QString statusText() const;
    QueryRunner* runner() const { return runner_; }

    void run();
    void stop();
    void waitForJobs(); // the query under way done and shown (tests, screenshots)
    // Row `row` of the table (sorted view): its slice selected; `zoom`: the timeline shows it.
    void activateRow(int row, bool zoom);
    // The slice of row `row` of the model (its own order); invalid when it has none.
    SliceRef sliceOf(int row) const;
    // Saved queries: the query named `name` into the editor; the editor's query kept as `name`.
    bool loadSaved(const QString& name);
    void saveAs(const QString& name);
    void removeSaved(const QString& name);
    // Runs the editor's query into `path` as CSV (Export CSV… asks for it first).
    void exportCsv(const QString& path);

signals:
    // Every row's slice while "Highlight on timeline" is on; empty otherwise.
    void highlightsChanged(const std::vector<strata::SliceRef>& slices);

protected:
    void traceChanged(const std::shared_ptr<const Trace>& trace) override;
    void showEvent(QShowEvent* e) override;

private:
    void fitColumns();
    QWidget* makeToolbar();
    void fillSaved(const QString& current = {});
    void offerWords();
    void setRunning(bool running);
    void finished(const QueryOutcome& out, uint64_t total, qint64 ms);
    void say(const QString& text, bool error = false);
    void offerHighlights();
    void exportInteractively();

    QueryRunner* runner_;
    QueryEditor* editor_;
    QueryResultsModel* model_;
    QTableView* table_;
    QPushButton* run_;
    QPushButton* stop_;
    QToolButton* export_;
    QComboBox* saved_;
    QToolButton* save_;
    QToolButton* remove_;
    QCheckBox* highlight_;
    QLabel* status_;
    QString ranSql_; // the SQL of the rows shown
    bool wordsOffered_ = false;
    bool highlighting_ = false; // highlights offered to the timeline
};

} // namespace strata
