#include "screenshot.h"

#include "model/time_text.h"

#include "find_bar.h"
#include "main_window.h"
#include "panels/range_panel.h"
#include "timeline/timeline_view.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QLineEdit>
#include <QPixmap>
#include <QThread>
#include <cstdio>

namespace strata {

void settleEvents(int ms) {
    QElapsedTimer t;
    t.start();
    do {
        QApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(5);
    } while (t.elapsed() < ms);
}

int runScreenshot(const ScreenshotOptions& o) {
    MainWindow::Options wo;
    wo.restoreSettings = false;
    MainWindow w(wo);
    w.resize(o.size);
    QString error;
    if (!w.openFileSync(o.trace, &error)) {
        std::fprintf(stderr, "strata: %s\n", qPrintable(error));
        return 1;
    }
    w.show();
    settleEvents(150);
    w.resize(o.size); // a window manager may have changed it on show
    settleEvents(100);
    const TimeRange b = w.trace()->bounds();
    if (o.selectRange) {
        w.timeline()->setSelectedRange(
            TimeRange{b.start + o.selectRange->start, b.start + o.selectRange->end});
        w.rangePanel()->flush();
    }
    if (!o.find.isEmpty()) {
        w.findBar()->show();
        w.findBar()->edit()->setText(o.find);
        w.findBar()->search();
        if (w.findBar()->matches().empty()) {
            std::fprintf(stderr, "strata: --find '%s': no slice matches\n", qPrintable(o.find));
            return 1;
        }
        // Prefer the first match inside --range (the view is zoomed there below).
        const TimeRange v = o.range ? TimeRange{b.start + o.range->start, b.start + o.range->end}
                                    : w.timeline()->visibleRange();
        const auto& m = w.findBar()->matches();
        for (size_t n = 0; n < m.size(); ++n) {
            if (w.trace()->start(m[n]) >= v.start && w.trace()->start(m[n]) < v.end) {
                w.findBar()->setCurrentIndex(static_cast<int>(n));
                break;
            }
        }
        settleEvents(50);
    }
    if (o.range) {
        TimeRange r{b.start + o.range->start, b.start + o.range->end};
        if (r.start >= b.end || r.end <= b.start) {
            std::fprintf(stderr, "strata: --range lies outside the trace (which lasts %s)\n",
                         formatPreciseDuration(b.duration()).c_str());
            return 1;
        }
        w.timeline()->setVisibleRange(r);
        settleEvents(100);
    }
    const QPixmap shot = w.grab();
    if (shot.isNull() || !shot.save(o.output, "PNG")) {
        std::fprintf(stderr, "strata: cannot write the screenshot to %s\n", qPrintable(o.output));
        return 1;
    }
    if (o.printTrackLabels) {
        std::printf("track labels: %d\ntracks: %zu\n", w.timeline()->visibleTrackLabelCount(),
                    w.trace()->tracks().size());
    }
    std::printf("loaded %s: %zu slices in %lld ms\n", qPrintable(o.trace), w.trace()->sliceCount(),
                static_cast<long long>(w.loadTimeMs()));
    std::printf("wrote %s (%dx%d)\n", qPrintable(o.output), shot.width(), shot.height());
    std::fflush(stdout);
    return 0;
}

} // namespace strata
