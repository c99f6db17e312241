#include "section_charts.h"

#include "charts/chart_notice.h"
#include "style/slice_palette.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace strata {

namespace {

constexpr int kTimelineBins = 1600;
constexpr int kMaxHeatmapColumns = 4096; // more blocks are binned (a bin shows its slowest)

// Column c's colour: its section's (as on the timeline), grey for "other".
QColor columnColor(const SectionViewData& v, size_t c) {
    const int id = v.columns.idOf(c);
    return id >= 0 ? sectionColor(size_t(id)) : QColor(0x9e, 0x9e, 0x9e);
}

QString unitLabel(const SectionViewData& v) {
    if (v.perIteration)
        return v.ns ? QObject::tr("time per iteration (ns)") : QObject::tr("cycles per iteration");
    return v.ns ? QObject::tr("time per block (ns)") : QObject::tr("cycles per block");
}

// A chart with nothing to draw says why, in its middle.

// Per column, what its box shows: the blocks' totals in it (a recording), or its values over the
// iterations (an imported array).
std::vector<std::vector<double>> boxValues(const SectionViewData& v) {
    const size_t S = v.names.size();
    std::vector<std::vector<double>> perSection(S);
    if (v.perIteration) {
        for (const std::vector<double>& row : v.iterations)
            for (size_t s = 0; s < S && s < row.size(); ++s) perSection[s].push_back(row[s]);
        return perSection;
    }
    for (const BlockSections& b : v.blocks)
        for (size_t s = 0; s < S && s < b.bySection.size(); ++s)
            if (b.bySection[s] > 0) perSection[s].push_back(b.bySection[s]);
    return perSection;
}

void setSectionTicks(QCPAxis* axis, const SectionViewData& v) {
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (size_t s = 0; s < v.names.size(); ++s)
        ticker->addTick(double(s), QString::fromStdString(v.names[s]));
    axis->setTicker(ticker);
}

void reset(QCustomPlot* plot) {
    plot->clearPlottables();
    plot->clearItems();
    plot->plotLayout()->clear();
    plot->plotLayout()->addElement(0, 0, new QCPAxisRect(plot));
    QCPAxisRect* rect = plot->axisRect();
    plot->xAxis = rect->axis(QCPAxis::atBottom);
    plot->yAxis = rect->axis(QCPAxis::atLeft);
    plot->xAxis2 = rect->axis(QCPAxis::atTop);
    plot->yAxis2 = rect->axis(QCPAxis::atRight);
    plot->legend = new QCPLegend;
    rect->insetLayout()->addElement(plot->legend, Qt::AlignRight | Qt::AlignTop);
    plot->legend->setLayer("legend");
    plot->legend->setBrush(QColor(255, 255, 255, 215));
    plot->legend->setVisible(false);
    plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
}

// Empty bars whose only use is a legend entry in `color`.
void legendEntry(QCustomPlot* plot, const QColor& color, const QString& name) {
    auto* b = new QCPBars(plot->xAxis, plot->yAxis);
    b->setName(name);
    b->setBrush(color);
    b->setPen(QPen(color.darker(130)));
}

} // namespace

QColor sectionColor(size_t s) {
    return QColor::fromRgb(sectionColorRgb(s));
}

BoxStats boxStats(std::vector<double>& v) {
    BoxStats b;
    if (v.empty()) return b;
    std::sort(v.begin(), v.end());
    auto quantile = [&](double q) { // linear interpolation between closest ranks
        const double at = q * double(v.size() - 1);
        const size_t lo = size_t(std::floor(at));
        const size_t hi = std::min(lo + 1, v.size() - 1);
        return v[lo] + (v[hi] - v[lo]) * (at - double(lo));
    };
    b.q1 = quantile(0.25);
    b.median = quantile(0.5);
    b.q3 = quantile(0.75);
    const double iqr = b.q3 - b.q1, lo = b.q1 - 1.5 * iqr, hi = b.q3 + 1.5 * iqr;
    b.min = b.q1;
    b.max = b.q3;
    for (double x : v) {
        if (x < lo || x > hi)
            b.outliers.push_back(x);
        else {
            b.min = std::min(b.min, x);
            b.max = std::max(b.max, x);
        }
    }
    return b;
}

void plotSectionBoxes(QCustomPlot* plot, const SectionViewData& v) {
    reset(plot);
    const size_t S = v.names.size();
    std::vector<std::vector<double>> perSection = boxValues(v);
    double top = 0;
    for (size_t s = 0; s < S; ++s) {
        if (perSection[s].empty()) continue;
        BoxStats st = boxStats(perSection[s]);
        if (st.outliers.size() > 500) { // the extremes are what matter
            std::sort(st.outliers.begin(), st.outliers.end());
            st.outliers.erase(st.outliers.begin() + 250, st.outliers.end() - 250);
        }
        auto* box = new QCPStatisticalBox(plot->xAxis, plot->yAxis);
        box->setBrush(columnColor(v, s).lighter(130));
        box->setPen(QPen(columnColor(v, s).darker(150)));
        box->setWidth(0.5);
        box->addData(double(s), st.min, st.q1, st.median, st.q3, st.max,
                     QVector<double>(st.outliers.begin(), st.outliers.end()));
        top = std::max(top, perSection[s].back());
    }
    setSectionTicks(plot->xAxis, v);
    plot->xAxis->setRange(-0.6, double(S) - 0.4);
    plot->yAxis->setRange(0, top > 0 ? top * 1.08 : 1);
    plot->yAxis->setLabel(unitLabel(v));
    plot->xAxis->setLabel(
        QObject::tr("section (box: quartiles; whiskers: 1.5 IQR; dots: outliers) — %1 %2")
            .arg(v.perIteration ? v.iterations.size() : v.blocks.size())
            .arg(v.perIteration ? QObject::tr("iterations") : QObject::tr("blocks")));
    plot->replot();
}

void plotSectionIterations(QCustomPlot* plot, const SectionViewData& v) {
    reset(plot);
    const size_t I = v.iterations.size();
    QCPBars* below = nullptr;
    double top = 0;
    std::vector<double> stack(I, 0.0);
    for (size_t s = 0; s < v.names.size(); ++s) {
        auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
        bars->setName(QString::fromStdString(v.names[s]));
        bars->setBrush(columnColor(v, s));
        bars->setPen(Qt::NoPen);
        bars->setWidth(0.8);
        QVector<double> keys, values;
        for (size_t i = 0; i < I; ++i) {
            const double x = s < v.iterations[i].size() ? v.iterations[i][s] : 0;
            keys.push_back(double(i));
            values.push_back(x);
            stack[i] += x;
        }
        bars->setData(keys, values, true);
        if (below) bars->moveAbove(below);
        below = bars;
    }
    for (double x : stack) top = std::max(top, x);
    plot->legend->setVisible(true);
    QSharedPointer<QCPAxisTickerFixed> whole(new QCPAxisTickerFixed);
    whole->setTickStep(1);
    whole->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    plot->xAxis->setTicker(whole);
    plot->xAxis->setRange(-0.6, double(I) - 0.4);
    plot->yAxis->setRange(0, top > 0 ? top * 1.12 : 1);
    if (v.perIteration) {
        plot->xAxis->setLabel(QObject::tr("iteration (times[section][iteration])"));
        plot->yAxis->setLabel(unitLabel(v));
    } else {
        plot->xAxis->setLabel(QObject::tr("iteration (the n-th time a block entered a section)"));
        plot->yAxis->setLabel(v.ns ? QObject::tr("time summed over blocks (ns)")
                                   : QObject::tr("cycles summed over blocks"));
    }
    plot->replot();
}

void plotSectionHeatmap(QCustomPlot* plot, const SectionViewData& v, long highlight) {
    reset(plot);
    if (v.perIteration)
        return showChartNotice(
            plot, QObject::tr("No heatmap: an imported timer array has one value per section and "
                              "iteration, no blocks.\nThe Box Plot and Iterations tabs show how "
                              "its iterations vary."));
    const size_t B = v.blocks.size(), S = v.names.size();
    if (B == 0 || S == 0) {
        plot->replot();
        return;
    }
    const size_t columns = std::min<size_t>(B, kMaxHeatmapColumns);
    auto* map = new QCPColorMap(plot->xAxis, plot->yAxis);
    map->data()->setSize(int(columns), int(S));
    map->data()->setRange(QCPRange(0, double(B - 1)), QCPRange(0, double(S - 1)));
    map->data()->fill(0);
    // Each block's time in a section over the section's median block: imbalance shows whatever
    // the sections' sizes (a 100 ns store and a 6 µs compute on one scale would hide it).
    std::vector<double> median(S, 0.0);
    for (size_t s = 0; s < S; ++s) {
        std::vector<double> x;
        for (const BlockSections& b : v.blocks)
            if (s < b.bySection.size() && b.bySection[s] > 0) x.push_back(b.bySection[s]);
        median[s] = valueStats(x).median;
    }
    for (size_t b = 0; b < B; ++b) {
        const int col = int(b * columns / B);
        for (size_t s = 0; s < S && s < v.blocks[b].bySection.size(); ++s)
            if (median[s] > 0)
                map->data()->setCell(
                    col, int(s),
                    std::max(map->data()->cell(col, int(s)), v.blocks[b].bySection[s] / median[s]));
    }
    map->setInterpolate(false);
    map->setGradient(QCPColorGradient::gpThermal);
    auto* scale = new QCPColorScale(plot);
    plot->plotLayout()->addElement(0, 1, scale);
    scale->setLabel(QObject::tr("× the section's median block"));
    map->setColorScale(scale);
    map->rescaleDataRange(true);
    auto* margins = new QCPMarginGroup(plot);
    plot->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    scale->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    setSectionTicks(plot->yAxis, v);
    plot->xAxis->setLabel(B > columns ? QObject::tr("block (binned: each column shows its slowest)")
                                      : QObject::tr("block"));
    plot->xAxis->setRange(-0.5, double(B) - 0.5);
    plot->yAxis->setRange(-0.5, double(S) - 0.5);
    if (highlight >= 0 && size_t(highlight) < B) {
        auto* r = new QCPItemRect(plot);
        r->topLeft->setCoords(double(v.blocks[size_t(highlight)].block) - 0.5, double(S) - 0.5);
        r->bottomRight->setCoords(double(v.blocks[size_t(highlight)].block) + 0.5, -0.5);
        r->setPen(QPen(QColor(230, 0, 180), 2));
    }
    plot->replot();
}

int smTimelineRows(const SectionViewData& v) {
    return int(std::min<size_t>(v.lanes.rows.size(), kMaxSmTimelineRows));
}

int smTimelineRowOf(const SectionViewData& v, size_t laneRow) {
    const size_t rows = v.lanes.rows.size();
    return rows <= kMaxSmTimelineRows ? int(laneRow) : int(laneRow * kMaxSmTimelineRows / rows);
}

std::vector<uint16_t> rasterSmTimeline(const SectionViewData& v, int bins) {
    const size_t rows = size_t(smTimelineRows(v));
    std::vector<uint16_t> cells(rows * size_t(bins), 0);
    if (!v.launch || rows == 0 || v.lanes.endNs <= v.lanes.startNs) return cells;
    const double span = double(v.lanes.endNs - v.lanes.startNs);
    // The block index of each sample: blocks are sorted by block id (blockSections).
    for (const SectionSample& s : v.launch->samples) {
        const auto it =
            std::lower_bound(v.blocks.begin(), v.blocks.end(), s.block,
                             [](const BlockSections& b, uint32_t x) { return b.block < x; });
        if (it == v.blocks.end() || it->block != s.block) continue;
        const size_t row =
            size_t(smTimelineRowOf(v, v.lanes.rowOfBlock[size_t(it - v.blocks.begin())]));
        int b0 = int(double(s.startNs - v.lanes.startNs) / span * bins);
        int b1 = int(double(s.endNs - v.lanes.startNs) / span * bins);
        b0 = std::clamp(b0, 0, bins - 1);
        b1 = std::clamp(b1, b0, bins - 1);
        const uint16_t value = uint16_t(v.columns.columnOf(s.section) + 1);
        for (int b = b0; b <= b1; ++b) cells[row * size_t(bins) + size_t(b)] = value;
    }
    return cells;
}

void plotSmTimeline(QCustomPlot* plot, const SectionViewData& v, long highlight) {
    reset(plot);
    const size_t rows = size_t(smTimelineRows(v)), S = v.names.size();
    if (rows == 0 || !v.launch || !v.launch->hasTimes)
        return showChartNotice(
            plot, QObject::tr("No SM timeline: these sections carry no %globaltimer times and no "
                              "SMs\n(an imported timer array). Record them with sections.cuh."));
    const double spanUs = double(v.lanes.endNs - v.lanes.startNs) / 1000.0;
    const std::vector<uint16_t> cells = rasterSmTimeline(v, kTimelineBins);
    auto* map = new QCPColorMap(plot->xAxis, plot->yAxis);
    map->data()->setSize(kTimelineBins, int(rows));
    map->data()->setRange(QCPRange(0, spanUs), QCPRange(0, double(rows - 1)));
    for (size_t r = 0; r < rows; ++r)
        for (int b = 0; b < kTimelineBins; ++b)
            map->data()->setCell(b, int(r), cells[r * kTimelineBins + size_t(b)]);
    QCPColorGradient g;
    g.clearColorStops();
    g.setLevelCount(int(S) + 1);
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    g.setColorStopAt(0, QColor(250, 250, 250));
    // S + 1 levels sampled at k / S: exactly the stops (value k = column k - 1, 0 = idle).
    for (size_t s = 0; s < S; ++s) g.setColorStopAt(double(s + 1) / double(S), columnColor(v, s));
    map->setGradient(g);
    map->setInterpolate(false);
    map->setDataRange(QCPRange(0, double(S)));
    for (size_t s = 0; s < S; ++s)
        legendEntry(plot, columnColor(v, s), QString::fromStdString(v.names[s]));
    plot->legend->setVisible(true);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    const size_t step = std::max<size_t>(1, v.lanes.sms.size() / 24);
    for (size_t k = 0; k < v.lanes.sms.size(); k += step)
        ticker->addTick(double(smTimelineRowOf(v, v.lanes.firstRowOfSm[k])),
                        QString("SM %1").arg(v.lanes.sms[k]));
    plot->yAxis->setTicker(ticker);
    plot->yAxis->setRangeReversed(true);
    plot->yAxis->setRange(-0.5, double(rows) - 0.5);
    plot->xAxis->setRange(0, spanUs);
    QString label = QObject::tr("µs since the launch's first section began (%1 blocks on %2 SMs)")
                        .arg(v.blocks.size())
                        .arg(v.lanes.sms.size());
    if (rows < v.lanes.rows.size())
        label +=
            QObject::tr("; %1 SM slots binned into %2 rows").arg(v.lanes.rows.size()).arg(rows);
    plot->xAxis->setLabel(label);
    if (highlight >= 0 && size_t(highlight) < v.blocks.size()) {
        const BlockSections& b = v.blocks[size_t(highlight)];
        const double row = double(smTimelineRowOf(v, v.lanes.rowOfBlock[size_t(highlight)]));
        auto* r = new QCPItemRect(plot);
        r->topLeft->setCoords(double(b.startNs - v.lanes.startNs) / 1000.0, row - 0.5);
        r->bottomRight->setCoords(double(b.endNs - v.lanes.startNs) / 1000.0, row + 0.5);
        r->setPen(QPen(QColor(230, 0, 180), 2));
    }
    plot->replot();
}

namespace {

// "3.83 µs (6 718 cycles)" in ns views, "6 718 cycles" otherwise.
QString timeAndCycles(const SectionViewData& v, double x) {
    if (!v.ns || v.clockHz <= 0) return sectionValueText(x, v.ns);
    return QObject::tr("%1 (%2)").arg(sectionValueText(x, true),
                                      sectionValueText(x * v.clockHz / 1e9, false));
}

QString nameOf(const SectionViewData& v, size_t s) {
    return s < v.names.size() ? QString::fromStdString(v.names[s]) : QString::number(s);
}

} // namespace

QString sectionChartTip(SectionChart chart, const SectionViewData& v, double key, double value) {
    const long k = std::lround(key);
    switch (chart) {
    case SectionChart::Box:
        if (k < 0 || size_t(k) >= v.names.size() || value < 0) return {};
        return QObject::tr("%1: %2 per %3")
            .arg(nameOf(v, size_t(k)), timeAndCycles(v, value),
                 v.perIteration ? QObject::tr("iteration") : QObject::tr("block"));
    case SectionChart::Iterations: {
        if (k < 0 || size_t(k) >= v.iterations.size()) return {};
        QString tip = v.perIteration ? QObject::tr("iteration %1:").arg(k)
                                     : QObject::tr("iteration %1, summed over blocks:").arg(k);
        for (size_t s = 0; s < v.iterations[size_t(k)].size(); ++s)
            tip += "\n  " + nameOf(v, s) + ": " + timeAndCycles(v, v.iterations[size_t(k)][s]);
        return tip;
    }
    case SectionChart::Heatmap: {
        const long s = std::lround(value);
        const auto it =
            std::lower_bound(v.blocks.begin(), v.blocks.end(), uint32_t(std::max(0L, k)),
                             [](const BlockSections& b, uint32_t x) { return b.block < x; });
        if (k < 0 || s < 0 || size_t(s) >= v.names.size() || it == v.blocks.end() ||
            long(it->block) != k)
            return {};
        const double x = size_t(s) < it->bySection.size() ? it->bySection[size_t(s)] : 0;
        return QObject::tr("block %1 (SM %2), %3: %4")
            .arg(k)
            .arg(it->sm)
            .arg(nameOf(v, size_t(s)), timeAndCycles(v, x));
    }
    case SectionChart::SmTimeline: {
        const long row = std::lround(value);
        if (!v.launch || row < 0 || row >= smTimelineRows(v)) return {};
        const int64_t t = v.lanes.startNs + int64_t(std::llround(key * 1000.0));
        for (size_t b = 0; b < v.blocks.size(); ++b) {
            if (smTimelineRowOf(v, v.lanes.rowOfBlock[b]) != row || t < v.blocks[b].startNs ||
                t > v.blocks[b].endNs)
                continue;
            const uint32_t block = v.blocks[b].block;
            const auto& samples = v.launch->samples; // by block (finishSectionSet)
            auto s =
                std::lower_bound(samples.begin(), samples.end(), block,
                                 [](const SectionSample& x, uint32_t id) { return x.block < id; });
            for (; s != samples.end() && s->block == block; ++s) {
                if (t < s->startNs || t > s->endNs) continue;
                const double ns = double(s->endNs - s->startNs);
                return QObject::tr("block %1 on SM %2 (slot %3)\n%4, iteration %5: %6 ns (%7)")
                    .arg(block)
                    .arg(s->sm)
                    .arg(v.lanes.rows[v.lanes.rowOfBlock[b]].slot)
                    .arg(QString::fromStdString(v.launch->nameOf(s->section)))
                    .arg(s->iteration)
                    .arg(ns, 0, 'f', 0)
                    .arg(sectionValueText(double(s->cycles), false));
            }
            return QObject::tr("block %1 on SM %2, between sections")
                .arg(block)
                .arg(v.blocks[b].sm);
        }
        return {};
    }
    }
    return {};
}

} // namespace strata
