#include "compare_panel.h"

#include "analysis/compare/trace_diff.h"
#include "analysis/named_durations.h"
#include "charts/chart_theme.h"
#include "charts/row_columns.h"
#include "charts/sortable_table.h"
#include "compare_charts.h"
#include "style/gap_style.h"
#include "workspace/trace_comparison.h"

#include <QComboBox>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <cmath>

namespace strata {

namespace {

QString signedDuration(TimeNs ns) {
    const QString d = QString::fromStdString(formatDuration(ns < 0 ? -ns : ns));
    return ns > 0 ? "+" + d : ns < 0 ? QStringLiteral("−") + d : d;
}

QColor statusColor(const DiffRow& r) {
    switch (r.status) {
    case DiffStatus::Added:
        return QColor(240, 140, 40);
    case DiffStatus::Removed:
        return QColor(150, 150, 150);
    case DiffStatus::Changed:
        return r.deltaTotal() > 0 ? QColor(215, 80, 60) : QColor(60, 160, 90);
    case DiffStatus::Same:
        break;
    }
    return QColor(220, 220, 220);
}

// The GPU time a CPU op launched, judged by the same rule: its status, its change and each
// side's.
void addGpuColumns(std::vector<RowColumn<DiffRow>>& cols) {
    using R = DiffRow;
    cols.push_back({QObject::tr("GPU status"),
                    [](const R& r) {
                        if (!r.launchesGpu) return QStringLiteral("—");
                        QString s = QString::fromLatin1(diffStatusName(r.gpuStatus));
                        if (r.gpuStatus == DiffStatus::Changed)
                            s += r.deltaGpu() > 0 ? QObject::tr(" (slower)")
                                                  : QObject::tr(" (faster)");
                        return s;
                    },
                    {},
                    [](const R&) {
                        return QObject::tr("The GPU time of the kernels, copies and sets the op "
                                           "launched, judged by the same rule as its own time");
                    }});
    cols.push_back({QObject::tr("Δ GPU"),
                    [](const R& r) {
                        return r.launchesGpu ? signedDuration(r.deltaGpu()) : QStringLiteral("—");
                    },
                    [](const R& r) { return std::optional<double>(double(r.deltaGpu())); }});
    cols.push_back(timeColumn<R>(QObject::tr("Baseline GPU"),
                                 [](const R& r) { return double(r.baseline.gpuTotal); }));
    cols.push_back(timeColumn<R>(QObject::tr("Candidate GPU"),
                                 [](const R& r) { return double(r.candidate.gpuTotal); }));
}

// `gpu`: CPU op rows, with the GPU time they launched.
std::vector<RowColumn<DiffRow>> diffColumns(bool gpu) {
    using R = DiffRow;
    RowColumn<R> status{QObject::tr("Status"),
                        [](const R& r) {
                            QString s = QString::fromLatin1(diffStatusName(r.status));
                            if (r.status == DiffStatus::Changed)
                                s += r.deltaTotal() > 0 ? QObject::tr(" (slower)")
                                                        : QObject::tr(" (faster)");
                            return s;
                        },
                        {}};
    status.decoration = [](const R& r) { return QVariant(statusColor(r)); };
    RowColumn<R> delta{QObject::tr("Δ total"),
                       [](const R& r) { return signedDuration(r.deltaTotal()); },
                       [](const R& r) { return std::optional<double>(double(r.deltaTotal())); },
                       [](const R& r) {
                           if (r.referenceSpread <= 0) return QString();
                           return QObject::tr("step-to-step spread of this row in the run: %1")
                               .arg(QString::fromStdString(
                                   formatDuration(TimeNs(std::llround(r.referenceSpread)))));
                       }};
    RowColumn<R> share{QObject::tr("Δ %"),
                       [](const R& r) {
                           if (r.baseline.total == 0) return QStringLiteral("—");
                           return QStringLiteral("%1%2 %")
                               .arg(r.deltaShare() > 0 ? "+" : "")
                               .arg(100.0 * r.deltaShare(), 0, 'f', 1);
                       },
                       [](const R& r) { return std::optional<double>(r.deltaShare()); }};
    auto count = [](const QString& h, bool cand) {
        return RowColumn<R>{
            h,
            [cand](const R& r) { return QString::number((cand ? r.candidate : r.baseline).count); },
            [cand](const R& r) {
                return std::optional<double>(double((cand ? r.candidate : r.baseline).count));
            }};
    };
    std::vector<RowColumn<R>> cols{
        status,
        nameColumn<R>(
            QObject::tr("Name"), [](const R& r) { return QString::fromStdString(r.shownName()); },
            [](const R& r) { return QString::fromStdString(r.name); }),
        delta, share};
    if (gpu) addGpuColumns(cols);
    for (auto& c : std::vector<RowColumn<R>>{
             count(QObject::tr("Baseline n"), false),
             timeColumn<R>(QObject::tr("Baseline total"),
                           [](const R& r) { return double(r.baseline.total); }),
             timeColumn<R>(QObject::tr("Baseline mean"),
                           [](const R& r) { return r.baseline.mean; }),
             count(QObject::tr("Candidate n"), true),
             timeColumn<R>(QObject::tr("Candidate total"),
                           [](const R& r) { return double(r.candidate.total); }),
             timeColumn<R>(QObject::tr("Candidate mean"),
                           [](const R& r) { return r.candidate.mean; }),
             timeColumn<R>(QObject::tr("Baseline median"),
                           [](const R& r) { return double(r.baseline.median); }),
             timeColumn<R>(QObject::tr("Candidate median"),
                           [](const R& r) { return double(r.candidate.median); })})
        cols.push_back(std::move(c));
    return cols;
}

// Per gap cause, the candidate's idle minus the baseline's (a DeviceDiff's or a StepDiff's), in
// the cause's colour, both figures on hover.
template <typename Row> void addCauseDeltas(std::vector<RowColumn<Row>>& cols) {
    for (int c = 0; c < kGapCauseCount; ++c) {
        auto delta = [c](const Row& r) {
            return r.candidate.idleByCause[size_t(c)] - r.baseline.idleByCause[size_t(c)];
        };
        RowColumn<Row> col{
            QObject::tr("Δ idle: %1").arg(gapCauseText(GapCause(c))),
            [delta](const Row& r) { return signedDuration(delta(r)); },
            [delta](const Row& r) { return std::optional<double>(double(delta(r))); },
            [c](const Row& r) {
                return QObject::tr("Idle in gaps over the threshold caused by %1: %2 → %3")
                    .arg(
                        gapCauseText(GapCause(c)),
                        QString::fromStdString(formatDuration(r.baseline.idleByCause[size_t(c)])),
                        QString::fromStdString(formatDuration(r.candidate.idleByCause[size_t(c)])));
            }};
        col.decoration = [c](const Row&) { return QVariant(QColor::fromRgb(gapCauseColor(c))); };
        cols.push_back(col);
    }
}

std::vector<RowColumn<DeviceDiff>> deviceColumns() {
    using D = DeviceDiff;
    std::vector<RowColumn<D>> cols{
        {QObject::tr("GPU"), [](const D& d) { return QString::number(d.device); },
         [](const D& d) { return std::optional<double>(d.device); }},
        timeColumn<D>(QObject::tr("Busy, baseline"),
                      [](const D& d) { return double(d.baseline.busy); }),
        timeColumn<D>(QObject::tr("Busy, candidate"),
                      [](const D& d) { return double(d.candidate.busy); }),
        timeColumn<D>(QObject::tr("Idle, baseline"),
                      [](const D& d) { return double(d.baseline.idle); }),
        timeColumn<D>(QObject::tr("Idle, candidate"),
                      [](const D& d) { return double(d.candidate.idle); })};
    addCauseDeltas(cols);
    return cols;
}

std::vector<RowColumn<StepDiff>> stepColumns() {
    using S = StepDiff;
    auto name = [](bool cand) {
        return RowColumn<S>{cand ? QObject::tr("Candidate step") : QObject::tr("Baseline step"),
                            [cand](const S& s) {
                                const StepDiffSide& x = cand ? s.candidate : s.baseline;
                                return x.present ? QString::fromStdString(x.step)
                                                 : QStringLiteral("—");
                            },
                            {}};
    };
    std::vector<RowColumn<S>> cols{
        name(false),
        name(true),
        {QObject::tr("GPU"), [](const S& s) { return QString::number(s.device); },
         [](const S& s) { return std::optional<double>(s.device); }},
        timeColumn<S>(QObject::tr("Length, baseline"),
                      [](const S& s) { return double(s.baseline.length); }),
        timeColumn<S>(QObject::tr("Length, candidate"),
                      [](const S& s) { return double(s.candidate.length); }),
        timeColumn<S>(QObject::tr("Idle, baseline"),
                      [](const S& s) { return double(s.baseline.idle); }),
        timeColumn<S>(QObject::tr("Idle, candidate"),
                      [](const S& s) { return double(s.candidate.idle); })};
    addCauseDeltas(cols);
    return cols;
}

} // namespace

ComparePanel::ComparePanel(Workspace* workspace, Navigation* navigation, QWidget* parent)
    : TracePanel(workspace, navigation, parent), comparison_(workspace->comparison()),
      summary_(new QLabel(this)), baselineStep_(new QComboBox(this)),
      candidateStep_(new QComboBox(this)), tabs_(new QTabWidget(this)),
      devices_(new RowTableModel<DeviceDiff>(deviceColumns(), this)),
      steps_(new RowTableModel<StepDiff>(stepColumns(), this)), deltas_(new QCustomPlot(this)),
      histograms_(new QCustomPlot(this)) {
    followTheme(deltas_);
    followTheme(histograms_);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    deltas_->setObjectName("compare-deltas");
    histograms_->setObjectName("compare-histograms");
    const QStringList titles{tr("Kernels"), tr("CPU ops"), tr("Copies"), tr("Sections")};
    for (int t = 0; t < 4; ++t) {
        auto* model = new RowTableModel<DiffRow>(diffColumns(t == Ops), this);
        QTableView* table = makeSortableTable(model, this, false);
        table->setColumnWidth(0, 150); // "changed (slower)"
        table->setColumnWidth(1, 280); // the name
        models_.push_back(model);
        tables_.push_back(table);
        tabs_->addTab(table, titles[t]);
        connect(table, &QTableView::clicked, this,
                [this, t, table](const QModelIndex& i) { showRow(Tab(t), sourceRow(table, i)); });
    }
    tabs_->addTab(makeSortableTable(devices_, this, false), tr("GPUs"));
    tabs_->addTab(makeSortableTable(steps_, this, false), tr("Steps"));
    baselineStep_->setToolTip(tr("Compare the whole baseline, or one of its steps"));
    candidateStep_->setToolTip(tr("Compare the whole candidate, or one of its steps"));
    auto* choose = new QHBoxLayout;
    choose->addWidget(new QLabel(tr("Baseline:"), this));
    choose->addWidget(baselineStep_);
    choose->addSpacing(12);
    choose->addWidget(new QLabel(tr("Candidate:"), this));
    choose->addWidget(candidateStep_);
    choose->addStretch(1);
    auto* charts = new QSplitter(Qt::Vertical, this);
    charts->addWidget(deltas_);
    charts->addWidget(histograms_);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(tabs_);
    split->addWidget(charts);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(choose);
    layout->addWidget(summary_);
    layout->addWidget(split, 1);
    connect(comparison_, &TraceComparison::changed, this, &ComparePanel::refresh);
    connect(comparison_, &TraceComparison::diffReady, this, &ComparePanel::present);
    connect(tabs_, &QTabWidget::currentChanged, this, &ComparePanel::present);
    deltas_->installEventFilter(this); // as many bars as its height has room for
    for (bool cand : {false, true}) {
        QComboBox* box = cand ? candidateStep_ : baselineStep_;
        connect(box, &QComboBox::activated, this, [this, box, cand](int i) {
            if (filling_) return;
            const QString data = box->itemData(i).toString();
            const ComparedTrace& side = cand ? comparison_->candidate() : comparison_->baseline();
            if (i == 0 && side.range) return; // the range chosen already
            chooseStep(cand, data == QStringLiteral("\x1fwhole") ? QString() : data);
        });
    }
    refresh();
}

bool ComparePanel::eventFilter(QObject* watched, QEvent* e) {
    if (watched == deltas_ && e->type() == QEvent::Resize) {
        const int tab = tabs_->currentIndex();
        plotDeltas(deltas_, models_[size_t(tab >= 0 && tab < 4 ? tab : 0)]->rows());
    }
    return TracePanel::eventFilter(watched, e);
}

QString ComparePanel::summaryText() const {
    return summary_->text();
}

const std::vector<DiffRow>& ComparePanel::rows(Tab tab) const {
    return models_[size_t(std::clamp(int(tab), 0, 3))]->rows();
}

const std::vector<DeviceDiff>& ComparePanel::deviceRows() const {
    return devices_->rows();
}

const std::vector<StepDiff>& ComparePanel::stepRows() const {
    return steps_->rows();
}

void ComparePanel::chooseStep(bool candidate, const QString& step) {
    comparison_->setStep(candidate, step);
}

void ComparePanel::fillSteps() {
    filling_ = true;
    for (bool cand : {false, true}) {
        QComboBox* box = cand ? candidateStep_ : baselineStep_;
        const ComparedTrace& side = cand ? comparison_->candidate() : comparison_->baseline();
        box->clear();
        box->addItem(side.trace ? tr("%1, whole trace").arg(QFileInfo(side.path).fileName())
                                : tr("nothing"),
                     QString());
        if (side.range && side.step.isEmpty()) { // a range of it: first, and chosen
            const TimeNs origin = side.trace->contentBounds().start;
            box->setItemText(
                0, tr("%1, %2 – %3")
                       .arg(QFileInfo(side.path).fileName(),
                            QString::fromStdString(formatDuration(side.range->start - origin)),
                            QString::fromStdString(formatDuration(side.range->end - origin))));
            box->addItem(tr("whole trace"), QStringLiteral("\x1fwhole"));
        }
        for (const QString& s : comparison_->steps(cand)) box->addItem(s, s);
        box->setCurrentIndex(std::max(0, box->findData(side.step)));
        box->setEnabled(bool(side.trace));
    }
    filling_ = false;
}

void ComparePanel::refresh() {
    fillSteps();
    if (comparison_->isEmpty()) {
        summary_->setText(tr("Compare two runs: File ▸ Compare With… (the trace open is the "
                             "baseline), or strata --compare BASELINE CANDIDATE."));
    } else {
        summary_->setText(tr("Computing the difference\u2026"));
    }
    present();
}

void ComparePanel::present() {
    const std::shared_ptr<const TraceDiff> d = comparison_->diff();
    for (size_t t = 0; t < models_.size(); ++t) {
        std::vector<DiffRow> rows;
        if (d) rows = t == 0 ? d->kernels : t == 1 ? d->ops : t == 2 ? d->copies : d->sections;
        models_[t]->setRows(std::move(rows));
    }
    devices_->setRows(d ? d->devices : std::vector<DeviceDiff>{});
    steps_->setRows(d ? d->steps : std::vector<StepDiff>{});
    const int tab = tabs_->currentIndex();
    plotDeltas(deltas_,
               tab >= 0 && tab < 3 ? models_[size_t(tab)]->rows() : std::vector<DiffRow>{});
    plotHistograms(histograms_, QString(), {}, {});
    if (!d) return;
    auto counts = [](const std::vector<DiffRow>& rows) {
        int changed = 0, added = 0, removed = 0;
        for (const DiffRow& r : rows) {
            changed += r.status == DiffStatus::Changed;
            added += r.status == DiffStatus::Added;
            removed += r.status == DiffStatus::Removed;
        }
        return tr("%1 changed, %2 added, %3 removed").arg(changed).arg(added).arg(removed);
    };
    int gpuChanged = 0;
    for (const DiffRow& r : d->ops) gpuChanged += r.launchesGpu && r.gpuStatus != DiffStatus::Same;
    const QString ops = counts(d->ops) + (gpuChanged ? tr(" (the GPU time they launched: %1 "
                                                          "changed, added or removed)")
                                                           .arg(gpuChanged)
                                                     : QString());
    TimeNs busyB = 0, busyC = 0, idleB = 0, idleC = 0;
    for (const DeviceDiff& x : d->devices) {
        busyB += x.baseline.busy, busyC += x.candidate.busy;
        idleB += x.baseline.idle, idleC += x.candidate.idle;
    }
    const QString noise =
        d->bySteps ? tr("changes larger than the step-to-step spread (%1 and %2 steps)")
                         .arg(d->baselineSteps)
                         .arg(d->candidateSteps)
        : d->referenceSteps
            ? tr("changes past the step-to-step spread of the run's %1 other steps (Student's "
                 "t, 95 %; each row's spread on hover over Δ total)")
                  .arg(d->referenceSteps)
            : tr("no steps to measure a spread with: a change is a different count, or "
                 "≥ 5 % and ≥ 1 µs of the total");
    summary_->setText(
        tr("<b>Kernels</b> %1 · <b>CPU ops</b> %2 · <b>copies</b> %3. GPU busy "
           "%4 → %5 (%6), idle %7 → %8 (%9). Changed means: %10. The timeline "
           "shows the candidate under the baseline, shifted by %11.")
            .arg(counts(d->kernels), ops, counts(d->copies))
            .arg(QString::fromStdString(formatDuration(busyB)),
                 QString::fromStdString(formatDuration(busyC)), signedDuration(busyC - busyB),
                 QString::fromStdString(formatDuration(idleB)),
                 QString::fromStdString(formatDuration(idleC)), signedDuration(idleC - idleB),
                 noise, signedDuration(comparison_->candidateOffset())));
    if (!d->sections.empty())
        summary_->setText(
            summary_->text() +
            tr(" <b>In-kernel sections</b> %1 (the rule without steps%2).")
                .arg(counts(d->sections), d->sectionsInNs ? QString() : tr("; values in cycles")));
}

void ComparePanel::showRow(Tab tab, int row) {
    if (tab != Kernels && tab != Ops) return plotHistograms(histograms_, QString(), {}, {});
    const DiffRow* r = models_[size_t(tab)]->rowAt(row);
    if (!r) return;
    const bool gpu = tab == Kernels;
    auto side = [&](bool cand) {
        const ComparedTrace& s = cand ? comparison_->candidate() : comparison_->baseline();
        return s.trace ? durationsNamed(*s.trace, r->name,
                                        gpu ? NamedSlices::Kernels : NamedSlices::CpuSlices,
                                        comparison_->range(cand).value_or(wholeTrace()))
                       : std::vector<TimeNs>{};
    };
    plotHistograms(histograms_, QString::fromStdString(r->shownName()), side(false), side(true));
}

} // namespace strata
