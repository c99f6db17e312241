#include "modes/launch_live_frames.h"

#include "modes/frame_percentile.h"

#include "actions/live_feed.h"
#include "actions/profile_controller.h"
#include "timeline/frame_sweep.h"
#include "timeline/timeline_view.h"
#include "window/main_window.h"
#include "workspace/navigation.h"

#include <QElapsedTimer>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

namespace strata {

namespace {

struct LiveWatch {
    MainWindow* w;
    double seconds;
    std::function<void()> done;
    QTimer frames;
    QElapsedTimer clock;
    qint64 lastNs = -1;
    std::vector<double> intervals; // ms between frame starts
    std::vector<double> behind;    // ms, per picture
    size_t next = 0;

    void frame() {
        const qint64 now = clock.nsecsElapsed();
        if (lastNs >= 0) intervals.push_back(double(now - lastNs) / 1e6);
        lastNs = now;
        Navigation* nav = w->navigation();
        const std::vector<TimeRange> sweep = frameSweep(nav->bounds());
        if (!sweep.empty()) nav->setVisibleRange(sweep[next++ % sweep.size()]);
        w->timeline()->repaint();
        if (now / 1e9 < seconds) return;
        frames.stop();
        report();
        // The picture: the last second, as follow shows it once the next live picture is in.
        const TimeRange b = nav->bounds();
        nav->setVisibleRange({std::max(b.start, b.end - 1'000'000'000), b.end});
        shootNext = true;
    }
    bool shootNext = false;
    void report() const {
        const double elapsed = double(clock.nsecsElapsed()) / 1e9;
        std::printf("live window: %zu frames in %.2f s = %.1f frames/s; between frames median "
                    "%.2f ms, p95 %.2f ms, longest %.1f ms\n",
                    intervals.size() + 1, elapsed, double(intervals.size() + 1) / elapsed,
                    framePercentile(intervals, 0.5), framePercentile(intervals, 0.95),
                    intervals.empty() ? 0.0
                                      : *std::max_element(intervals.begin(), intervals.end()));
        std::printf("live pictures: %zu shown; behind the program median %.0f ms, p95 %.0f ms, "
                    "longest %.0f ms\n",
                    behind.size(), framePercentile(behind, 0.5), framePercentile(behind, 0.95),
                    behind.empty() ? 0.0 : *std::max_element(behind.begin(), behind.end()));
        std::fflush(stdout);
    }
};

} // namespace

void measureLiveFrames(MainWindow* w, double seconds, std::function<void()> done) {
    auto watch = std::make_shared<LiveWatch>();
    watch->w = w;
    watch->seconds = seconds;
    watch->done = std::move(done);
    LiveFeed* live = w->profile()->live();
    watch->frames.setInterval(0);
    QObject::connect(&watch->frames, &QTimer::timeout, w, [watch] { watch->frame(); });
    // The first picture starts the measure; each one says how far behind it was.
    QObject::connect(live, &LiveFeed::updated, w, [watch, live] {
        if (watch->shootNext) {
            watch->shootNext = false;
            QTimer::singleShot(100, watch->w, watch->done);
            return;
        }
        if (live->behindMs() >= 0 && watch->clock.isValid())
            watch->behind.push_back(double(live->behindMs()));
        if (!watch->clock.isValid()) {
            watch->clock.start();
            watch->frames.start();
        }
    });
    // Kept alive by the connections' lambdas until the window goes.
}

} // namespace strata
