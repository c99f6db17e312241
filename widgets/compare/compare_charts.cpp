#include "compare_charts.h"

#include "charts/chart_notice.h"
#include "model/names/display_name.h"
#include "model/names/time_text.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace strata {

namespace {

void clearPlot(QCustomPlot* plot) {
    plot->clearPlottables();
    plot->clearItems();
    if (plot->legend) plot->legend->setVisible(false);
}

QString statusMark(DiffStatus s) {
    switch (s) {
    case DiffStatus::Added:
        return QObject::tr(" [added]");
    case DiffStatus::Removed:
        return QObject::tr(" [removed]");
    case DiffStatus::Same:
        return QObject::tr(" [within noise]");
    case DiffStatus::Changed:
        break;
    }
    return {};
}

} // namespace

void plotDeltas(QCustomPlot* plot, const std::vector<DiffRow>& rows, size_t top) {
    clearPlot(plot);
    // As many as the chart has room for (a label needs about 20 pixels; the x axis, its label
    // and the margins take about 50).
    const size_t room = size_t(std::max(1, (plot->height() - 50) / 20));
    const size_t n = std::min({top, rows.size(), room});
    if (n == 0) {
        plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        return showChartNotice(plot, QObject::tr("Nothing to compare."));
    }
    auto* slower = new QCPBars(plot->yAxis, plot->xAxis);
    auto* faster = new QCPBars(plot->yAxis, plot->xAxis);
    slower->setBrush(QColor(215, 80, 60));
    faster->setBrush(QColor(60, 160, 90));
    for (QCPBars* b : {slower, faster}) {
        b->setPen(Qt::NoPen);
        b->setWidth(0.7);
    }
    QSharedPointer<QCPAxisTickerText> ticks(new QCPAxisTickerText);
    double lo = 0, hi = 0;
    for (size_t i = 0; i < n; ++i) {
        const DiffRow& r = rows[i];
        const double ms = double(r.deltaTotal()) / 1e6;
        (ms > 0 ? slower : faster)->addData(double(i), ms);
        lo = std::min(lo, ms);
        hi = std::max(hi, ms);
        QString label = QString::fromStdString(r.shownName());
        if (label.size() > 48) label = label.left(47) + QStringLiteral("…");
        ticks->addTick(double(i), label + statusMark(r.status));
    }
    plot->yAxis->setTicker(ticks);
    plot->yAxis->setRange(-0.6, double(n) - 0.4);
    plot->yAxis->setRangeReversed(true); // the largest effect on top
    const double pad = std::max(hi - lo, 1e-3) * 0.08;
    plot->xAxis->setRange(lo - pad, hi + pad);
    plot->xAxis->setLabel(QObject::tr("candidate − baseline, total time (ms)"));
    plot->replot();
}

void plotHistograms(QCustomPlot* plot, const QString& name, const std::vector<TimeNs>& baseline,
                    const std::vector<TimeNs>& candidate) {
    clearPlot(plot);
    if (baseline.empty() && candidate.empty())
        return showChartNotice(
            plot, QObject::tr("Click a kernel or a CPU op to see its durations on both "
                              "sides."));
    // Log bins, 4 per decade, over both sides' durations (at least 1 ns).
    TimeNs lo = INT64_MAX, hi = 1;
    for (const auto* v : {&baseline, &candidate})
        for (TimeNs d : *v) lo = std::min(lo, std::max<TimeNs>(d, 1)), hi = std::max(hi, d);
    const double first = std::floor(std::log10(double(lo)) * 4) / 4;
    const int bins = std::max(1, int(std::ceil((std::log10(double(hi)) - first) * 4)) + 1);
    auto count = [&](const std::vector<TimeNs>& v) {
        std::vector<double> c(size_t(bins), 0);
        for (TimeNs d : v) {
            const int b = int((std::log10(double(std::max<TimeNs>(d, 1))) - first) * 4);
            c[size_t(std::clamp(b, 0, bins - 1))] += 1;
        }
        return c;
    };
    const std::vector<double> cb = count(baseline), cc = count(candidate);
    auto* b = new QCPBars(plot->xAxis, plot->yAxis);
    auto* c = new QCPBars(plot->xAxis, plot->yAxis);
    b->setName(QObject::tr("baseline (%1)").arg(baseline.size()));
    c->setName(QObject::tr("candidate (%1)").arg(candidate.size()));
    b->setBrush(QColor(70, 120, 200, 150));
    c->setBrush(QColor(240, 140, 40, 150));
    QSharedPointer<QCPAxisTickerText> ticks(new QCPAxisTickerText);
    double top = 0;
    for (int i = 0; i < bins; ++i) {
        b->addData(i - 0.18, cb[size_t(i)]);
        c->addData(i + 0.18, cc[size_t(i)]);
        top = std::max({top, cb[size_t(i)], cc[size_t(i)]});
        if (i % 2 == 0 || bins <= 8)
            ticks->addTick(i, QString::fromStdString(formatDuration(
                                  TimeNs(std::llround(std::pow(10, first + i / 4.0))))));
    }
    for (QCPBars* x : {b, c}) {
        x->setPen(Qt::NoPen);
        x->setWidth(0.36);
    }
    plot->xAxis->setTicker(ticks);
    plot->xAxis->setRange(-0.6, bins - 0.4);
    plot->xAxis->setLabel(QObject::tr("duration (bins from the value shown)"));
    plot->yAxis->setRange(0, top * 1.15 + 1);
    plot->yAxis->setLabel(QObject::tr("count"));
    plot->legend->setVisible(true);
    auto* title = qobject_cast<QCPTextElement*>(plot->plotLayout()->element(0, 0));
    if (!title) {
        plot->plotLayout()->insertRow(0);
        title = new QCPTextElement(plot, QString());
        plot->plotLayout()->addElement(0, 0, title);
    }
    QString shown = QString::fromStdString(shortName(name.toStdString()));
    if (shown.size() > 80) shown = shown.left(79) + QStringLiteral("…");
    title->setText(shown);
    plot->replot();
}

} // namespace strata
