#include "modes/screenshot_frames.h"

#include "modes/frame_percentile.h"

#include "open/open_request.h"
#include "timeline/frame_sweep.h"
#include "timeline/timeline_view.h"
#include "window/main_window.h"
#include "workspace/workspace.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace strata {

namespace {

// The GUI thread's lateness: a 2 ms timer that notes how long each of its intervals really took,
// from the first paint of the trace's timeline on (that paint itself excluded).
class StallWatch : public QObject {
public:
    StallWatch(QWidget* area, MainWindow& w) : area_(area), w_(w) {
        area->installEventFilter(this);
        timer_.setTimerType(Qt::PreciseTimer);
        timer_.setInterval(kTickMs);
        connect(&timer_, &QTimer::timeout, this, &StallWatch::tick);
        timer_.start();
        clock_.start();
    }
    qint64 previewPaintMs = -1; // what was read so far first painted (Workspace::showPreview)
    qint64 firstPaintMs = -1;   // the trace's first paint, since the watch began
    double longestMs = 0;       // the longest interval past the tick, after the first paint
    int over50 = 0;             // intervals over 50 ms past the tick
    void stop() { timer_.stop(); }

protected:
    bool eventFilter(QObject* o, QEvent* e) override {
        if (o == area_ && e->type() == QEvent::Paint && previewPaintMs < 0 &&
            w_.workspace()->previewing())
            previewPaintMs = clock_.elapsed();
        if (o == area_ && e->type() == QEvent::Paint && firstPaintMs < 0 && w_.trace()) {
            firstPaintMs = clock_.elapsed();
            skipNext_ = true; // the tick after it holds the first paint
        }
        return false;
    }

private:
    static constexpr int kTickMs = 2;
    void tick() {
        const qint64 now = clock_.nsecsElapsed();
        const double late = (now - last_) / 1e6 - kTickMs;
        last_ = now;
        if (firstPaintMs < 0) return;
        if (skipNext_) {
            skipNext_ = false;
            return;
        }
        longestMs = std::max(longestMs, late);
        if (late > 50) ++over50;
    }
    QWidget* area_;
    MainWindow& w_;
    QTimer timer_;
    QElapsedTimer clock_;
    qint64 last_ = 0;
    bool skipNext_ = false;
};

// Each frame of the sweep painted into the window now, timed.
std::vector<double> sweep(TimelineView& view) {
    QWidget* area = view.tracksArea();
    std::vector<double> frames;
    QElapsedTimer t;
    for (const TimeRange& r : frameSweep(view.trace()->bounds())) {
        view.setVisibleRange(r);
        QApplication::processEvents(); // what a zoom or pan queues, as the user's would
        t.start();
        area->repaint();
        frames.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    view.zoomToAll();
    return frames;
}

} // namespace

int screenshotFrames(MainWindow& w, const ScreenshotOptions& o) {
    w.show();
    settleEvents(100);
    TimelineView& view = *w.timeline();
    StallWatch watch(view.tracksArea(), w);
    QElapsedTimer sinceOpen;
    sinceOpen.start();
    w.open(OpenRequest::trace(o.trace));
    while (w.loader()->isLoading() || !w.trace() || watch.firstPaintMs < 0 ||
           !view.pictureComplete())
        QApplication::processEvents(QEventLoop::WaitForMoreEvents); // the watch's tick wakes it
    const qint64 wholeMs = sinceOpen.elapsed();
    // The docks, the second index and the trace cache's write go on behind the picture: the GUI
    // thread is watched while they do.
    QElapsedTimer settle;
    settle.start();
    while (settle.elapsed() < 3000) QApplication::processEvents(QEventLoop::WaitForMoreEvents);
    watch.stop();
    if (!w.trace()) {
        std::fprintf(stderr, "strata: %s did not open\n", qPrintable(o.trace));
        return 1;
    }
    const std::vector<double> frames = sweep(view);
    settleEvents(100);
    const std::optional<QSize> shot = savePng(&w, o);
    if (!shot) return 1;
    std::printf("loaded %s: %zu slices in %lld ms\n", qPrintable(o.trace), w.trace()->sliceCount(),
                static_cast<long long>(w.workspace()->currentTrace()->loadMs));
    if (watch.previewPaintMs >= 0)
        std::printf("what was read so far first painted %lld ms after the open began\n",
                    static_cast<long long>(watch.previewPaintMs));
    std::printf("first painted %lld ms, whole %lld ms after the open began\n",
                static_cast<long long>(watch.firstPaintMs), static_cast<long long>(wholeMs));
    std::printf("GUI thread after the first paint: longest stall %.1f ms, %d over 50 ms\n",
                watch.longestMs, watch.over50);
    std::printf("frames: %zu at %dx%d, median %.2f ms, p95 %.2f ms, max %.2f ms\n", frames.size(),
                view.tracksArea()->width(), view.tracksArea()->height(),
                framePercentile(frames, 0.5), framePercentile(frames, 0.95),
                framePercentile(frames, 1.0));
    std::printf("wrote %s (%dx%d)\n", qPrintable(o.output), shot->width(), shot->height());
    std::fflush(stdout);
    return 0;
}

} // namespace strata
