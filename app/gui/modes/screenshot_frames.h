#pragma once
// `strata --screenshot OUT.png --frames FILE`: the window as a user meets it, measured by itself.
// FILE opens in the background (LoadController::open, the path File > Open takes); the window says
// when its picture was first painted and when it was whole (the gap causes, the rows shown and the
// level-of-detail summaries in view), how long the GUI thread was ever kept from its events after
// the first paint (a 2 ms timer's lateness, until the docks and the trace cache have settled), and
// the time of each frame of a zoom and pan sweep painted into the window (12 zoom levels from the
// whole trace to 1 us, 5 places each, each followed by two pans of a tenth of the view: the sweep
// of `strata-bench render`). Then it writes OUT.png.
#include "modes/screenshot.h"

namespace strata {

class MainWindow;

int screenshotFrames(MainWindow& w, const ScreenshotOptions& o);

} // namespace strata
