#pragma once
// A chart in the window's theme (style/theme.h): its background, axes, ticks, labels, grid and
// legend take the light or dark palette now in use, and again whenever the theme changes (the
// plot hears of the application's palette change and replots).
class QCustomPlot;

namespace strata {

void followTheme(QCustomPlot* plot);

} // namespace strata
