#include "sections_panel.h"

#include "charts/chart_export.h"
#include "charts/sortable_table.h"
#include "section_charts.h"
#include "section_stats_model.h"
#include "slowest_blocks_model.h"
#include "workspace/job_runner.h"

#include "charts/chart_theme.h"
#include <qcustomplot.h>

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>

#include <map>

namespace strata {

namespace {} // namespace

SectionsPanel::SectionsPanel(Workspace* workspace, Navigation* navigation, QWidget* parent)
    : TracePanel(workspace, navigation, parent), jobs_(new JobRunner(this)),
      choice_(new QComboBox(this)), info_(new QLabel(this)), tabs_(new QTabWidget(this)),
      stats_(new SectionStatsModel(this)), slowest_(new SlowestBlocksModel(this)) {
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Sections of:"), this));
    choice_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    choice_->setToolTip(tr("Which instrumented kernel's sections are shown: all its launches, "
                           "or one"));
    top->addWidget(choice_, 1);
    auto* importButton = new QToolButton(this);
    importButton->setText(tr("Import…"));
    importButton->setToolTip(tr("Import a timer array times[section][iteration] (.npy, .csv, "
                                ".json) or a .sections file"));
    auto* exportButton = new QToolButton(this);
    exportButton->setText(tr("Export…"));
    exportButton->setToolTip(tr("Export the table shown as CSV, or the chart as PNG, SVG or PDF"));
    top->addWidget(importButton);
    top->addWidget(exportButton);
    info_->setWordWrap(true);
    info_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    statsView_ = makeSortableTable(stats_, this, false);
    slowestView_ = makeSortableTable(slowest_, this, false);
    auto* tableTab = new QSplitter(Qt::Vertical, this);
    tableTab->addWidget(statsView_);
    slowestBox_ = new QWidget(this);
    auto* slowestBox = slowestBox_;
    auto* sl = new QVBoxLayout(slowestBox);
    sl->setContentsMargins(0, 0, 0, 0);
    sl->addWidget(new QLabel(tr("Slowest blocks (select one to mark it on the heatmap and the SM "
                                "timeline)"),
                             slowestBox));
    sl->addWidget(slowestView_);
    tableTab->addWidget(slowestBox);
    tableTab->setStretchFactor(0, 1);
    tableTab->setStretchFactor(1, 2);
    tabs_->addTab(tableTab, tr("Table"));
    const char* names[] = {"Box Plot", "Iterations", "Heatmap", "SM Timeline"};
    for (int i = 0; i < 4; ++i) {
        charts_[i] = new QCustomPlot(this);
        followTheme(charts_[i]);
        charts_[i]->setObjectName(names[i]);
        tabs_->addTab(charts_[i], tr(names[i]));
    }
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(info_);
    layout->addWidget(tabs_, 1);

    const SectionChart kinds[] = {SectionChart::Box, SectionChart::Iterations,
                                  SectionChart::Heatmap, SectionChart::SmTimeline};
    for (int i = 0; i < 4; ++i) {
        QCustomPlot* plot = charts_[i];
        connect(plot, &QCustomPlot::mouseMove, this, [this, plot, kind = kinds[i]](QMouseEvent* e) {
            if (!view_) return;
            const QString tip =
                sectionChartTip(kind, *view_, plot->xAxis->pixelToCoord(e->position().x()),
                                plot->yAxis->pixelToCoord(e->position().y()));
            if (tip.isEmpty())
                QToolTip::hideText();
            else
                QToolTip::showText(e->globalPosition().toPoint(), tip, plot);
        });
    }
    connect(choice_, &QComboBox::currentIndexChanged, this, [this] { compute(); });
    connect(importButton, &QToolButton::clicked, this, &SectionsPanel::importRequested);
    connect(exportButton, &QToolButton::clicked, this, &SectionsPanel::exportCurrent);
    connect(slowestView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                auto* proxy = static_cast<QSortFilterProxyModel*>(slowestView_->model());
                const QModelIndex src = proxy->mapToSource(current);
                highlight_ = src.isValid() ? long(slowest_->blockAt(src.row())) : -1;
                redrawCharts();
            });
    traceChanged(trace());
}

SectionsPanel::~SectionsPanel() = default;

QCustomPlot* SectionsPanel::chart(Tab t) const {
    return t == TableTab ? nullptr : charts_[int(t) - 1];
}

int SectionsPanel::choiceCount() const {
    return int(choices_.size());
}

QString SectionsPanel::choiceLabel(int i) const {
    return choices_[size_t(i)].label;
}

void SectionsPanel::setChoice(int i) {
    choice_->setCurrentIndex(i);
}

void SectionsPanel::showTab(Tab t) {
    tabs_->setCurrentIndex(int(t));
}

void SectionsPanel::selectSlowestBlock(int row) {
    slowestView_->selectRow(row);
    slowestView_->setCurrentIndex(slowestView_->model()->index(row, 0));
}

void SectionsPanel::waitForJobs() {
    jobs_->waitForFinished();
}

void SectionsPanel::traceChanged(const std::shared_ptr<const Trace>& trace) {
    trace_ = trace;
    rebuildChoices();
}

void SectionsPanel::rebuildChoices() {
    const QSignalBlocker block(choice_);
    choices_.clear();
    choice_->clear();
    if (trace_) {
        // Launches by kernel; an imported array (no launch) is a choice of its own, after them.
        std::map<std::string, std::vector<const SectionSet*>> byKernel;
        for (const SectionSet& s : trace_->sections())
            if (s.correlation >= 0) byKernel[s.kernel].push_back(&s);
        for (const auto& [kernel, sets] : byKernel) {
            const QString name = QString::fromStdString(kernel);
            if (sets.size() > 1)
                choices_.push_back({tr("%1 — all %2 launches").arg(name).arg(sets.size()), sets});
            for (const SectionSet* s : sets)
                choices_.push_back({tr("%1 — launch %2 (%3 blocks)")
                                        .arg(name)
                                        .arg(s->correlation)
                                        .arg(s->blockCount()),
                                    {s}});
        }
    }
    if (trace_)
        for (const SectionSet& s : trace_->sections())
            if (s.correlation < 0)
                choices_.push_back(
                    {tr("%1 (imported)").arg(QString::fromStdString(s.kernel)), {&s}});
    for (const Choice& c : choices_) choice_->addItem(c.label);
    compute();
}

void SectionsPanel::selectedSliceChanged(const TraceSliceRef& r) {
    if (!trace_ || !r.valid() || trace_->kind(r.slice) != SliceKind::Kernel) return;
    const SliceRef launch = r.slice;
    for (size_t i = 0; i < choices_.size(); ++i) {
        const Choice& c = choices_[i];
        if (c.sets.size() != 1 || c.sets[0]->correlation < 0) continue;
        for (SliceRef k : trace_->byCorrelation(c.sets[0]->correlation))
            if (k == launch) {
                choice_->setCurrentIndex(int(i));
                return;
            }
    }
}

void SectionsPanel::compute() {
    const int i = choice_->currentIndex();
    if (i < 0 || size_t(i) >= choices_.size()) {
        jobs_->cancel();
        show(nullptr);
        info_->setText(trace_ ? tr("This trace has no in-kernel sections. Instrument a kernel with "
                                   "kernels/include/strata/sections.cuh and record it, or import a "
                                   "timer array (Import…).")
                              : tr("Import a timer array (Import…) or open a recording with "
                                   "sections."));
        return;
    }
    info_->setText(tr("Computing…"));
    // The sets live in the trace (held by the job).
    jobs_->run(
        [trace = trace_, c = choices_[size_t(i)]](JobControl&) {
            return std::make_shared<SectionViewData>(computeSectionView(c.label, c.sets));
        },
        [this](std::shared_ptr<SectionViewData> v) { show(std::move(v)); });
}

void SectionsPanel::show(std::shared_ptr<SectionViewData> v) {
    stats_->setData(nullptr);
    slowest_->setData(nullptr);
    view_ = std::move(v);
    highlight_ = -1;
    stats_->setData(view_.get());
    slowest_->setData(view_.get());
    const bool perIteration = view_ && view_->perIteration;
    // An array has no blocks and no times: no slowest blocks, no heatmap, no SM timeline.
    slowestBox_->setVisible(!perIteration);
    for (Tab t : {HeatmapTab, SmTimelineTab}) {
        tabs_->setTabEnabled(int(t), !perIteration);
        tabs_->setTabToolTip(int(t), perIteration
                                         ? tr("Needs blocks and %globaltimer times: an imported "
                                              "timer array has one value per section and "
                                              "iteration")
                                         : QString());
    }
    if (view_) {
        const SectionStats& st = view_->stats;
        const QString unit = st.ns ? tr("time (clock %1 GHz; hover for the exact value and "
                                        "cycles)")
                                         .arg(st.clockHz / 1e9, 0, 'g', 4)
                                   : tr("cycles (no clock rate known)");
        QString text =
            perIteration
                ? tr("Timer array: %1 sections × %2 iterations; statistics over iterations, "
                     "values in %3")
                      .arg(st.sections.size())
                      .arg(view_->iterations.size())
                      .arg(unit)
                : tr("%1 %2, %3 blocks, values in %4")
                      .arg(st.launches)
                      .arg(st.launches == 1 ? tr("launch") : tr("launches"))
                      .arg(st.blocks)
                      .arg(unit);
        if (view_->columns.folded)
            text += tr("\nThe charts show the %1 sections with the most time; %L2 more are "
                       "folded into \"other\" (the table lists every section)")
                        .arg(view_->columns.ids.size())
                        .arg(view_->columns.folded);
        for (const std::string& w : st.warnings) text += "\n⚠ " + QString::fromStdString(w);
        info_->setText(text);
        statsView_->resizeColumnsToContents();
        slowestView_->resizeColumnsToContents();
    }
    redrawCharts();
}

void SectionsPanel::redrawCharts() {
    if (!view_) {
        for (QCustomPlot* c : charts_) {
            c->clearPlottables();
            c->clearItems();
            c->replot();
        }
        return;
    }
    plotSectionBoxes(charts_[0], *view_);
    plotSectionIterations(charts_[1], *view_);
    plotSectionHeatmap(charts_[2], *view_, highlight_);
    plotSmTimeline(charts_[3], *view_, highlight_);
}

void SectionsPanel::exportCurrent() {
    const QString base = view_ ? view_->title.section(' ', 0, 0) + "-sections" : "sections";
    if (tabs_->currentIndex() == TableTab) {
        const bool slowest = slowestView_->hasFocus();
        exportTableInteractively(this,
                                 slowest ? static_cast<QAbstractItemModel*>(slowest_) : stats_,
                                 base + (slowest ? "-blocks" : ""));
        return;
    }
    QCustomPlot* plot = charts_[tabs_->currentIndex() - 1];
    exportChartInteractively(this, plot,
                             base + "-" + plot->objectName().toLower().replace(' ', '-'));
}

} // namespace strata
