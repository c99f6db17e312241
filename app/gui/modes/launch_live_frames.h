#pragma once
// `strata --launch --run --live-frames S --screenshot OUT.png -- CMD`: the live window measured
// by itself while CMD runs. From the first live picture on, for S seconds, the timeline is painted
// again as fast as the GUI thread allows, at the zoom and pan sweep of `strata-bench render`
// (timeline/frame_sweep.h) while the live pictures keep arriving; it prints the frames painted a
// second, the intervals between frames (median, p95, longest: any stall of the GUI thread shows
// there), the pictures shown and how far behind the program each was (the newest record's age
// when it was shown). Then the window is rendered to OUT.png while the program still runs.
#include <functional>

namespace strata {

class MainWindow;

// Calls done() once measured (the window is still open and the program running).
void measureLiveFrames(MainWindow* w, double seconds, std::function<void()> done);

} // namespace strata
