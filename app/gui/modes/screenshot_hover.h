#pragma once
// `strata --screenshot OUT.png --hover-gap FILE`: the window with the tooltip of the longest GPU
// gap in view, as the mouse over that gap's device idle row shows it (the tooltip is a window of
// its own, so it is drawn into the window's picture where it stands); `--hover-sample` a sample's.
#include <QPixmap>

#include <optional>

namespace strata {

class MainWindow;

// Hovers the longest device gap in the visible range (its middle, on its GPU's idle row) and
// returns the window's picture with the tooltip shown; nullopt (said on stderr) when there is no
// gap in view or no tooltip came.
std::optional<QPixmap> grabWithGapTooltip(MainWindow& window);
// `--hover-idle-row`: hovers the first GPU idle row outside a gap and returns the picture with the
// device's GPU time breakdown in its tooltip; nullopt (said on stderr) when none showed.
std::optional<QPixmap> grabWithIdleRowTooltip(MainWindow& window);
// `--hover-sample`: hovers the first shown sample lane (a thread's sampled stacks) 40 % across the
// view (or at the first sample drawn after) and returns the picture with the sample's stack in its
// tooltip; nullopt (said on stderr) when no lane is shown or no tooltip came.
std::optional<QPixmap> grabWithSampleTooltip(MainWindow& window);

} // namespace strata
