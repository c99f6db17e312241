#include "roofline_panel.h"

#include "charts/chart_theme.h"
#include "charts/row_columns.h"
#include "charts/row_table_model.h"
#include "charts/sortable_table.h"

#include "analysis/ops/roofline.h"
#include "analysis/trace_analysis.h"
#include "model/counter_units.h"
#include "workspace/navigation.h"
#include "workspace/workspace.h"

#include <qcustomplot.h>

#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace strata {

namespace {

struct RooflineRow {
    RooflineKernel k;
    QString name, full; // display name, full name
};

QString si(std::optional<double> v, const char* unit) {
    return v ? QString::fromStdString(formatSi(*v, unit)) : QStringLiteral("\u2014");
}

QString boundText(RooflineBound b) {
    return b == RooflineBound::Memory    ? QObject::tr("memory")
           : b == RooflineBound::Compute ? QObject::tr("compute")
                                         : QStringLiteral("\u2014");
}

RowColumn<RooflineRow> siColumn(const QString& header, const char* unit,
                                std::function<std::optional<double>(const RooflineKernel&)> f) {
    return {header, [f, unit](const RooflineRow& r) { return si(f(r.k), unit); },
            [f](const RooflineRow& r) { return f(r.k); }};
}

const QColor kPrecisionColors[kFlopPrecisions] = {
    QColor(0x9c, 0x27, 0xb0), QColor(0x1f, 0x77, 0xb4), QColor(0x2c, 0xa0, 0x2c)};
const QColor kMemoryColor(0xd6, 0x27, 0x28);

// Whether a kernel has a point on the log-log chart: some FLOPs and some DRAM traffic.
bool onChart(const RooflineKernel& k) {
    return k.intensity().value_or(0) > 0 && k.achieved().value_or(0) > 0;
}

// A straight segment on the log-log chart.
void segment(QCustomPlot* p, double x0, double y0, double x1, double y1, const QColor& c,
             const QString& name) {
    QCPGraph* g = p->addGraph();
    g->setData({x0, x1}, {y0, y1});
    g->setPen(QPen(c, 2));
    g->setName(name);
}

} // namespace

struct RooflinePanel::Rows {
    RowTableModel<RooflineRow> model{{
        nameColumn<RooflineRow>(
            QObject::tr("Kernel"), [](const RooflineRow& r) { return r.name; },
            [](const RooflineRow& r) { return r.full; }),
        {QObject::tr("GPU"), [](const RooflineRow& r) { return QString::number(r.k.device); },
         [](const RooflineRow& r) { return double(r.k.device); }},
        {QObject::tr("Launches"),
         [](const RooflineRow& r) { return QString::number(r.k.launches); },
         [](const RooflineRow& r) { return double(r.k.launches); }},
        timeColumn<RooflineRow>(QObject::tr("Time"),
                                [](const RooflineRow& r) { return r.k.seconds * 1e9; }),
        {QObject::tr("Precision"),
         [](const RooflineRow& r) { return QString::fromUtf8(flopPrecisionName(r.k.precision)); },
         {}},
        siColumn(QObject::tr("FLOP"), "FLOP",
                 [](const RooflineKernel& k) { return k.totalFlops(); }),
        siColumn(QObject::tr("DRAM"), "B", [](const RooflineKernel& k) { return k.bytes; }),
        {QObject::tr("FLOP/B"),
         [](const RooflineRow& r) {
             const auto ai = r.k.intensity();
             return ai ? QString::number(*ai, 'g', 3) : QStringLiteral("\u2014");
         },
         [](const RooflineRow& r) { return r.k.intensity(); }},
        siColumn(QObject::tr("Achieved"), "FLOP/s",
                 [](const RooflineKernel& k) { return k.achieved(); }),
        {QObject::tr("Of the roof"),
         [](const RooflineRow& r) {
             const auto s = r.k.roofShare();
             return s ? QString::number(100 * *s, 'f', 0) + " %" : QStringLiteral("\u2014");
         },
         [](const RooflineRow& r) { return r.k.roofShare(); }},
        {QObject::tr("Bound"), [](const RooflineRow& r) { return boundText(r.k.bound); }, {}},
    }};
};

RooflinePanel::RooflinePanel(Workspace* workspace, Navigation* navigation, QWidget* parent)
    : AnalysisPanel(workspace, navigation, parent), rows_(std::make_unique<Rows>()),
      summary_(new QLabel(this)), chart_(new QCustomPlot(this)) {
    followTheme(chart_);
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::RichText); // kernel names escaped, the hint in bold
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    for (QCPAxis* axis : {chart_->xAxis, chart_->yAxis}) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
        axis->setNumberFormat("eb");
        axis->setNumberPrecision(0);
    }
    chart_->xAxis->setLabel(tr("arithmetic intensity (FLOP per DRAM byte)"));
    chart_->yAxis->setLabel(tr("achieved FLOP/s"));
    chart_->legend->setVisible(true);
    chart_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    table_ = makeSortableTable(&rows_->model, this, false);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(chart_);
    split->addWidget(table_);
    split->setStretchFactor(0, 3); // the chart first: a few kernels make a short table
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(summary_);
    layout->addWidget(split, 1);
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& i) { activateRow(i.row()); });
    refresh();
}

RooflinePanel::~RooflinePanel() = default;

QAbstractItemModel* RooflinePanel::model() const {
    return &rows_->model;
}

QString RooflinePanel::summaryText() const {
    return summary_->text();
}

AnalysisPanel::Preparation RooflinePanel::preparation() const {
    return [](const TraceAnalysis& a) { a.roofline(); };
}

void RooflinePanel::present(const std::shared_ptr<const TraceAnalysis>& a) {
    roofline_ = a ? std::shared_ptr<const Roofline>(a, &a->roofline()) : nullptr;
    std::vector<RooflineRow> rows;
    if (roofline_)
        for (const RooflineKernel& k : roofline_->kernels)
            rows.push_back({k, QString::fromUtf8(a->trace().displayName(k.nameId)),
                            QString::fromUtf8(a->trace().str(k.nameId))});
    rows_->model.setRows(std::move(rows));
    table_->resizeColumnToContents(0);
    if (!roofline_ || (roofline_->launches.empty() && roofline_->incomplete == 0)) {
        summary_->setText(tr("No kernel here carries per-kernel counters. Record with "
                             "<b>strata-cli record --kernel-metrics REGEX</b> (CUPTI's range "
                             "profiler, kernel replay) to see where each kernel sits under the "
                             "GPU's roofs."));
        draw(-1);
        return;
    }
    const size_t n = roofline_->launches.size();
    QString text =
        n == 1 ? tr("1 kernel launch measured") : tr("%1 kernel launches measured").arg(n);
    if (roofline_->incomplete)
        text += tr(", %1 without the roofline's counters (DRAM bytes and FLOP counts)")
                    .arg(roofline_->incomplete);
    text += ".";
    for (const RooflineCeilings& c : roofline_->devices) {
        QStringList roofs;
        if (c.bytesPerSecond) roofs << tr("DRAM %1").arg(si(c.bytesPerSecond, "B/s"));
        for (size_t p = 0; p < kFlopPrecisions; ++p)
            if (c.flopsPerSecond[p])
                roofs << QStringLiteral("%1 %2").arg(
                    QString::fromUtf8(flopPrecisionName(FlopPrecision(p))),
                    si(c.flopsPerSecond[p], "FLOP/s"));
        text += tr(" GPU %1: %2.")
                    .arg(c.device)
                    .arg(roofs.isEmpty() ? tr("no ceilings (the peak counters were not measured)")
                                         : roofs.join(", "));
    }
    QStringList off;
    for (const RooflineRow& r : rows_->model.rows())
        if (!onChart(r.k)) off << r.name;
    if (!off.isEmpty())
        text += tr(" Not on the chart (no FLOP or no DRAM traffic): %1.").arg(off.join(", "));
    summary_->setText(text.toHtmlEscaped());
    draw(-1);
}

void RooflinePanel::activateRow(int row) {
    const int source = table_->model() ? sourceRow(table_, table_->model()->index(row, 0)) : -1;
    const RooflineRow* r = rows_->model.rowAt(source);
    draw(source);
    if (!r || !roofline_) return;
    const RooflineLaunch* longest = nullptr;
    for (const RooflineLaunch& l : roofline_->launches)
        if (l.device == r->k.device && analysis() &&
            analysis()->trace().track(l.kernel.track).slices.name[l.kernel.index] == r->k.nameId &&
            (!longest || l.seconds > longest->seconds))
            longest = &l;
    if (longest) navigation()->setSelectedSlice(workspace()->ref(longest->kernel), true);
}

void RooflinePanel::draw(int marked) {
    chart_->clearGraphs();
    chart_->clearItems();
    const std::vector<RooflineRow>& rows = rows_->model.rows();
    std::vector<double> xs, ys;
    for (const RooflineRow& r : rows)
        if (onChart(r.k)) {
            xs.push_back(*r.k.intensity());
            ys.push_back(*r.k.achieved());
        }
    if (roofline_)
        for (const RooflineCeilings& c : roofline_->devices)
            for (size_t p = 0; p < kFlopPrecisions; ++p)
                if (c.flopsPerSecond[p]) {
                    ys.push_back(*c.flopsPerSecond[p]);
                    if (c.bytesPerSecond) xs.push_back(*c.flopsPerSecond[p] / *c.bytesPerSecond);
                }
    if (xs.empty() || ys.empty()) {
        chart_->replot();
        return;
    }
    const double x0 = *std::min_element(xs.begin(), xs.end()) / 8;
    const double x1 = *std::max_element(xs.begin(), xs.end()) * 8;
    const double y0 = *std::min_element(ys.begin(), ys.end()) / 8;
    const double y1 = *std::max_element(ys.begin(), ys.end()) * 3;
    chart_->xAxis->setRange(x0, x1);
    chart_->yAxis->setRange(y0, y1);
    for (const RooflineCeilings& c : roofline_->devices) {
        double top = 0;
        for (size_t p = 0; p < kFlopPrecisions; ++p)
            top = std::max(top, c.flopsPerSecond[p].value_or(0));
        if (c.bytesPerSecond)
            segment(chart_, x0, x0 * *c.bytesPerSecond, top > 0 ? top / *c.bytesPerSecond : x1,
                    top > 0 ? top : x1 * *c.bytesPerSecond, kMemoryColor,
                    tr("GPU %1 DRAM %2").arg(c.device).arg(si(c.bytesPerSecond, "B/s")));
        for (size_t p = 0; p < kFlopPrecisions; ++p) {
            if (!c.flopsPerSecond[p]) continue;
            const double peak = *c.flopsPerSecond[p];
            const double from = c.bytesPerSecond ? peak / *c.bytesPerSecond : x0;
            segment(chart_, from, peak, x1, peak, kPrecisionColors[p],
                    tr("GPU %1 %2 %3")
                        .arg(c.device)
                        .arg(QString::fromUtf8(flopPrecisionName(FlopPrecision(p))))
                        .arg(si(peak, "FLOP/s")));
        }
    }
    const bool manyDevices = std::any_of(rows.begin(), rows.end(), [&](const RooflineRow& r) {
        return r.k.device != rows.front().k.device;
    });
    for (size_t i = 0; i < rows.size(); ++i) {
        const RooflineKernel& k = rows[i].k;
        if (!onChart(k)) continue;
        QCPGraph* g = chart_->addGraph();
        g->removeFromLegend();
        g->setLineStyle(QCPGraph::lsNone);
        const bool mark = int(i) == marked;
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc,
                                           kPrecisionColors[size_t(k.precision)], mark ? 14 : 9));
        g->setData({*k.intensity()}, {*k.achieved()});
        auto* label = new QCPItemText(chart_);
        label->position->setCoords(*k.intensity(), *k.achieved());
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        label->setPadding(QMargins(6, 0, 0, 4));
        label->setColor(chart_->xAxis->labelColor());
        QFont f = label->font();
        f.setBold(mark);
        label->setFont(f);
        label->setText(rows[i].name.left(40) +
                       (manyDevices ? tr(" (GPU %1)").arg(k.device) : QString()));
    }
    chart_->replot();
}

} // namespace strata
