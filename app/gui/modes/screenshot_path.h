#pragma once
// `strata --screenshot OUT.png --critical-path N|trace|range FILE` (issue 46): the critical path
// of step N (0 = the first), of the whole trace or of --select-range computed in the Statistics
// dock's Critical Path tab and highlighted on the timeline; with `--dock stats:criticalpath` the
// dock alone.
#include <QString>

namespace strata {

class MainWindow;
struct ScreenshotOptions;

// The Critical Path tab shown with the path of `spec` (empty: the first step, else the whole
// trace) computed; false (said on stderr) when the spec is malformed or there is no path.
bool computeCriticalPath(MainWindow& w, const QString& spec);
// The same, the Statistics dock opened on it and, unless o.range, the timeline zoomed to the
// path's window. True when o.criticalPath is empty.
bool showCriticalPath(MainWindow& w, const ScreenshotOptions& o);

} // namespace strata
