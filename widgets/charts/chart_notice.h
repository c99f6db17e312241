#pragma once
// A sentence in the middle of a chart that has nothing to draw (why it is empty, what to click),
// replotted at once.
#include <QString>

class QCustomPlot;

namespace strata {

void showChartNotice(QCustomPlot* plot, const QString& text);

} // namespace strata
