#include "query_panel.h"

#include "charts/chart_export.h"
#include "charts/sortable_table.h"
#include "query_editor.h"
#include "query_results_model.h"
#include "query_runner.h"
#include "saved_queries.h"
#include "workspace/analyses.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace strata {

namespace {
QString count(uint64_t n) {
    return QLocale::system().toString(qulonglong(n));
}
} // namespace

QueryPanel::QueryPanel(Workspace* workspace, Navigation* navigation, QWidget* parent)
    : TracePanel(workspace, navigation, parent), runner_(new QueryRunner(this)),
      editor_(new QueryEditor(this)), model_(new QueryResultsModel(this)),
      status_(new QLabel(this)) {
    table_ = makeSortableTable(model_, this, false);
    table_->setObjectName(QStringLiteral("queryResults"));
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    table_->setWordWrap(false);
    editor_->setObjectName(QStringLiteral("queryEditor"));
    status_->setObjectName(QStringLiteral("queryStatus"));
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    status_->setWordWrap(true);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(editor_);
    split->addWidget(table_);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(makeToolbar());
    layout->addWidget(split, 1);
    layout->addWidget(status_);

    connect(editor_, &QueryEditor::runRequested, this, &QueryPanel::run);
    connect(runner_, &QueryRunner::columnsReset, this, [this](const QStringList& columns) {
        model_->reset(columns, sliceIdColumn(columns, ranSql_));
        table_->sortByColumn(-1, Qt::AscendingOrder); // the query's own order
    });
    connect(runner_, &QueryRunner::rowsArrived, this, [this](std::vector<QVariant> cells) {
        const bool first = model_->rowCount() == 0;
        model_->append(std::move(cells));
        if (first) fitColumns();
        say(tr("Running… %1 rows").arg(count(runner_->rowsSoFar())));
    });
    connect(runner_, &QueryRunner::finished, this, &QueryPanel::finished);
    connect(runner_, &QueryRunner::exported, this,
            [this](bool ok, const QString& message, uint64_t rows, const QString& path) {
                setRunning(false);
                if (ok)
                    say(tr("%1 rows written to %2").arg(count(rows), path));
                else
                    say(tr("Export CSV: %1").arg(message), true);
            });
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& i) {
                if (i.isValid()) activateRow(i.row(), false);
            });
    connect(table_, &QTableView::doubleClicked, this,
            [this](const QModelIndex& i) { activateRow(i.row(), true); });
    connect(highlight_, &QCheckBox::toggled, this, &QueryPanel::offerHighlights);
    // The gaps table follows the analysis settings: a new engine over the new analysis.
    connect(workspace->analyses(), &Analyses::settingsChanged, this,
            [this] { traceChanged(trace()); });
    setRunning(false);
    traceChanged(trace());
}

QueryPanel::~QueryPanel() = default;

QWidget* QueryPanel::makeToolbar() {
    auto* bar = new QWidget(this);
    run_ = new QPushButton(tr("Run"), bar);
    run_->setToolTip(tr("Run the query (Ctrl+Enter)"));
    stop_ = new QPushButton(tr("Stop"), bar);
    stop_->setToolTip(tr("Stop the query: the rows so far stay"));
    saved_ = new QComboBox(bar);
    saved_->setObjectName(QStringLiteral("savedQueries"));
    saved_->setToolTip(tr("Strata's queries and the ones you saved: choose one to edit and run"));
    saved_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    save_ = new QToolButton(bar);
    save_->setText(tr("Save…"));
    save_->setToolTip(tr("Keep the editor's query under a name (in Strata's settings)"));
    remove_ = new QToolButton(bar);
    remove_->setText(tr("Remove"));
    remove_->setToolTip(tr("Remove the saved query chosen (Strata's own stay)"));
    highlight_ = new QCheckBox(tr("Highlight on timeline"), bar);
    highlight_->setToolTip(tr("Highlight the slice of every row on the timeline"));
    export_ = new QToolButton(bar);
    export_->setText(tr("Export CSV…"));
    export_->setToolTip(tr("Run the query again into a CSV file: every row, not only those shown"));
    auto* row = new QHBoxLayout(bar);
    row->setContentsMargins(2, 2, 2, 2);
    for (QWidget* w : std::initializer_list<QWidget*>{run_, stop_, saved_, save_, remove_})
        row->addWidget(w);
    row->addStretch();
    row->addWidget(highlight_);
    row->addWidget(export_);
    connect(run_, &QPushButton::clicked, this, &QueryPanel::run);
    connect(stop_, &QPushButton::clicked, this, &QueryPanel::stop);
    connect(export_, &QToolButton::clicked, this, &QueryPanel::exportInteractively);
    connect(saved_, &QComboBox::activated, this, [this](int i) {
        if (i > 0) loadSaved(saved_->itemText(i));
        remove_->setEnabled(i > 0 && !saved_->itemData(i).toBool());
    });
    connect(save_, &QToolButton::clicked, this, [this] {
        bool ok = false;
        const QString current = saved_->currentIndex() > 0 ? saved_->currentText() : QString();
        const QString name = QInputDialog::getText(this, tr("Save Query"), tr("Name:"),
                                                   QLineEdit::Normal, current, &ok);
        if (ok && !name.trimmed().isEmpty()) saveAs(name.trimmed());
    });
    connect(remove_, &QToolButton::clicked, this, [this] {
        if (saved_->currentIndex() > 0) removeSaved(saved_->currentText());
    });
    fillSaved();
    return bar;
}

void QueryPanel::fillSaved(const QString& current) {
    const QSignalBlocker block(saved_);
    saved_->clear();
    saved_->addItem(tr("Saved queries"));
    for (const SavedQuery& q : SavedQueries::all()) saved_->addItem(q.name, q.shipped);
    const int i = current.isEmpty() ? 0 : saved_->findText(current);
    saved_->setCurrentIndex(std::max(0, i));
    remove_->setEnabled(i > 0 && !saved_->itemData(i).toBool());
}

bool QueryPanel::loadSaved(const QString& name) {
    for (const SavedQuery& q : SavedQueries::all())
        if (q.name == name) {
            editor_->setPlainText(q.sql);
            fillSaved(name);
            return true;
        }
    return false;
}

void QueryPanel::saveAs(const QString& name) {
    SavedQueries::save(name, editor_->toPlainText());
    fillSaved(name);
}

void QueryPanel::removeSaved(const QString& name) {
    SavedQueries::remove(name);
    fillSaved();
}

void QueryPanel::traceChanged(const std::shared_ptr<const Trace>& trace) {
    const OpenTrace* open = workspace()->currentTrace();
    runner_->setSource(trace, trace ? workspace()->analyses()->current() : nullptr,
                       open ? open->path : QString());
    wordsOffered_ = false;
    if (isVisible()) offerWords();
    model_->clear();
    ranSql_.clear();
    setRunning(false);
    say(trace ? tr("Ctrl+Enter runs the query") : tr("No trace open"));
    offerHighlights();
}

void QueryPanel::showEvent(QShowEvent* e) {
    TracePanel::showEvent(e);
    offerWords();
}

void QueryPanel::offerWords() {
    if (wordsOffered_) return;
    const std::shared_ptr<const QueryEngine> engine = runner_->engine();
    if (!engine) return;
    std::vector<QueryWord> words;
    for (const auto& t : engine->tables()) {
        const QString table = QString::fromUtf8(t->name().data(), qsizetype(t->name().size()));
        words.push_back({table, QString::fromUtf8(t->doc().data(), qsizetype(t->doc().size()))});
        for (const QueryColumn& c : t->columns())
            words.push_back(
                {QString::fromStdString(c.name),
                 tr("%1.%2: %3")
                     .arg(table, QString::fromStdString(c.name), QString::fromStdString(c.doc))});
    }
    editor_->setWords(words);
    wordsOffered_ = true;
}

void QueryPanel::run() {
    if (!runner_->hasSource()) return say(tr("No trace open"), true);
    const QString sql = editor_->toPlainText();
    if (sql.trimmed().isEmpty()) return say(tr("Write a query first"), true);
    offerWords();
    ranSql_ = sql;
    model_->clear();
    offerHighlights();
    setRunning(true);
    say(tr("Running…"));
    runner_->run(sql);
}

void QueryPanel::stop() {
    runner_->stop();
}

void QueryPanel::waitForJobs() {
    runner_->waitForFinished();
}

void QueryPanel::setRunning(bool running) {
    run_->setEnabled(!running && runner_->hasSource());
    stop_->setEnabled(running);
    export_->setEnabled(!running && runner_->hasSource());
}

void QueryPanel::finished(const QueryOutcome& out, uint64_t total, qint64 ms) {
    setRunning(false);
    const QString time =
        ms < 1000 ? tr("%1 ms").arg(ms) : tr("%1 s").arg(double(ms) / 1000, 0, 'f', 2);
    const uint64_t shown = uint64_t(model_->rowCount());
    if (!out.ok && !out.cancelled) {
        if (out.errorOffset >= 0) editor_->moveToByteOffset(out.errorOffset);
        say(tr("Error: %1").arg(QString::fromStdString(out.error)), true);
    } else if (out.cancelled) {
        say(tr("Stopped after %1 rows (%2)").arg(count(total), time), true);
    } else if (out.statements == 0) {
        say(tr("No statement to run"));
    } else if (total > shown) {
        say(tr("First %1 of %2 rows shown — Export CSV for all (%3)")
                .arg(count(shown), count(total), time));
    } else {
        say(tr("%1 row%2 in %3").arg(count(total), total == 1 ? QString() : tr("s"), time));
    }
    if (model_->rowCount() > 0) fitColumns();
    offerHighlights();
}

// Each column as wide as its contents, but none wider than a third of the table: a kernel's
// full name would push every other column out of sight (the cell is elided; hover shows it).
void QueryPanel::fitColumns() {
    table_->resizeColumnsToContents();
    const int most = std::max(120, table_->viewport()->width() / 3);
    for (int c = 0; c < model_->columnCount(); ++c)
        if (table_->columnWidth(c) > most) table_->setColumnWidth(c, most);
}

void QueryPanel::say(const QString& text, bool error) {
    status_->setText(text);
    status_->setStyleSheet(error ? QStringLiteral("color: palette(bright-text); background: "
                                                  "#a33; padding: 2px")
                                 : QStringLiteral("padding: 2px"));
}

QString QueryPanel::statusText() const {
    return status_->text();
}

namespace {
// The slice a query's slice id names in the shown trace (invalid: none).
SliceRef sliceOfId(const Trace* t, const QueryEngine* engine, int64_t id) {
    if (!t || id < 0 || !engine) return {};
    size_t source = 0;
    uint32_t track = 0, index = 0;
    if (!engine->sources().slices().locate(id, &source, &track, &index) || source != 0) return {};
    if (track >= t->tracks().size() || index >= t->track(track).slices.size()) return {};
    return SliceRef{track, index};
}
} // namespace

SliceRef QueryPanel::sliceOf(int row) const {
    return sliceOfId(trace().get(), runner_->engine().get(), model_->sliceId(row));
}

void QueryPanel::activateRow(int row, bool zoom) {
    const SliceRef r = sliceOf(sourceRow(table_, table_->model()->index(row, 0)));
    const std::shared_ptr<const Trace> t = trace();
    if (!r.valid() || !t) return;
    if (zoom) {
        const TimeNs a = t->start(r), b = a + t->duration(r);
        const TimeNs pad = std::max<TimeNs>((b - a) / 10, 1000);
        navigation()->setVisibleRange({a - pad, b + pad});
    }
    navigation()->setSelectedSlice(workspace()->ref(r), true);
}

void QueryPanel::offerHighlights() {
    // Off, and nothing offered before: the timeline's highlight (the find bar's) is left alone.
    if (!highlight_->isChecked() && !highlighting_) return;
    highlighting_ = highlight_->isChecked();
    std::vector<SliceRef> slices;
    if (highlighting_) { // the trace and the engine once for every row
        const std::shared_ptr<const Trace> t = trace();
        const std::shared_ptr<const QueryEngine> engine = runner_->engine();
        for (int row = 0; row < model_->rowCount(); ++row)
            if (const SliceRef r = sliceOfId(t.get(), engine.get(), model_->sliceId(row));
                r.valid())
                slices.push_back(r);
    }
    emit highlightsChanged(slices);
}

void QueryPanel::exportCsv(const QString& path) {
    if (!runner_->hasSource()) return;
    setRunning(true);
    say(tr("Exporting to %1…").arg(path));
    runner_->exportCsv(editor_->toPlainText(), path);
}

void QueryPanel::exportInteractively() {
    // The dialog asks before a file is replaced: only a file the user picked is written.
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Query Results"), QStringLiteral("query.csv"), tableFileFilter());
    if (!path.isEmpty()) exportCsv(path);
}

} // namespace strata
