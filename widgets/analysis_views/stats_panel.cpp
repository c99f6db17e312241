#include "stats_panel.h"

#include "critical_path_view.h"
#include "gpu_time_view.h"
#include "step_roles_view.h"

#include "analysis/named_durations.h"
#include "charts/chart_export.h"
#include "charts/chart_theme.h"
#include "charts/row_columns.h"
#include "charts/sortable_table.h"
#include "model/names/cupti_names.h"
#include "model/names/time_text.h"
#include "style/qt_text.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>
#include <unordered_map>

namespace strata {

namespace {

QString d(double ns) {
    return QString::fromStdString(formatDuration(TimeNs(std::llround(ns))));
}
QString pct(double share) {
    return QString::number(100.0 * share, 'f', 1) + " %";
}

struct BusyRow {
    QString what; // "GPU 0" or a step's name
    int32_t device = -1;
    TimeNs span = 0, busy = 0, idle = 0;
};

} // namespace

struct StatsPanel::Models {
    // Names are shown short (Trace::displayName), in full on hover and in CSV.
    std::shared_ptr<const Trace> trace;
    // Each kernel name's figures from Kineto's args (kernel_metrics.h), a copy of the analysis'.
    KernelMetrics metrics;
    const KernelNameMetrics* metricsOf(const KernelRow& r) const { return metrics.find(r.nameId); }
    // Each kernel name's GPU metric means (gpu_metric_means.h), a copy of the analysis'.
    std::unordered_map<StringId, std::vector<MetricMean>> gpuMetrics;
    QString gpuMetricText(const KernelRow& r) const {
        const auto it = gpuMetrics.find(r.nameId);
        if (it == gpuMetrics.end() || it->second.empty()) return QStringLiteral("\u2014");
        QStringList l;
        for (const MetricMean& m : it->second)
            l << QStringLiteral("%1 %2").arg(QString::fromStdString(m.metric),
                                             QString::number(m.mean, 'g', 4));
        return l.join(QStringLiteral(" \u00b7 "));
    }
    QString metricText(const KernelRow& r, std::optional<double> KernelNameMetrics::*field,
                       int digits) const {
        const KernelNameMetrics* m = metricsOf(r);
        return m && m->*field ? QString::number(*(m->*field), 'f', digits) : QString("—");
    }
    QString shown(std::string_view full) const {
        return toQString(trace ? trace->displayName(full) : full);
    }
    RowTableModel<KernelRow> kernels{{
        nameColumn<KernelRow>(
            "Kernel",
            [this](const KernelRow& r) {
                return trace ? toQString(trace->displayName(r.nameId))
                             : QString::fromStdString(r.name);
            },
            [](const KernelRow& r) { return QString::fromStdString(r.name); }),
        nameColumn<KernelRow>(
            "Launched by", [this](const KernelRow& r) { return shown(r.launchedBy); },
            [](const KernelRow& r) { return QString::fromStdString(r.launchedBy); }),
        {"Category",
         [](const KernelRow& r) { return QString(kernelCategoryName(r.category)); },
         {}},
        {"Count", [](const KernelRow& r) { return QString::number(r.time.count); },
         [](const KernelRow& r) { return double(r.time.count); }},
        timeColumn<KernelRow>("Total", [](const KernelRow& r) { return double(r.time.total); }),
        timeColumn<KernelRow>("Mean", [](const KernelRow& r) { return r.time.mean; }),
        timeColumn<KernelRow>("Min", [](const KernelRow& r) { return double(r.time.min); }),
        timeColumn<KernelRow>("Median", [](const KernelRow& r) { return double(r.time.median); }),
        timeColumn<KernelRow>("P95", [](const KernelRow& r) { return double(r.time.p95); }),
        timeColumn<KernelRow>("Max", [](const KernelRow& r) { return double(r.time.max); }),
        {"% GPU", [](const KernelRow& r) { return pct(r.share); },
         [](const KernelRow& r) { return r.share; }},
        {"Launch latency",
         [](const KernelRow& r) { return r.launched ? d(r.launchLatencyMean) : QString("—"); },
         [](const KernelRow& r) { return r.launchLatencyMean; }},
        {"Launch call",
         [](const KernelRow& r) { return r.launched ? d(r.launchCallMean) : QString("—"); },
         [](const KernelRow& r) { return r.launchCallMean; }},
        {"Configs",
         [](const KernelRow& r) {
             QString s = QString::number(r.configCount);
             if (!r.configs.empty()) s += ": " + QString::fromStdString(r.configs.front());
             return s;
         },
         {},
         [](const KernelRow& r) {
             QStringList l;
             for (const std::string& c : r.configs) l << QString::fromStdString(c);
             return l.join('\n');
         }},
        // Kineto's args, duration-weighted per kernel name (the TensorBoard plugin's).
        {"Blocks/SM",
         [this](const KernelRow& r) { return metricText(r, &KernelNameMetrics::blocksPerSm, 2); },
         [this](const KernelRow& r) {
             const KernelNameMetrics* m = metricsOf(r);
             return m && m->blocksPerSm ? *m->blocksPerSm : -1.0;
         }},
        {"Occupancy %",
         [this](const KernelRow& r) { return metricText(r, &KernelNameMetrics::occupancyPct, 1); },
         [this](const KernelRow& r) {
             const KernelNameMetrics* m = metricsOf(r);
             return m && m->occupancyPct ? *m->occupancyPct : -1.0;
         }},
        {"Tensor cores",
         [this](const KernelRow& r) {
             const KernelNameMetrics* m = metricsOf(r);
             return m && m->tensorCores ? QString("yes") : QString();
         },
         {}},
        // The GPU's own metric rows, time-weighted over the kernel's runs.
        {"GPU metrics (mean while it ran)",
         [this](const KernelRow& r) { return gpuMetricText(r); },
         {}},
    }};
    RowTableModel<CpuOpRow> cpuOps{{
        nameColumn<CpuOpRow>(
            "CPU op", [this](const CpuOpRow& r) { return shown(r.name); },
            [](const CpuOpRow& r) { return QString::fromStdString(r.name); }),
        {"Count", [](const CpuOpRow& r) { return QString::number(r.count); },
         [](const CpuOpRow& r) { return double(r.count); }},
        timeColumn<CpuOpRow>("Total", [](const CpuOpRow& r) { return double(r.total); }),
        timeColumn<CpuOpRow>("Self", [](const CpuOpRow& r) { return double(r.self); }),
        {"GPU ops", [](const CpuOpRow& r) { return QString::number(r.gpuOps); },
         [](const CpuOpRow& r) { return double(r.gpuOps); }},
        timeColumn<CpuOpRow>("GPU time launched",
                             [](const CpuOpRow& r) { return double(r.gpuTime); }),
    }};
    RowTableModel<CopyRow> copies{{
        {"Copy",
         [](const CopyRow& r) {
             const QString k = QString::fromUtf8(copyKindName(r.copyKind).data(),
                                                 qsizetype(copyKindName(r.copyKind).size()));
             return (k.isEmpty() ? QString("unknown") : k) + (r.pageable ? " (pageable)" : "");
         },
         {}},
        {"Count", [](const CopyRow& r) { return QString::number(r.count); },
         [](const CopyRow& r) { return double(r.count); }},
        {"Bytes", [](const CopyRow& r) { return groupedDigits(static_cast<long long>(r.bytes)); },
         [](const CopyRow& r) { return double(r.bytes); }},
        timeColumn<CopyRow>("Time", [](const CopyRow& r) { return double(r.time); }),
        {"GB/s", [](const CopyRow& r) { return QString::number(r.gbPerSecond, 'f', 2); },
         [](const CopyRow& r) { return r.gbPerSecond; }},
    }};
    RowTableModel<Finding> findings{{
        {"Severity", [](const Finding& f) { return QString(findingSeverityName(f.severity)); }, {}},
        {"Saves",
         [](const Finding& f) {
             return f.severity == FindingSeverity::NotApplicable ? QString("—")
                                                                 : d(double(f.saving));
         },
         [](const Finding& f) { return double(f.saving); }},
        {"Share", [](const Finding& f) { return pct(f.savingShare); },
         [](const Finding& f) { return f.savingShare; }},
        {"Rule", [](const Finding& f) { return QString::fromStdString(f.rule); }, {}},
        {"Finding",
         [](const Finding& f) { return QString::fromStdString(f.title); },
         {},
         [](const Finding& f) { return QString::fromStdString(f.detail); }},
    }};
    RowTableModel<BusyRow> busy{{
        {"GPU / step", [](const BusyRow& r) { return r.what; }, {}},
        {"GPU", [](const BusyRow& r) { return QString::number(r.device); },
         [](const BusyRow& r) { return double(r.device); }},
        timeColumn<BusyRow>("Length", [](const BusyRow& r) { return double(r.span); }),
        timeColumn<BusyRow>("Busy", [](const BusyRow& r) { return double(r.busy); }),
        timeColumn<BusyRow>("Idle", [](const BusyRow& r) { return double(r.idle); }),
        {"Busy %",
         [](const BusyRow& r) { return pct(r.span > 0 ? double(r.busy) / double(r.span) : 0); },
         [](const BusyRow& r) { return r.span > 0 ? double(r.busy) / double(r.span) : 0; }},
    }};
};

StatsPanel::StatsPanel(Workspace* workspace, Navigation* navigation, QWidget* parent)
    : AnalysisPanel(workspace, navigation, parent), summary_(new QLabel(this)),
      tabs_(new QTabWidget(this)), group_(new QComboBox(this)), categories_(new QCustomPlot(this)),
      histogram_(new QCustomPlot(this)), gpuTime_(new GpuTimeView(this)),
      stepRoles_(new StepRolesView(this)),
      criticalPath_(new CriticalPathView(workspace, navigation, this)),
      findingDetail_(new QLabel(this)), m_(std::make_unique<Models>()) {
    followTheme(categories_);
    followTheme(histogram_);
    group_->setObjectName(QStringLiteral("kernelGrouping"));
    group_->addItem(tr("Kernels by name"), int(ByName));
    group_->addItem(tr("by name and launching CPU op / NVTX range"), int(ByLaunchingOp));
    group_->addItem(tr("by name and Python call site"), int(ByCallSite));
    group_->setToolTip(tr("Kernels by name alone, or also by the CPU op or NVTX range that "
                          "launched them, or by the Python call site of their launch (the "
                          "innermost frame of the program's own code around it)"));
    summary_->setWordWrap(true);
    summary_->setToolTip(tr("With a range selected: the kernels, copies and CPU ops that start in "
                            "it, counted whole."));
    categories_->setObjectName("kernel-time-by-category");
    histogram_->setObjectName("kernel-durations");
    findingDetail_->setWordWrap(true);
    findingDetail_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* overview = new QSplitter(Qt::Horizontal, this);
    overview->addWidget(categories_);
    tables_.push_back(makeSortableTable(&m_->busy, this, true));
    overview->addWidget(tables_.back());
    tabs_->addTab(overview, tr("Overview"));
    tabs_->addTab(gpuTime_, tr("GPU Time"));
    tabs_->addTab(stepRoles_, tr("Steps"));
    auto* kernels = new QWidget(this);
    auto* kl = new QVBoxLayout(kernels);
    kl->setContentsMargins(0, 0, 0, 0);
    auto* groupRow = new QHBoxLayout;
    groupRow->addWidget(group_);
    groupRow->addStretch();
    kl->addLayout(groupRow);
    auto* ks = new QSplitter(Qt::Vertical, kernels);
    tables_.push_back(makeSortableTable(&m_->kernels, this, true));
    ks->addWidget(tables_.back());
    ks->addWidget(histogram_);
    ks->setStretchFactor(0, 3);
    ks->setStretchFactor(1, 2);
    kl->addWidget(ks, 1);
    tabs_->addTab(kernels, tr("Kernels"));
    tables_.push_back(makeSortableTable(&m_->cpuOps, this, true));
    tabs_->addTab(tables_.back(), tr("CPU Ops"));
    tables_.push_back(makeSortableTable(&m_->copies, this, true));
    tabs_->addTab(tables_.back(), tr("Copies"));
    auto* advisor = new QSplitter(Qt::Vertical, this);
    tables_.push_back(makeSortableTable(&m_->findings, this, true));
    advisor->addWidget(tables_.back());
    advisor->addWidget(findingDetail_);
    tabs_->addTab(advisor, tr("Advisor"));
    tabs_->addTab(criticalPath_, tr("Critical Path"));
    auto* exportButton = new QToolButton(this);
    exportButton->setText(tr("Export…"));
    exportButton->setToolTip(tr("Export the table shown as CSV, or the chart as PNG, SVG or PDF"));
    auto* top = new QHBoxLayout;
    top->addWidget(summary_, 1);
    top->addWidget(exportButton, 0, Qt::AlignTop);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(tabs_, 1);
    connect(exportButton, &QToolButton::clicked, this, &StatsPanel::exportMenu);
    connect(group_, &QComboBox::currentIndexChanged, this,
            [this] { setGrouping(Grouping(group_->currentData().toInt())); });
    QTableView* kt = tables_[1];
    connect(kt->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this, kt](const QModelIndex& i) { selectKernelRow(sourceRow(kt, i)); });
    QTableView* ft = tables_[4];
    connect(ft->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this, ft](const QModelIndex& i) {
                const Finding* f = m_->findings.rowAt(sourceRow(ft, i));
                if (!f) return;
                QString text = "<b>" + QString::fromStdString(f->title).toHtmlEscaped() +
                               "</b><br>" + QString::fromStdString(f->detail).toHtmlEscaped() +
                               "<br>";
                if (f->severity != FindingSeverity::NotApplicable)
                    text += tr("Would save about %1 (%2 of the %3). ")
                                .arg(d(double(f->saving)), pct(f->savingShare),
                                     analysis() && analysis()->advice().basisIsSteps
                                         ? tr("steps' GPU time")
                                         : tr("GPUs' span"));
                for (const auto& [k, v] : f->evidence)
                    text += QString::fromStdString(k) + " = " + QString::number(v, 'g', 6) + "; ";
                findingDetail_->setText(text);
                if (!f->where.empty()) {
                    const TimeRange w = f->where.front();
                    const TimeNs pad = std::max<TimeNs>(w.duration(), 1000);
                    this->navigation()->setVisibleRange({w.start - pad, w.end + pad});
                }
            });
    refresh();
}

StatsPanel::~StatsPanel() = default;

QAbstractItemModel* StatsPanel::kernelsModel() const {
    return &m_->kernels;
}
QAbstractItemModel* StatsPanel::cpuOpsModel() const {
    return &m_->cpuOps;
}
QAbstractItemModel* StatsPanel::copiesModel() const {
    return &m_->copies;
}
QAbstractItemModel* StatsPanel::findingsModel() const {
    return &m_->findings;
}
QAbstractItemModel* StatsPanel::devicesModel() const {
    return &m_->busy;
}

void StatsPanel::showTab(Tab t) {
    tabs_->setCurrentIndex(int(t));
}

void StatsPanel::setGroupByOp(bool on) {
    setGrouping(on ? ByLaunchingOp : ByName);
}

void StatsPanel::setGrouping(Grouping g) {
    if (g == grouping_) return;
    grouping_ = g;
    const QSignalBlocker b(group_);
    group_->setCurrentIndex(group_->findData(int(g)));
    refresh();
}

namespace {
const OpStats& kernelTable(const TraceAnalysis& a, StatsPanel::Grouping g) {
    return g == StatsPanel::ByCallSite ? a.opStatsByCallSite()
                                       : a.opStats(g == StatsPanel::ByLaunchingOp);
}
} // namespace

AnalysisPanel::Preparation StatsPanel::preparation() const {
    return [group = grouping_](const TraceAnalysis& a) {
        kernelTable(a, group); // with the CPU op and copy tables and the chart
        a.advice();            // and the gap causes behind it
        a.gpuTimeBreakdown();
        a.stepRoles();
        a.idleBreakdown();
        a.kernelMetrics();
        a.gpuMetricMeans();
        a.gpuAnnotations();
    };
}

void StatsPanel::present(const std::shared_ptr<const TraceAnalysis>& a) {
    const OpStats* ops = a ? &kernelTable(*a, grouping_) : nullptr;
    const GapCauses* gaps = a ? &a->gapCauses() : nullptr;
    const Advice* advice = a ? &a->advice() : nullptr;
    m_->trace = a ? a->tracePtr() : nullptr;
    m_->metrics = a ? a->kernelMetrics() : KernelMetrics{};
    m_->gpuMetrics.clear();
    if (a)
        for (const KernelMetricMeans& k : a->gpuMetricMeans()) m_->gpuMetrics[k.nameId] = k.means;
    m_->kernels.setRows(ops ? ops->kernels : std::vector<KernelRow>{});
    // The GPU metrics column only where the trace has GPU metric rows.
    tables_[1]->setColumnHidden(m_->kernels.columnCount() - 1, m_->gpuMetrics.empty());
    m_->cpuOps.setRows(ops ? ops->cpuOps : std::vector<CpuOpRow>{});
    m_->copies.setRows(ops ? ops->copies : std::vector<CopyRow>{});
    m_->findings.setRows(advice ? advice->findings : std::vector<Finding>{});
    gpuTime_->show(a ? &a->gpuTimeBreakdown() : nullptr, a ? &a->idleBreakdown() : nullptr,
                   a ? &a->gpuAnnotations() : nullptr);
    stepRoles_->show(a ? &a->stepRoles() : nullptr);
    std::vector<BusyRow> busy;
    categories_->clearPlottables();
    histogram_->clearPlottables();
    if (a) {
        for (const DeviceGapStats& g : gaps->devices)
            busy.push_back({tr("GPU %1 (its span)").arg(g.device), g.device,
                            g.lastEnd - g.firstStart, g.busy, g.idle});
        for (const StepGaps& s : gaps->steps)
            busy.push_back({QString::fromStdString(s.step.name), s.device,
                            s.step.end - s.step.start, s.step.end - s.step.start - s.idle, s.idle});
        QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
        auto* bars = new QCPBars(categories_->yAxis, categories_->xAxis); // horizontal
        bars->setBrush(QColor(0x4e, 0x79, 0xa7));
        bars->setPen(Qt::NoPen);
        double top = 0;
        int k = 0;
        for (const CategoryRow& c : ops->categories) {
            if (!c.count) continue;
            bars->addData(k, double(c.time) / 1e6);
            ticker->addTick(
                k, QStringLiteral("%1 (%2)").arg(kernelCategoryName(c.category), pct(c.share)));
            top = std::max(top, double(c.time) / 1e6);
            ++k;
        }
        categories_->yAxis->setTicker(ticker);
        categories_->yAxis->setRange(-0.6, std::max(1, k) - 0.4);
        categories_->yAxis->setRangeReversed(true);
        categories_->xAxis->setRange(0, top > 0 ? top * 1.1 : 1);
        categories_->xAxis->setLabel(tr("GPU time by category (ms)"));
        uint64_t kernels = 0;
        for (const KernelRow& r : ops->kernels) kernels += r.time.count;
        QString text = tr("%1 kernels, %2 of kernel time, %3 kernel names%4.")
                           .arg(kernels)
                           .arg(d(double(ops->kernelTime)))
                           .arg(ops->kernels.size())
                           .arg(range() ? tr(" in the selected range") : QString());
        for (const std::string& w : advice->warnings)
            text += "<br><span style='color:#a04000'>⚠ " +
                    QString::fromStdString(w).toHtmlEscaped() + "</span>";
        summary_->setText(text);
    } else {
        summary_->setText(tr("Open a trace with GPU work to see its kernel and op statistics."));
    }
    m_->busy.setRows(busy);
    categories_->replot();
    histogram_->replot();
    for (QTableView* t : tables_) t->resizeColumnsToContents();
    // Short names are seldom wider; a wider one ends in "…", in full on hover.
    for (int t : {1, 2})
        if (tables_[size_t(t)]->columnWidth(0) > 640) tables_[size_t(t)]->setColumnWidth(0, 640);
}

void StatsPanel::selectKernelRow(int row) {
    histogram_->clearPlottables();
    const KernelRow* k = m_->kernels.rowAt(row);
    if (!k || !analysis()) {
        histogram_->replot();
        return;
    }
    // The durations of this kernel in the range, on log bins (4 per decade).
    const TimeRange r = analysis()->range();
    std::vector<double> durs;
    for (TimeNs d : durationsNamed(analysis()->trace(), k->nameId, NamedSlices::Kernels, r))
        durs.push_back(double(std::max<TimeNs>(1, d)));
    if (durs.empty()) {
        histogram_->replot();
        return;
    }
    const double lo = *std::min_element(durs.begin(), durs.end());
    const double hi = *std::max_element(durs.begin(), durs.end());
    const int bins = std::max(1, int(std::ceil(8 * std::log10(std::max(hi / lo, 1.0001)))));
    std::vector<double> counts(size_t(bins), 0.0);
    for (double x : durs) counts[size_t(std::clamp(int(8 * std::log10(x / lo)), 0, bins - 1))] += 1;
    auto* bars = new QCPBars(histogram_->xAxis, histogram_->yAxis);
    bars->setBrush(QColor(0xf2, 0x8e, 0x2b));
    bars->setPen(Qt::NoPen);
    bars->setWidth(0.9);
    double top = 0;
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int b = 0; b < bins; ++b) {
        bars->addData(b, counts[size_t(b)]);
        top = std::max(top, counts[size_t(b)]);
        if (b % std::max(1, bins / 8) == 0) ticker->addTick(b, d(lo * std::pow(10.0, b / 8.0)));
    }
    histogram_->xAxis->setTicker(ticker);
    histogram_->xAxis->setRange(-0.6, bins - 0.4);
    histogram_->xAxis->setLabel(tr("duration of %1 (log scale, 8 bins per decade)")
                                    .arg(toQString(analysis()->trace().displayName(k->nameId))));
    histogram_->yAxis->setRange(0, top * 1.15);
    histogram_->yAxis->setLabel(tr("kernels"));
    histogram_->replot();
}

void StatsPanel::exportMenu() {
    QMenu menu(this);
    menu.addAction(tr("Kernels as CSV…"), this,
                   [this] { exportTableInteractively(this, &m_->kernels, "kernels"); });
    menu.addAction(tr("CPU ops as CSV…"), this,
                   [this] { exportTableInteractively(this, &m_->cpuOps, "cpu-ops"); });
    menu.addAction(tr("Copies as CSV…"), this,
                   [this] { exportTableInteractively(this, &m_->copies, "copies"); });
    menu.addAction(tr("GPU busy per device and step as CSV…"), this,
                   [this] { exportTableInteractively(this, &m_->busy, "gpu-busy"); });
    menu.addAction(tr("GPU time breakdown as CSV…"), this, [this] {
        exportTableInteractively(this, gpuTime_->model(), "gpu-time-breakdown");
    });
    menu.addAction(tr("Stream idle (HTA) as CSV…"), this, [this] {
        exportTableInteractively(this, gpuTime_->idleModel(), "stream-idle");
    });
    menu.addAction(tr("Step time by role as CSV…"), this,
                   [this] { exportTableInteractively(this, stepRoles_->model(), "step-roles"); });
    menu.addAction(tr("Findings as CSV…"), this,
                   [this] { exportTableInteractively(this, &m_->findings, "findings"); });
    menu.addAction(tr("Category chart…"), this,
                   [this] { exportChartInteractively(this, categories_, "kernel-categories"); });
    menu.addAction(tr("GPU time chart…"), this, [this] {
        exportChartInteractively(this, gpuTime_->chart(), "gpu-time-breakdown");
    });
    menu.addAction(tr("Duration histogram…"), this,
                   [this] { exportChartInteractively(this, histogram_, "kernel-durations"); });
    menu.exec(QCursor::pos());
}

} // namespace strata
