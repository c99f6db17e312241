#pragma once
// The Ranks dock's charts (QCustomPlot), drawn from the cross-rank report
// (core/analysis/cross_rank.h):
//   step map     rank x step (step_map.h);
//   arrivals     one collective instance: per rank a bar of how long it waited for the last
//                rank to arrive, the late rank's bar in the warning colour and named;
// and what they share: a plot cleared of an earlier chart, an axis of rank labels.
#include "analysis/ranks/cross_rank.h"
#include "step_map.h"

#include <QStringList>

class QCustomPlot;
class QCPAxis;

namespace strata {

// At most about 40 rank labels on an axis: every k-th rank's for a job of thousands.
constexpr qsizetype kMaxRankTicks = 40;

// `labels`: the ranks' labels, in the report's order.
void plotArrivals(QCustomPlot* plot, const CrossRankReport& report, const QStringList& labels,
                  const CrossRankCollective* instance);

// Items, plottables, colour scales and titles of an earlier chart gone.
void clearRankChart(QCustomPlot* plot);
// `axis` labelled with the ranks (every k-th of many), rank 0 first (at the top of a y axis).
void setRankAxis(QCPAxis* axis, const QStringList& labels);

} // namespace strata
