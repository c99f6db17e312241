#include "rank_charts.h"

#include "charts/chart_notice.h"
#include "model/names/time_text.h"

#include <qcustomplot.h>

#include <algorithm>

namespace strata {

namespace {

QString dur(TimeNs ns) {
    return QString::fromStdString(formatDuration(ns));
}

void clearPlot(QCustomPlot* plot) {
    plot->clearPlottables();
    plot->clearItems();
    // A colour scale or a title from an earlier chart goes with it.
    for (int i = plot->plotLayout()->elementCount() - 1; i >= 0; --i) {
        QCPLayoutElement* e = plot->plotLayout()->elementAt(i);
        if (qobject_cast<QCPColorScale*>(e) || qobject_cast<QCPTextElement*>(e))
            plot->plotLayout()->remove(e);
    }
    plot->plotLayout()->simplify();
}

// At most about 40 rank labels on an axis: every k-th rank's for a job of thousands.
constexpr qsizetype kMaxRankTicks = 40;

QSharedPointer<QCPAxisTickerText> rankTicks(const QStringList& labels) {
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    const qsizetype every =
        std::max<qsizetype>(1, (labels.size() + kMaxRankTicks - 1) / kMaxRankTicks);
    for (qsizetype i = 0; i < labels.size(); i += every) ticker->addTick(double(i), labels[i]);
    return ticker;
}

} // namespace

void plotStepMap(QCustomPlot* plot, const CrossRankReport& report, const QStringList& labels) {
    clearPlot(plot);
    const size_t S = report.steps.size(), R = report.ranks.size();
    if (S == 0 || R == 0)
        return showChartNotice(
            plot, QObject::tr("No steps: the ranks have no ProfilerStep#N (or the step "
                              "name the toolbar gives)."));
    // Each cell a rectangle (a colour map of one step or one rank would have no extent).
    QCPRange range(1, 1);
    for (const CrossRankStep& st : report.steps)
        for (const RankStep& r : st.ranks)
            if (st.medianDuration > 0 && r.duration > 0)
                range.expand(double(r.duration) / double(st.medianDuration));
    if (range.size() < 0.1) range = QCPRange(range.center() - 0.05, range.center() + 0.05);
    QCPColorGradient gradient(QCPColorGradient::gpThermal);
    auto* scale = new QCPColorScale(plot);
    plot->plotLayout()->addElement(0, 1, scale);
    scale->setGradient(gradient);
    scale->setDataRange(range);
    scale->setLabel(QObject::tr("step length × the median rank's"));
    auto* margins = new QCPMarginGroup(plot);
    plot->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    scale->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    for (size_t s = 0; s < S; ++s) {
        const CrossRankStep& st = report.steps[s];
        for (const RankStep& r : st.ranks) {
            if (st.medianDuration <= 0 || r.duration <= 0) continue;
            const double v = double(r.duration) / double(st.medianDuration);
            auto* cell = new QCPItemRect(plot);
            cell->topLeft->setCoords(double(s) - 0.5, double(r.rank) - 0.5);
            cell->bottomRight->setCoords(double(s) + 0.5, double(r.rank) + 0.5);
            cell->setBrush(QColor::fromRgb(gradient.color(v, range)));
            // White edges between cells while a cell is rows high; past that they would be all.
            if (R <= kMaxRankTicks)
                cell->setPen(QPen(Qt::white, 1));
            else
                cell->setPen(QPen(cell->brush().color()));
        }
        if (!st.straggler) continue;
        // The straggler: outlined, its delay written in the cell.
        auto* box = new QCPItemRect(plot);
        box->topLeft->setCoords(double(s) - 0.48, double(*st.straggler) - 0.48);
        box->bottomRight->setCoords(double(s) + 0.48, double(*st.straggler) + 0.48);
        box->setPen(QPen(QColor(0, 170, 255), 3));
        auto* text = new QCPItemText(plot);
        text->position->setCoords(double(s), double(*st.straggler));
        text->setText(QObject::tr("straggler +%1").arg(dur(st.delay)));
        text->setBrush(QColor(255, 255, 255, 210));
        text->setPadding(QMargins(3, 1, 3, 1));
    }
    QSharedPointer<QCPAxisTickerText> steps(new QCPAxisTickerText);
    for (size_t s = 0; s < S; ++s)
        steps->addTick(double(s), QString::fromStdString(report.steps[s].name));
    plot->xAxis->setTicker(steps);
    plot->xAxis->setLabel(QObject::tr("step"));
    plot->xAxis->setRange(-0.5, double(S) - 0.5);
    plot->xAxis->grid()->setVisible(false);
    plot->yAxis->grid()->setVisible(false);
    plot->yAxis->setTicker(rankTicks(labels));
    plot->yAxis->setRange(-0.5, double(R) - 0.5);
    plot->yAxis->setRangeReversed(true); // rank 0 on top, as on the timeline
    plot->replot();
}

void plotArrivals(QCustomPlot* plot, const CrossRankReport& report, const QStringList& labels,
                  const CrossRankCollective* c) {
    clearPlot(plot);
    if (!c || c->ranks.empty())
        return showChartNotice(
            plot, report.collectives.empty()
                      ? QObject::tr("No collective kernel matched across aligned ranks.")
                      : QObject::tr("Choose a collective in the table to see how long "
                                    "each rank waited in it."));
    auto* waited = new QCPBars(plot->yAxis, plot->xAxis);
    waited->setBrush(QColor(90, 140, 200));
    waited->setPen(Qt::NoPen);
    waited->setWidth(0.6);
    waited->setName(QObject::tr("waited for the last rank"));
    auto* late = new QCPBars(plot->yAxis, plot->xAxis);
    late->setBrush(QColor(220, 90, 60));
    late->setPen(Qt::NoPen);
    late->setWidth(0.6);
    double top = 0;
    for (size_t k = 0; k < c->ranks.size(); ++k) {
        const double us = double(c->wait[k]) / 1000.0;
        (c->ranks[k] == c->lateRank ? late : waited)->addData(double(c->ranks[k]), us);
        top = std::max(top, us);
    }
    auto* title = new QCPTextElement(
        plot, QObject::tr("%1 #%2 (%3): %4 arrived last, %5 after the others' median")
                  .arg(QString::fromStdString(c->op), QString::number(c->index),
                       QString::fromStdString(c->group), labels.value(qsizetype(c->lateRank)),
                       dur(c->lateBy)));
    title->setObjectName(QStringLiteral("title"));
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0, title);
    QStringList ticks = labels;
    if (c->lateRank < size_t(ticks.size())) ticks[qsizetype(c->lateRank)] += QObject::tr(" (last)");
    plot->yAxis->setTicker(rankTicks(ticks));
    plot->yAxis->setRange(-0.5, double(labels.size()) - 0.5);
    plot->yAxis->setRangeReversed(true);
    plot->xAxis->setLabel(QObject::tr("waited for the last rank to arrive (µs)"));
    plot->xAxis->setRange(0, top > 0 ? top * 1.1 : 1);
    plot->replot();
}

} // namespace strata
