#include "stacked_bars.h"

#include <qcustomplot.h>

namespace strata {

void putLegendBelow(QCustomPlot* plot, int perRow) {
    auto* row = new QCPLayoutGrid;
    plot->plotLayout()->addElement(1, 0, row);
    row->setMargins(QMargins(5, 0, 5, 5));
    row->addElement(0, 0, plot->legend);
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    if (perRow > 0) plot->legend->setWrap(perRow);
    plot->plotLayout()->setRowStretchFactor(1, 0.001);
}

QCPBars* addStackedLayer(QCPAxis* keyAxis, QCPAxis* valueAxis, const QString& name,
                         const QColor& color, int count, const std::function<double(int)>& value,
                         QCPBars* below) {
    auto* bars = new QCPBars(keyAxis, valueAxis);
    bars->setName(name);
    bars->setBrush(color);
    bars->setPen(Qt::NoPen);
    bars->setWidth(0.7);
    for (int k = 0; k < count; ++k) bars->addData(k, value(k));
    if (below) bars->moveAbove(below);
    return bars;
}

} // namespace strata
