#pragma once
// `strata --screenshot OUT.png [--size WxH] [--range START:END] FILE`: opens FILE synchronously,
// lays out the main window at the given size, renders it to OUT.png and returns the exit code.
#include "model/time.h"

#include <QSize>
#include <QString>
#include <optional>

namespace strata {

struct ScreenshotOptions {
    QString output;
    QString trace;
    QSize size{1600, 1000};
    std::optional<TimeRange> range; // trace-relative; zooms the timeline to it
    bool printTrackLabels = false;  // print "track labels: N of M tracks" to stdout
};

int runScreenshot(const ScreenshotOptions& options);

} // namespace strata
