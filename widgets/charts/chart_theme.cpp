#include "chart_theme.h"

#include "style/theme.h"

#include <QEvent>
#include <QObject>

#include <qcustomplot.h>

namespace strata {

namespace {

void styleAxis(QCPAxis* axis, const QColor& line, const QColor& text, const QColor& grid) {
    axis->setBasePen(QPen(line));
    axis->setTickPen(QPen(line));
    axis->setSubTickPen(QPen(line));
    axis->setTickLabelColor(text);
    axis->setLabelColor(text);
    axis->grid()->setPen(QPen(grid, 0, Qt::DotLine));
}

void style(QCustomPlot* plot) {
    const ThemeColors c = themeColors();
    const QColor back = c.dark ? c.background : QColor(Qt::white);
    const QColor line = c.dark ? c.rulerTick : QColor(Qt::black);
    const QColor text = c.dark ? c.treeText : QColor(Qt::black);
    const QColor grid = c.dark ? c.separator : QColor(200, 200, 200);
    plot->setBackground(back);
    for (QCPLayoutElement* e : plot->plotLayout()->elements(true)) {
        if (auto* rect = qobject_cast<QCPAxisRect*>(e)) {
            rect->setBackground(back);
            for (QCPAxis* axis : rect->axes()) styleAxis(axis, line, text, grid);
        } else if (auto* scale = qobject_cast<QCPColorScale*>(e)) {
            styleAxis(scale->axis(), line, text, grid);
        } else if (auto* title = qobject_cast<QCPTextElement*>(e)) {
            title->setTextColor(text);
        } else if (auto* legend = qobject_cast<QCPLegend*>(e)) {
            legend->setBrush(back);
            legend->setTextColor(text);
            legend->setBorderPen(QPen(line));
        }
    }
}

// Restyles its plot when the application's palette changes (View > Theme).
class ThemeFollower : public QObject {
public:
    explicit ThemeFollower(QCustomPlot* plot) : QObject(plot), plot_(plot) {
        plot->installEventFilter(this);
    }
    bool eventFilter(QObject*, QEvent* e) override {
        if (e->type() == QEvent::PaletteChange || e->type() == QEvent::ApplicationPaletteChange)
            plot_->replot(QCustomPlot::rpQueuedReplot);
        return false;
    }

private:
    QCustomPlot* plot_;
};

} // namespace

void followTheme(QCustomPlot* plot) {
    // Whatever the chart holds when it is drawn (axis rects, colour scales and titles come and go).
    QObject::connect(plot, &QCustomPlot::beforeReplot, plot, [plot] { style(plot); });
    new ThemeFollower(plot);
}

} // namespace strata
