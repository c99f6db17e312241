#include "step_map.h"

#include "charts/chart_notice.h"
#include "model/names/time_text.h"
#include "rank_charts.h"

#include <qcustomplot.h>

#include <algorithm>

namespace strata {

namespace {

QString dur(TimeNs ns) {
    return QString::fromStdString(formatDuration(ns));
}

// What the cell is coloured by: ns for the times, the ratio for the length; none: no colour.
std::optional<double> cellValue(const CrossRankStep& st, const RankStep& r, StepMapColour c) {
    switch (c) {
    case StepMapColour::LateStart:
        return r.lateStart ? std::optional<double>(double(*r.lateStart)) : std::nullopt;
    case StepMapColour::CausedWait:
        return double(r.causedWait);
    case StepMapColour::Length:
        break;
    }
    if (st.medianDuration <= 0 || r.duration <= 0) return std::nullopt;
    return double(r.duration) / double(st.medianDuration);
}

// Muted for "on time" / "caused nothing", hot for the rank the others waited for.
QCPColorGradient gradientFor(StepMapColour c) {
    if (c == StepMapColour::Length) return QCPColorGradient(QCPColorGradient::gpThermal);
    QCPColorGradient g;
    g.clearColorStops();
    g.setColorStopAt(0.0, QColor(214, 224, 235));
    g.setColorStopAt(0.35, QColor(253, 212, 158));
    g.setColorStopAt(0.7, QColor(244, 109, 67));
    g.setColorStopAt(1.0, QColor(165, 15, 21));
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    return g;
}

// The colour scale's unit: ms where the largest time is 1 ms or more, else µs.
struct Unit {
    double ns = 1;
    QString name;
};

Unit unitFor(StepMapColour c, double largest) {
    if (c == StepMapColour::Length) return {1, {}};
    return largest >= 1e6 ? Unit{1e6, QStringLiteral("ms")} : Unit{1e3, QStringLiteral("µs")};
}

QString titleFor(StepMapColour c) {
    switch (c) {
    case StepMapColour::LateStart:
        return QObject::tr("Colour: how late each rank started the step, after the first rank "
                           "to start it. Outlined: the straggler.");
    case StepMapColour::CausedWait:
        return QObject::tr("Colour: how long the other ranks waited for each rank at the step's "
                           "collectives. Outlined: the straggler.");
    case StepMapColour::Length:
        break;
    }
    return QObject::tr("Colour: each rank's step length over the median rank's. Outlined: the "
                       "straggler.");
}

QString scaleLabel(StepMapColour c, const Unit& u) {
    switch (c) {
    case StepMapColour::LateStart:
        return QObject::tr("started the step late by (%1)").arg(u.name);
    case StepMapColour::CausedWait:
        return QObject::tr("the others waited for it (%1)").arg(u.name);
    case StepMapColour::Length:
        break;
    }
    return QObject::tr("step length × the median rank's");
}

QCPRange valueRange(const CrossRankReport& report, StepMapColour c, const Unit& u) {
    if (c != StepMapColour::Length) {
        double top = 0;
        for (const CrossRankStep& st : report.steps)
            for (const RankStep& r : st.ranks)
                top = std::max(top, cellValue(st, r, c).value_or(0) / u.ns);
        return QCPRange(0, top > 0 ? top : 1);
    }
    QCPRange range(1, 1);
    for (const CrossRankStep& st : report.steps)
        for (const RankStep& r : st.ranks)
            if (const auto v = cellValue(st, r, c)) range.expand(*v);
    if (range.size() < 0.1) range = QCPRange(range.center() - 0.05, range.center() + 0.05);
    return range;
}

void addLegend(QCustomPlot* plot, const QCPColorGradient& gradient, const QCPRange& range,
               const QString& label, StepMapColour c) {
    auto* scale = new QCPColorScale(plot);
    plot->plotLayout()->addElement(0, 1, scale);
    scale->setGradient(gradient);
    scale->setDataRange(range);
    scale->setLabel(label);
    auto* margins = new QCPMarginGroup(plot);
    plot->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    scale->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    auto* title = new QCPTextElement(plot, titleFor(c));
    title->setObjectName(QStringLiteral("title"));
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0, title);
}

void addCell(QCustomPlot* plot, size_t s, size_t rank, const QColor& colour, bool edges) {
    auto* cell = new QCPItemRect(plot);
    cell->topLeft->setCoords(double(s) - 0.5, double(rank) - 0.5);
    cell->bottomRight->setCoords(double(s) + 0.5, double(rank) + 0.5);
    cell->setBrush(colour);
    // White edges between cells while a cell is rows high; past that they would be all.
    cell->setPen(edges ? QPen(Qt::white, 1) : QPen(colour));
}

void addCellText(QCustomPlot* plot, size_t s, size_t rank, const QString& text) {
    auto* item = new QCPItemText(plot);
    item->position->setCoords(double(s), double(rank));
    item->setText(text);
    item->setColor(Qt::black);
    item->setBrush(QColor(255, 255, 255, 225));
    item->setPadding(QMargins(4, 1, 4, 1));
}

// A small map (a few steps of a few ranks) also writes each cell's value in it.
constexpr size_t kMaxValueCells = 64;

QString valueText(const CrossRankStep& st, const RankStep& r, StepMapColour c) {
    switch (c) {
    case StepMapColour::LateStart:
        if (!r.lateStart) return QObject::tr("not aligned");
        return *r.lateStart == 0 ? QObject::tr("first to start") : "+" + dur(*r.lateStart);
    case StepMapColour::CausedWait:
        return r.causedWait > 0 ? dur(r.causedWait) : QObject::tr("none");
    case StepMapColour::Length:
        break;
    }
    if (st.medianDuration <= 0) return {};
    return QObject::tr("%1×").arg(double(r.duration) / double(st.medianDuration), 0, 'f', 2);
}

void addValueText(QCustomPlot* plot, size_t s, size_t rank, const QString& text,
                  const QColor& under) {
    auto* item = new QCPItemText(plot);
    item->position->setCoords(double(s), double(rank));
    item->setText(text);
    item->setColor(under.lightnessF() < 0.5 ? Qt::white : QColor(40, 40, 40));
}

void outline(QCustomPlot* plot, size_t s, size_t rank) {
    auto* box = new QCPItemRect(plot);
    box->topLeft->setCoords(double(s) - 0.48, double(rank) - 0.48);
    box->bottomRight->setCoords(double(s) + 0.48, double(rank) + 0.48);
    box->setPen(QPen(QColor(0, 120, 215), 3));
}

void setAxes(QCustomPlot* plot, const CrossRankReport& report, const QStringList& labels) {
    QSharedPointer<QCPAxisTickerText> steps(new QCPAxisTickerText);
    for (size_t s = 0; s < report.steps.size(); ++s)
        steps->addTick(double(s), QString::fromStdString(report.steps[s].name));
    plot->xAxis->setTicker(steps);
    plot->xAxis->setLabel(QObject::tr("step"));
    plot->xAxis->setRange(-0.5, double(report.steps.size()) - 0.5);
    plot->xAxis->grid()->setVisible(false);
    plot->yAxis->grid()->setVisible(false);
    setRankAxis(plot->yAxis, labels); // rank 0 on top, as on the timeline
}

} // namespace

QString stepMapColourName(StepMapColour colour) {
    switch (colour) {
    case StepMapColour::LateStart:
        return QObject::tr("late start");
    case StepMapColour::CausedWait:
        return QObject::tr("wait caused");
    case StepMapColour::Length:
        break;
    }
    return QObject::tr("step length");
}

const RankStep* stepMapCell(const CrossRankReport& report, size_t step, size_t rank) {
    if (step >= report.steps.size()) return nullptr;
    for (const RankStep& r : report.steps[step].ranks)
        if (r.rank == rank) return &r;
    return nullptr;
}

QString stepMapCellText(const CrossRankReport& report, size_t step, size_t rank,
                        StepMapColour colour) {
    if (step >= report.steps.size()) return {};
    const CrossRankStep& st = report.steps[step];
    const bool straggler = st.straggler == rank;
    if (colour == StepMapColour::LateStart && st.lastToStart == rank)
        return (straggler ? QObject::tr("straggler: ") : QString()) +
               QObject::tr("started its step %1 late").arg(dur(st.startedLate));
    if (!straggler) return {};
    if (colour == StepMapColour::Length || !st.byCollectives)
        return QObject::tr("straggler +%1").arg(dur(st.delay));
    return QObject::tr("straggler: the others waited %1").arg(dur(st.delay));
}

QString stepMapTip(const CrossRankReport& report, const QStringList& labels, size_t step,
                   size_t rank) {
    const RankStep* r = stepMapCell(report, step, rank);
    if (!r) return {};
    const CrossRankStep& st = report.steps[step];
    const auto label = [&](size_t i) { return labels.value(qsizetype(i)).toHtmlEscaped(); };
    QString tip = QObject::tr("<b>%1</b> in %2")
                      .arg(label(rank), QString::fromStdString(st.name).toHtmlEscaped());
    std::optional<size_t> first;
    for (const RankStep& x : st.ranks)
        if (x.lateStart == TimeNs(0) && !first) first = x.rank;
    if (!r->lateStart)
        tip += QObject::tr("<br>not aligned: how late it started is not known");
    else if (*r->lateStart == 0)
        tip += QObject::tr("<br>the first rank to start the step");
    else
        tip += QObject::tr("<br>started its step %1 late (after %2, the first to start it)")
                   .arg(dur(*r->lateStart), first ? label(*first) : QString("?"));
    tip += r->causedWait > 0
               ? QObject::tr("<br>the others waited %1 for it at the step's collectives")
                     .arg(dur(r->causedWait))
               : QObject::tr("<br>no other rank waited for it at the step's collectives");
    tip += QObject::tr("<br>step length %1").arg(dur(r->duration));
    if (st.medianDuration > 0)
        tip += QObject::tr(" (%1 × the median rank's %2)")
                   .arg(double(r->duration) / double(st.medianDuration), 0, 'f', 2)
                   .arg(dur(st.medianDuration));
    if (st.straggler == rank)
        tip += st.byCollectives
                   ? QObject::tr("<br><b>the straggler</b>: the rank the others waited for "
                                 "longest (%1)")
                         .arg(dur(st.delay))
                   : QObject::tr("<br><b>the straggler</b>: the longest step, %1 over the "
                                 "median rank's")
                         .arg(dur(st.delay));
    return tip;
}

void plotStepMap(QCustomPlot* plot, const CrossRankReport& report, const QStringList& labels,
                 StepMapColour colour) {
    clearRankChart(plot);
    const size_t S = report.steps.size(), R = report.ranks.size();
    if (S == 0 || R == 0)
        return showChartNotice(
            plot, QObject::tr("No steps: the ranks have no ProfilerStep#N (or the step "
                              "name the toolbar gives)."));
    double largest = 0;
    for (const CrossRankStep& st : report.steps)
        for (const RankStep& r : st.ranks)
            largest = std::max(largest, cellValue(st, r, colour).value_or(0));
    const Unit unit = unitFor(colour, largest);
    const QCPRange range = valueRange(report, colour, unit);
    QCPColorGradient gradient = gradientFor(colour); // color() is not const
    addLegend(plot, gradient, range, scaleLabel(colour, unit), colour);
    const bool edges = R <= kMaxRankTicks, values = S * R <= kMaxValueCells;
    for (size_t s = 0; s < S; ++s) {
        const CrossRankStep& st = report.steps[s];
        for (const RankStep& r : st.ranks) {
            const std::optional<double> v = cellValue(st, r, colour);
            if (!v && colour == StepMapColour::Length) continue; // no length: blank
            // Each cell a rectangle (a colour map of one step or one rank would have no extent).
            const QColor fill =
                v ? QColor::fromRgb(gradient.color(*v / unit.ns, range)) : QColor(190, 190, 190);
            addCell(plot, s, r.rank, fill, edges);
            const QString text = stepMapCellText(report, s, r.rank, colour);
            if (!text.isEmpty())
                addCellText(plot, s, r.rank, text);
            else if (values)
                addValueText(plot, s, r.rank, valueText(st, r, colour), fill);
        }
        if (st.straggler) outline(plot, s, *st.straggler);
    }
    setAxes(plot, report, labels);
    plot->replot();
}

} // namespace strata
