#include "chart_notice.h"

#include <qcustomplot.h>

namespace strata {

void showChartNotice(QCustomPlot* plot, const QString& text) {
    auto* item = new QCPItemText(plot);
    item->position->setType(QCPItemPosition::ptAxisRectRatio);
    item->position->setCoords(0.5, 0.5);
    item->setText(text);
    plot->replot();
}

} // namespace strata
