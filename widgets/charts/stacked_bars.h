#pragma once
// What the stacked-bar charts of the analysis docks share (the Statistics dock's GPU Time and
// Steps tabs): the legend in one row under the plot, clear of the bars, and a layer of bars
// stacked on the one below it.
#include <QColor>
#include <QString>

#include <functional>

class QCPAxis;
class QCPBars;
class QCustomPlot;

namespace strata {

// The legend under the plot, in rows of `perRow` entries (0: one row).
void putLegendBelow(QCustomPlot* plot, int perRow = 0);

// A layer of `count` bars along `keyAxis` (bar k at key k, its height value(k)), drawn above
// `below` (the layer before, null for the first).
QCPBars* addStackedLayer(QCPAxis* keyAxis, QCPAxis* valueAxis, const QString& name,
                         const QColor& color, int count, const std::function<double(int)>& value,
                         QCPBars* below);

} // namespace strata
