#pragma once
// `strata --screenshot OUT.png [--size WxH] [--range START:END] FILE`: opens FILE synchronously,
// lays out the main window at the given size, renders it to OUT.png and returns the exit code.
#include "model/time.h"

#include <QPixmap>
#include <QSize>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace strata {

struct ScreenshotOptions {
    QString output;
    QString trace;        // the first FILE
    QStringList traces;   // every FILE: several (or a folder) open as the ranks of one job
    bool compare = false; // the two FILEs compared (baseline, candidate)
    QSize size{1600, 1000};
    std::optional<TimeRange> range;       // trace-relative; zooms the timeline to it
    std::optional<TimeRange> selectRange; // trace-relative; fills the Range table
    QString find;                         // find bar text; selects (and scrolls to) the first match
    bool printTrackLabels = false;        // print "track labels: N" and "tracks: M" to stdout
    QString sections;                     // a timer-sections file imported into the Sections dock
    QString sectionsTab;         // table|box|iterations|heatmap|sm: render the Sections dock alone
    int sectionsChoice = -1;     // the Sections dock's choice (launch or kernel) to show
    int selectBlock = -1;        // the Sections dock's slowest-blocks row to select
    bool expandSections = false; // open the timeline's in-kernel section SM lanes
    QString dock;                // render this analysis dock alone ("gaps")
    std::vector<int> foldRanks;  // ranks of a set folded into one row each
    bool utilisation = false;    // show the GPU utilisation rows
    bool queues = false;         // show the launch queue rows
    bool whileLoading = false;   // the loading page at its second preview, then quit
    bool hoverGap = false;       // the longest GPU gap in view hovered: its tooltip shown
    bool hoverIdleRow = false;   // the first GPU idle row hovered outside a gap
    bool hoverSample = false;    // the first sample lane hovered (from 40 % across)
    bool shiftGpu = false;       // the clock notice's suggested GPU shift applied
    QString criticalPath;        // N|trace|range: that window's critical path shown
    QString query;               // SQL: the Query dock with its rows, highlighted on the timeline
    QString notes;               // a notes sidecar shown on the timeline (not written)
    bool frames = false;         // opened as the user does; the window's timings printed
};

int runScreenshot(const ScreenshotOptions& options);

// Processes events for `ms` milliseconds: layouts, resizes and deferred paints settle (before a
// window is grabbed).
void settleEvents(int ms);
// `widget` grabbed (or `shot`) written to options.output as PNG: its size, or nullopt after saying
// why on stderr.
std::optional<QSize> savePng(QWidget* widget, const ScreenshotOptions& options);
std::optional<QSize> savePixmap(const QPixmap& shot, const ScreenshotOptions& options);

} // namespace strata
