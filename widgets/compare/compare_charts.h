#pragma once
// The Compare dock's charts (QCustomPlot), from a trace diff (core/analysis/trace_diff.h):
//   deltas      the rows with the largest effect on the total, one horizontal bar each: the
//               candidate's total minus the baseline's (red: slower, green: faster; added and
//               removed marked in the label);
//   histograms  one kernel's or op's durations on both sides (analysis/named_durations.h), on
//               the same logarithmic bins (4 per decade), overlaid: the baseline in blue, the
//               candidate in orange.
#include "analysis/compare/trace_diff.h"

#include <QString>

#include <vector>

class QCustomPlot;

namespace strata {

// `rows` in the diff's order (largest effect first); the first `top` are drawn.
void plotDeltas(QCustomPlot* plot, const std::vector<DiffRow>& rows, size_t top = 15);

void plotHistograms(QCustomPlot* plot, const QString& name, const std::vector<TimeNs>& baseline,
                    const std::vector<TimeNs>& candidate);

} // namespace strata
