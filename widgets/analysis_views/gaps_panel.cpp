#include "gaps_panel.h"

#include "charts/chart_export.h"
#include "charts/chart_theme.h"
#include "charts/sortable_table.h"
#include "gaps_table_model.h"
#include "model/names/time_text.h"
#include "style/gap_style.h"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

namespace strata {

namespace {

// Measured times in 4 significant digits (the table's tooltips and Details are exact).
QString dur(TimeNs ns) {
    return QString::fromStdString(formatDuration(ns));
}

// `text` in lines no wider than `width` px: words wrapped, a word wider than a line elided.
QString wrapped(const QString& text, const QFontMetrics& fm, int width) {
    QStringList lines;
    QString line;
    for (const QString& word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QString joined = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
        if (fm.horizontalAdvance(joined) <= width) {
            line = joined;
            continue;
        }
        if (!line.isEmpty()) lines << line;
        line = fm.elidedText(word, Qt::ElideRight, width);
    }
    if (!line.isEmpty()) lines << line;
    return lines.join(QLatin1Char('\n'));
}

// The captions under the cause bars, each within its bar's slot (`axisWidth` over the causes,
// less a margin): the cause, how many gaps, its share of the span, wrapped to fit, so that no two
// captions meet at any width. True when they changed.
bool setCauseCaptions(QCustomPlot* plot, const GapCauses& g, int axisWidth) {
    TimeNs span = 0; // the devices' spans: each cause's share of them
    for (const DeviceGapStats& d : g.devices) span += d.lastEnd - d.firstStart;
    const QFontMetrics fm(plot->xAxis->tickLabelFont());
    const double unit = axisWidth / double(kGapCauseCount);
    const int slot = std::max(fm.horizontalAdvance(QStringLiteral("MMM")), int(unit) - 10);
    QMap<double, QString> captions;
    for (int c = 0; c < kGapCauseCount; ++c) {
        const CauseTotals& t = g.byCause[size_t(c)];
        const double share = span > 0 ? 100.0 * double(t.idle) / double(span) : 0;
        captions[c] =
            wrapped(gapCauseText(GapCause(c)), fm, slot) + QLatin1Char('\n') +
            wrapped(QObject::tr("%1 gaps, %2 % of the span").arg(t.count).arg(share, 0, 'f', 1), fm,
                    slot);
    }
    auto ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(plot->xAxis->ticker());
    if (!ticker) {
        ticker.reset(new QCPAxisTickerText);
        plot->xAxis->setTicker(ticker);
    }
    if (ticker->ticks() == captions) return false;
    ticker->setTicks(captions);
    return true;
}

// The width the cause axis will have: the plot's, less the margins of its last layout (the value
// axis' labels, stable from one replot to the next).
int expectedAxisWidth(QCustomPlot* plot) {
    const QMargins m = plot->xAxis->axisRect()->margins();
    return plot->viewport().width() - m.left() - m.right();
}

// Bars of idle time per cause, in the causes' colours.
void plotCauses(QCustomPlot* plot, const GapCauses& g) {
    plot->clearPlottables();
    double top = 0;
    for (int c = 0; c < kGapCauseCount; ++c) {
        auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
        bars->setBrush(QColor::fromRgb(gapCauseColor(c)));
        bars->setPen(Qt::NoPen);
        bars->setWidth(0.6);
        const double ms = double(g.byCause[size_t(c)].idle) / 1e6;
        bars->addData(c, ms);
        top = std::max(top, ms);
    }
    setCauseCaptions(plot, g, expectedAxisWidth(plot));
    plot->xAxis->setRange(-0.6, kGapCauseCount - 0.4);
    plot->yAxis->setRange(0, top > 0 ? top * 1.15 : 1);
    plot->yAxis->setLabel(QObject::tr("idle time (ms)"));
    plot->replot();
}

// Device gap lengths on log bins (4 per decade from the threshold up), stacked by cause.
void plotHistogram(QCustomPlot* plot, const GapCauses& g) {
    plot->clearPlottables();
    const double lo = std::max(1.0, double(g.threshold));
    double hi = lo * 10;
    for (const ExplainedGap& e : g.deviceGaps) hi = std::max(hi, double(e.gap.duration()));
    const int bins = std::max(1, int(std::ceil(4 * std::log10(hi / lo))) + 1);
    std::vector<std::array<double, kGapCauseCount>> counts(size_t(bins),
                                                           std::array<double, kGapCauseCount>{});
    for (const ExplainedGap& e : g.deviceGaps) {
        const int b = std::clamp(int(4 * std::log10(double(e.gap.duration()) / lo)), 0, bins - 1);
        counts[size_t(b)][size_t(e.cause)] += 1;
    }
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int b = 0; b < bins; b += std::max(1, bins / 8))
        ticker->addTick(
            b, QString::fromStdString(formatDuration(TimeNs(lo * std::pow(10.0, b / 4.0)))));
    QCPBars* below = nullptr;
    double top = 0;
    std::vector<double> stack(size_t(bins), 0.0);
    for (int c = 0; c < kGapCauseCount; ++c) {
        auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
        bars->setBrush(QColor::fromRgb(gapCauseColor(c)));
        bars->setPen(Qt::NoPen);
        bars->setWidth(0.9);
        for (int b = 0; b < bins; ++b) {
            bars->addData(b, counts[size_t(b)][size_t(c)]);
            stack[size_t(b)] += counts[size_t(b)][size_t(c)];
        }
        if (below) bars->moveAbove(below);
        below = bars;
    }
    for (double s : stack) top = std::max(top, s);
    plot->xAxis->setTicker(ticker);
    plot->xAxis->setRange(-0.6, bins - 0.4);
    plot->xAxis->setLabel(QObject::tr("gap length (log scale, 4 bins per decade)"));
    plot->yAxis->setRange(0, top > 0 ? top * 1.15 : 1);
    plot->yAxis->setLabel(QObject::tr("device gaps"));
    plot->replot();
}

} // namespace

GapsPanel::GapsPanel(Workspace* workspace, Navigation* navigation, QWidget* parent)
    : AnalysisPanel(workspace, navigation, parent), summary_(new QLabel(this)),
      byCause_(new QCustomPlot(this)), histogram_(new QCustomPlot(this)),
      model_(new GapsTableModel(this)) {
    followTheme(byCause_);
    followTheme(histogram_);
    table_ = makeSortableTable(model_, this, true, false);
    summary_->setWordWrap(true);
    summary_->setToolTip(tr("With a range selected: the GPU ops that start in it, counted whole "
                            "(a gap belongs to the range its closing op starts in)."));
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    byCause_->setObjectName("gaps-by-cause");
    histogram_->setObjectName("gap-lengths");
    table_->sortByColumn(GapsTableModel::Length, Qt::DescendingOrder); // the longest first
    auto* exportButton = new QToolButton(this);
    exportButton->setText(tr("Export…"));
    exportButton->setToolTip(tr("Export the gaps as CSV, or a chart as PNG, SVG or PDF"));
    auto* top = new QHBoxLayout;
    top->addWidget(summary_, 1);
    top->addWidget(exportButton, 0, Qt::AlignTop);
    auto* charts = new QSplitter(Qt::Horizontal, this);
    charts->addWidget(byCause_);
    charts->addWidget(histogram_);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(charts);
    split->addWidget(table_);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(split, 1);
    connect(exportButton, &QToolButton::clicked, this, &GapsPanel::exportMenu);
    // The captions follow the chart's width: fitted before each replot draws them (a resize
    // replots), and again, should the layout give the axis another width, once it is laid out.
    connect(byCause_, &QCustomPlot::beforeReplot, this, [this] {
        if (causes_) setCauseCaptions(byCause_, *causes_, expectedAxisWidth(byCause_));
    });
    connect(byCause_, &QCustomPlot::afterLayout, this, [this] {
        if (causes_ && setCauseCaptions(byCause_, *causes_, byCause_->xAxis->axisRect()->width()))
            byCause_->replot(QCustomPlot::rpQueuedReplot);
    });
    connect(table_, &QTableView::activated, this,
            [this](const QModelIndex& i) { activateRow(i.row()); });
    connect(table_, &QTableView::clicked, this,
            [this](const QModelIndex& i) { activateRow(i.row()); });
    refresh();
}

GapsPanel::~GapsPanel() = default;

QString GapsPanel::summaryText() const {
    return summary_->text();
}

AnalysisPanel::Preparation GapsPanel::preparation() const {
    return [](const TraceAnalysis& a) { a.gapCauses(); };
}

void GapsPanel::present(const std::shared_ptr<const TraceAnalysis>& a) {
    // The analysis' gap causes, kept alive by the analysis they belong to.
    const std::shared_ptr<const GapCauses> g =
        a ? std::shared_ptr<const GapCauses>(a, &a->gapCauses()) : nullptr;
    model_->setGaps(a ? a->tracePtr() : nullptr, g);
    causes_ = g;
    if (!g) {
        summary_->setText(tr("Open a trace with GPU work to see why the GPU waited."));
        byCause_->clearPlottables();
        histogram_->clearPlottables();
        byCause_->replot();
        histogram_->replot();
        return;
    }
    TimeNs idle = 0;
    uint64_t count = 0;
    for (const CauseTotals& c : g->byCause) idle += c.idle, count += c.count;
    QString text = tr("<b>%1 device gaps over %2</b> (%3 idle)%4.")
                       .arg(count)
                       .arg(QString::fromStdString(formatPreciseDuration(g->threshold)), dur(idle),
                            range() ? tr(" in the selected range") : QString());
    for (const DeviceGapStats& d : g->devices) {
        const TimeNs span = d.lastEnd - d.firstStart;
        text +=
            tr(" GPU %1 idle %2 of its span (%3 in all gaps).")
                .arg(d.device)
                .arg(QString::number(span > 0 ? 100.0 * double(d.idle) / double(span) : 0, 'f', 1) +
                         " %",
                     dur(d.idle));
    }
    for (const EdgeIdle& e : g->edges)
        text += tr(" Apart: GPU %1 idle %2 before its first op, %3 after its last.")
                    .arg(e.device)
                    .arg(dur(e.before), dur(e.after));
    for (const std::string& w : g->warnings)
        text += "<br><span style='color:#a04000'>⚠ " + QString::fromStdString(w).toHtmlEscaped() +
                "</span>";
    summary_->setText(text);
    plotCauses(byCause_, *g);
    plotHistogram(histogram_, *g);
    table_->resizeColumnsToContents();
}

void GapsPanel::activateRow(int row) {
    auto* proxy = static_cast<QSortFilterProxyModel*>(table_->model());
    const QModelIndex src = proxy->mapToSource(proxy->index(row, 0));
    const ExplainedGap* e = model_->gapAt(src.row());
    if (!e) return;
    const TimeNs pad = std::max<TimeNs>(e->gap.duration(), 1000);
    navigation()->setVisibleRange({e->gap.start - pad, e->gap.end + pad});
    if (e->launch.valid()) navigation()->setSelectedSlice(workspace()->ref(e->launch), true);
}

void GapsPanel::exportMenu() {
    QMenu menu(this);
    menu.addAction(tr("Table as CSV…"), this,
                   [this] { exportTableInteractively(this, model_, "gaps"); });
    menu.addAction(tr("Idle by cause chart…"), this,
                   [this] { exportChartInteractively(this, byCause_, "gaps-by-cause"); });
    menu.addAction(tr("Gap length histogram…"), this,
                   [this] { exportChartInteractively(this, histogram_, "gap-lengths"); });
    menu.exec(QCursor::pos());
}

} // namespace strata
