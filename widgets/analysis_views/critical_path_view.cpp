#include "critical_path_view.h"

#include "critical_path_rows.h"

#include "charts/chart_export.h"
#include "charts/sortable_table.h"
#include "model/names/time_text.h"
#include "style/qt_text.h"
#include "workspace/job_runner.h"

#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace strata {

namespace {

QString dur(TimeNs ns) {
    return QString::fromStdString(formatDuration(ns));
}

struct Computed {
    std::shared_ptr<const CriticalPath> path;
    qint64 ms = 0;
};

} // namespace

struct CriticalPathView::Models {
    RowTableModel<CpEdgeRow> edges{edgeColumns()};
    RowTableModel<CpBoundRow> bounds{boundColumns()};
    const Trace* stepsOf = nullptr; // the trace the window choices were made for
};

CriticalPathView::CriticalPathView(Workspace* workspace, Navigation* navigation, QWidget* parent)
    : TracePanel(workspace, navigation, parent), choice_(new QComboBox(this)),
      highlight_(new QCheckBox(tr("Highlight on the timeline"), this)), summary_(new QLabel(this)),
      m_(std::make_unique<Models>()), jobs_(new JobRunner(this)), coalesce_(new QTimer(this)) {
    bounds_ = makeSortableTable(&m_->bounds, this, false);
    edges_ = makeSortableTable(&m_->edges, this, false);
    // The names share what the other columns leave (elided, in full on hover).
    for (int c : {2, 3}) edges_->horizontalHeader()->setSectionResizeMode(c, QHeaderView::Stretch);
    choice_->setObjectName(QStringLiteral("criticalPathWindow"));
    choice_->setToolTip(tr("The window whose critical path is shown: a step (HTA's default is the "
                           "first ProfilerStep), the whole trace, or the range selected on the "
                           "timeline"));
    choice_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    highlight_->setChecked(true);
    highlight_->setToolTip(tr("Draw the path's events on the timeline and dim the rest; its "
                              "launch, kernel-to-kernel and sync edges drawn as arrows"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* exportButton = new QToolButton(this);
    exportButton->setText(tr("Export…"));
    exportButton->setToolTip(tr("Export the path's edges, or its time per bound, as CSV"));
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Window:"), this));
    top->addWidget(choice_);
    top->addWidget(highlight_);
    top->addStretch();
    top->addWidget(exportButton);
    split_ = new QSplitter(Qt::Horizontal, this);
    split_->addWidget(bounds_);
    split_->addWidget(edges_);
    split_->setStretchFactor(0, 0);
    split_->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(summary_);
    layout->addWidget(split_, 1);
    coalesce_->setSingleShot(true);
    coalesce_->setInterval(150);
    connect(coalesce_, &QTimer::timeout, this, [this] {
        if (isVisible()) compute();
    });
    connect(choice_, &QComboBox::currentIndexChanged, this, [this] {
        stale_ = true;
        if (isVisible()) compute();
    });
    connect(highlight_, &QCheckBox::toggled, this, &CriticalPathView::offerHighlight);
    connect(edges_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& i) {
                if (i.isValid() && !following_) activateRow(i.row(), false);
            });
    connect(edges_, &QTableView::doubleClicked, this,
            [this](const QModelIndex& i) { activateRow(i.row(), true); });
    connect(exportButton, &QToolButton::clicked, this, &CriticalPathView::exportMenu);
    traceChanged(trace());
}

CriticalPathView::~CriticalPathView() = default;

QAbstractItemModel* CriticalPathView::edgesModel() const {
    return &m_->edges;
}
QAbstractItemModel* CriticalPathView::boundsModel() const {
    return &m_->bounds;
}

void CriticalPathView::fillChoices() {
    const std::shared_ptr<const Trace> t = trace();
    if (m_->stepsOf == t.get() && choice_->count() > 0) return;
    m_->stepsOf = t.get();
    steps_ = t ? findSteps(*t) : std::vector<TraceStep>{};
    const QSignalBlocker block(choice_);
    choice_->clear();
    for (size_t i = 0; i < steps_.size(); ++i)
        choice_->addItem(tr("%1 (%2)").arg(QString::fromStdString(steps_[i].name),
                                           dur(steps_[i].end - steps_[i].start)),
                         int(i));
    choice_->addItem(tr("Whole trace"), kWholeTrace);
    choice_->addItem(tr("Selected range"), kSelectedRange);
    choice_->setCurrentIndex(0); // the first step (HTA's default), else the whole trace
}

void CriticalPathView::setWindow(int choice) {
    fillChoices();
    const int i = choice_->findData(choice);
    if (i >= 0) choice_->setCurrentIndex(i);
}

int CriticalPathView::window() const {
    return choice_->currentData().isValid() ? choice_->currentData().toInt() : kWholeTrace;
}

std::optional<TimeRange> CriticalPathView::chosenWindow(QString* label) const {
    const int c = window();
    if (c >= 0 && size_t(c) < steps_.size()) {
        *label = QString::fromStdString(steps_[size_t(c)].name);
        return TimeRange{steps_[size_t(c)].start, steps_[size_t(c)].end};
    }
    if (c == kSelectedRange) {
        *label = tr("the selected range");
        return navigation()->selectedRange();
    }
    *label = tr("the whole trace");
    const std::shared_ptr<const Trace> t = trace(); // its bounds: every event starts in them
    return t ? std::optional<TimeRange>(t->bounds()) : std::nullopt;
}

void CriticalPathView::compute() {
    fillChoices();
    stale_ = false;
    const std::shared_ptr<const Trace> t = trace();
    QString label;
    const std::optional<TimeRange> w = t ? chosenWindow(&label) : std::nullopt;
    if (!t || !w) {
        jobs_->cancel();
        show(nullptr, 0, label);
        return;
    }
    summary_->setText(tr("Computing the critical path of %1…").arg(label));
    jobs_->run(
        [t, w = *w](JobControl&) {
            QElapsedTimer clock;
            clock.start();
            CriticalPathOptions o;
            o.window = w;
            Computed c{std::make_shared<const CriticalPath>(criticalPath(*t, o)), 0};
            c.ms = clock.elapsed();
            return c;
        },
        [this, label](Computed c) { show(std::move(c.path), c.ms, label); });
}

void CriticalPathView::waitForJobs() {
    if (stale_ || coalesce_->isActive()) compute();
    coalesce_->stop();
    jobs_->waitForFinished();
}

void CriticalPathView::show(std::shared_ptr<const CriticalPath> path, qint64 ms,
                            const QString& label) {
    path_ = std::move(path);
    const std::shared_ptr<const Trace> t = trace();
    const bool ok = t && path_ && path_->ok;
    m_->edges.setRows(ok ? edgeRows(*t, *path_) : std::vector<CpEdgeRow>{});
    m_->bounds.setRows(ok ? boundRows(*path_) : std::vector<CpBoundRow>{});
    if (!t) {
        summary_->setText(tr("Open a trace with GPU work to see the critical path of its steps."));
    } else if (!path_ && window() == kSelectedRange && !navigation()->selectedRange()) {
        summary_->setText(tr("Select a range on the timeline (drag on the ruler) to see its "
                             "critical path."));
    } else if (!path_) {
        summary_->setText(tr("The critical path of the window chosen is computed when this tab "
                             "is shown."));
    } else if (!path_->ok) {
        summary_->setText(tr("No critical path for %1: %2")
                              .arg(label, QString::fromStdString(path_->error).toHtmlEscaped()));
    } else {
        QStringList shares;
        for (const CpBoundRow& b : m_->bounds.rows())
            shares << QStringLiteral("%1 %2 %")
                          .arg(cpBoundName(b.bound))
                          .arg(100 * b.share, 0, 'f', 1);
        const TimeRange span = pathSpan(*path_);
        const QString after =
            span.end > path_->window.end
                ? tr("; it ends %1 after the window (the GPU work launched in it)")
                      .arg(dur(span.end - path_->window.end))
                : QString();
        summary_->setText(
            tr("<b>Critical path of %1: %2</b> (the window lasts %3%4), %5 edges through %6 "
               "events; the graph holds %7 events, %8 nodes and %9 edges (computed in %10 ms). "
               "By bound: %11.")
                .arg(label.toHtmlEscaped(), dur(path_->length),
                     dur(path_->window.end - path_->window.start), after)
                .arg(path_->edges.size())
                .arg(path_->pathEvents.size())
                .arg(path_->events)
                .arg(path_->graphNodes)
                .arg(path_->graphEdges)
                .arg(ms)
                .arg(shares.isEmpty() ? tr("nothing classed") : shares.join(QStringLiteral(", "))));
    }
    bounds_->resizeColumnsToContents();
    edges_->resizeColumnsToContents();
    // The summary by bound whole, the edges the rest.
    const int boundsWidth = bounds_->horizontalHeader()->length() + 2 * bounds_->frameWidth() +
                            bounds_->verticalScrollBar()->sizeHint().width();
    const int total = std::max(split_->width(), boundsWidth * 3);
    split_->setSizes({boundsWidth, total - boundsWidth});
    offerHighlight();
}

QString CriticalPathView::summaryText() const {
    return summary_->text();
}

void CriticalPathView::setHighlightShown(bool on) {
    highlight_->setChecked(on); // offers the highlight (or none) when it changes
}

bool CriticalPathView::highlightShown() const {
    return highlight_->isChecked();
}

void CriticalPathView::offerHighlight() {
    emit highlightChanged(highlight_->isChecked() && path_ && path_->ok ? path_ : nullptr);
}

void CriticalPathView::activateRow(int row, bool zoom) {
    const int src = sourceRow(edges_, edges_->model()->index(row, 0));
    const CpEdgeRow* r = m_->edges.rowAt(src);
    const std::shared_ptr<const Trace> t = trace();
    if (!r || !t) return;
    if (zoom) {
        TimeNs a = std::min(r->t0, r->t1), b = std::max(r->t0, r->t1);
        if (r->event.valid()) {
            a = std::min(a, t->start(r->event));
            b = std::max(b, t->start(r->event) + t->duration(r->event));
        }
        const TimeNs pad = std::max<TimeNs>((b - a) / 10, 1000);
        navigation()->setVisibleRange({a - pad, b + pad});
    }
    if (r->event.valid()) navigation()->setSelectedSlice(workspace()->ref(r->event), true);
}

void CriticalPathView::traceChanged(const std::shared_ptr<const Trace>&) {
    jobs_->cancel();
    coalesce_->stop();
    m_->stepsOf = nullptr;
    {
        const QSignalBlocker block(choice_);
        choice_->clear();
    }
    steps_.clear();
    stale_ = true;
    show(nullptr, 0, {});
    if (isVisible()) compute();
}

void CriticalPathView::selectedRangeChanged(std::optional<TimeRange> r) {
    const int i = choice_->findData(kSelectedRange);
    if (i >= 0)
        choice_->setItemText(i, r ? tr("Selected range (%1)").arg(dur(r->end - r->start))
                                  : tr("Selected range"));
    if (window() == kSelectedRange) {
        stale_ = true;
        coalesce_->start();
    }
}

void CriticalPathView::selectedSliceChanged(const TraceSliceRef& r) {
    if (!r.valid() || r.trace != workspace()->currentId()) return;
    const std::vector<CpEdgeRow>& rows = m_->edges.rows();
    const auto it = std::find_if(rows.begin(), rows.end(),
                                 [&](const CpEdgeRow& e) { return e.event == r.slice; });
    if (it == rows.end()) return;
    const int src = int(it - rows.begin());
    QAbstractItemModel* shown = edges_->model(); // the sorting proxy: find the source row there
    for (int row = 0; row < shown->rowCount(); ++row) {
        if (sourceRow(edges_, shown->index(row, 0)) != src) continue;
        if (edges_->currentIndex().row() == row) return;
        following_ = true;
        edges_->selectRow(row);
        edges_->scrollTo(shown->index(row, 0));
        following_ = false;
        return;
    }
}

void CriticalPathView::showEvent(QShowEvent* e) {
    TracePanel::showEvent(e);
    if (stale_) compute();
}

void CriticalPathView::exportMenu() {
    QMenu menu(this);
    menu.addAction(tr("Path edges as CSV…"), this,
                   [this] { exportTableInteractively(this, &m_->edges, "critical-path"); });
    menu.addAction(tr("Time per bound as CSV…"), this,
                   [this] { exportTableInteractively(this, &m_->bounds, "critical-path-bounds"); });
    menu.exec(QCursor::pos());
}

} // namespace strata
