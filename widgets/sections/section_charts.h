#pragma once
// The Sections view's charts, drawn with QCustomPlot from a SectionViewData: a box plot per
// section across blocks (across iterations for an imported array), stacked bars per iteration, a
// block x section heatmap and the SM timeline (one row per SM slot, each block's sections in time
// from %globaltimer); the last two say why they are empty for an imported array (no blocks, no
// times). Each function clears the plot and draws; `highlightBlock` (an index into
// SectionViewData::blocks, or -1) is outlined where the chart shows blocks.
#include "section_view_data.h"

#include <QColor>

class QCustomPlot;

namespace strata {

// Section s's colour (a qualitative palette; the same in every chart and on the timeline).
QColor sectionColor(size_t s);

void plotSectionBoxes(QCustomPlot* plot, const SectionViewData& v);
void plotSectionIterations(QCustomPlot* plot, const SectionViewData& v);
void plotSectionHeatmap(QCustomPlot* plot, const SectionViewData& v, long highlightBlock);
void plotSmTimeline(QCustomPlot* plot, const SectionViewData& v, long highlightBlock);

// What the pointer is over in a chart (its axis coordinates `key`, `value`), as a tooltip: the
// block, section, iteration, time and raw cycles there; empty over nothing.
enum class SectionChart { Box, Iterations, Heatmap, SmTimeline };
QString sectionChartTip(SectionChart chart, const SectionViewData& v, double key, double value);

// Box statistics of `values` (sorted in place): min and max within 1.5 IQR of the quartiles,
// and the values beyond them (outliers).
struct BoxStats {
    double min = 0, q1 = 0, median = 0, q3 = 0, max = 0;
    std::vector<double> outliers;
};
BoxStats boxStats(std::vector<double>& values);

// The SM timeline raster: per row, `bins` cells of (column + 1) (SectionViewData::columns), 0
// where no section of any block runs. One row per SM slot, at most kMaxSmTimelineRows (more
// slots are binned: a row shows several, the section drawn last wins). Exposed for tests.
inline constexpr size_t kMaxSmTimelineRows = 2048;
std::vector<uint16_t> rasterSmTimeline(const SectionViewData& v, int bins);
int smTimelineRows(const SectionViewData& v);                  // rows of the raster
int smTimelineRowOf(const SectionViewData& v, size_t laneRow); // a lane row's raster row

} // namespace strata
