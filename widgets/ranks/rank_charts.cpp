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

} // namespace

void clearRankChart(QCustomPlot* plot) {
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

void setRankAxis(QCPAxis* axis, const QStringList& labels) {
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    const qsizetype every =
        std::max<qsizetype>(1, (labels.size() + kMaxRankTicks - 1) / kMaxRankTicks);
    for (qsizetype i = 0; i < labels.size(); i += every) ticker->addTick(double(i), labels[i]);
    axis->setTicker(ticker);
    axis->setRange(-0.5, double(labels.size()) - 0.5);
    axis->setRangeReversed(true);
}

void plotArrivals(QCustomPlot* plot, const CrossRankReport& report, const QStringList& labels,
                  const CrossRankCollective* c) {
    clearRankChart(plot);
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
    setRankAxis(plot->yAxis, ticks);
    plot->xAxis->setLabel(QObject::tr("waited for the last rank to arrive (µs)"));
    plot->xAxis->setRange(0, top > 0 ? top * 1.1 : 1);
    plot->replot();
}

} // namespace strata
