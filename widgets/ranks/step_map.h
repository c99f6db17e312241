#pragma once
// The Ranks dock's rank x step map (QCustomPlot), drawn from the cross-rank report
// (core/analysis/cross_rank.h). Each cell is one rank in one step, coloured by what the user
// asks (issue 44: colouring by step length painted the ranks that waited brightest and the rank
// they waited for, whose step is the shortest, darkest):
//   late start   how late the rank started the step after the first rank to start it (the
//                default): the rank the others waited for is the hot cell, the ranks on time
//                muted;
//   caused wait  how long the others waited for it at the step's collectives;
//   length       its step length over the step's median rank's (1 = typical).
// A title over the map and the colour scale beside it say what the colour means and in which
// unit. The straggler's cell is outlined; the cell of the rank that started the step last says
// "started its step N late" (and the straggler's, in the other colourings, what it caused). A
// rank not aligned (no late start) or without the step stays blank or grey.
#include "analysis/ranks/cross_rank.h"

#include <QString>
#include <QStringList>

#include <optional>

class QCustomPlot;

namespace strata {

enum class StepMapColour { LateStart, CausedWait, Length };
QString stepMapColourName(StepMapColour colour); // "late start", "wait caused", "step length"

// `labels`: the ranks' labels, in the report's order.
void plotStepMap(QCustomPlot* plot, const CrossRankReport& report, const QStringList& labels,
                 StepMapColour colour = StepMapColour::LateStart);

// The cell at (step, rank) of the report: its rank step, if any.
const RankStep* stepMapCell(const CrossRankReport& report, size_t step, size_t rank);

// The cell's tooltip (rich text): the rank and step, how late it started, the wait it caused,
// its length against the median's, and whether it is the straggler. Empty where there is none.
QString stepMapTip(const CrossRankReport& report, const QStringList& labels, size_t step,
                   size_t rank);

// The text written in the cell of (step, rank), empty when none ("started its step 7.513 ms
// late", "straggler: others waited 1.435 ms", "straggler +1.435 ms").
QString stepMapCellText(const CrossRankReport& report, size_t step, size_t rank,
                        StepMapColour colour);

} // namespace strata
