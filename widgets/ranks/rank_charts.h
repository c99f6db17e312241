#pragma once
// The Ranks dock's charts (QCustomPlot), drawn from the cross-rank report
// (core/analysis/cross_rank.h):
//   step map     rank x step: each cell the rank's step length over the step's median rank
//                (1 = typical; the colour scale says it), the straggler's cell outlined and its
//                delay written in it; a rank not aligned or without the step stays blank;
//   arrivals     one collective instance: per rank a bar of how long it waited for the last
//                rank to arrive, the late rank's bar in the warning colour and named.
#include "analysis/ranks/cross_rank.h"

#include <QStringList>

class QCustomPlot;

namespace strata {

// `labels`: the ranks' labels, in the report's order.
void plotStepMap(QCustomPlot* plot, const CrossRankReport& report, const QStringList& labels);
void plotArrivals(QCustomPlot* plot, const CrossRankReport& report, const QStringList& labels,
                  const CrossRankCollective* instance);

} // namespace strata
