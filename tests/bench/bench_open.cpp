// strata-bench open FILE [--rounds N]
// Opens FILE in a MainWindow (offscreen) as File > Open does, ROUNDS times (default 2), and times
// from the call: the first picture of what has been read (first_picture_ms: the timeline painted
// with it, Workspace::showPreview; -1 when the load ended first), the trace on screen
// (load_ms) and the window drawn with it (drawn_ms: a synchronous repaint after the load).
// Each round waits for the trace cache's background write before the next, so with an empty
// cache (XDG_CACHE_HOME) round 1 is the first open and round 2 the second, from the cache.
#include "bench_commands.h"
#include "bench_gui.h"
#include "cpu_steal.h"

#include "open/trace_cache_controller.h"
#include "timeline/timeline_view.h"
#include "window/main_window.h"
#include "window/message_banner.h"
#include "window/window_pages.h"
#include "window/window_status.h"
#include "workspace/workspace.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>

#include <cstdio>
#include <string>

int strata::bench::open(const Args& args) {
    std::string file;
    int rounds = 2;
    if (!fileAndRounds(args, "usage: strata-bench open FILE [--rounds N]\n", &file, &rounds))
        return 2;
    const auto app = offscreenApp();
    for (int round = 0; round < rounds; ++round) {
        BenchWindow shown;
        MainWindow& w = shown.window;
        const strata::bench::CpuSteal steal;
        QElapsedTimer clock;
        double pictureMs = -1, loadMs = -1, drawnMs = -1;
        bool failed = false;
        QEventLoop loop;
        QTimer tick;
        tick.setInterval(1);
        QObject::connect(&tick, &QTimer::timeout, [&] {
            if (pictureMs < 0 && loadMs < 0 && w.workspace()->previewing() &&
                w.timeline()->isVisible()) {
                w.timeline()->tracksArea()->repaint();
                pictureMs = clock.nsecsElapsed() / 1e6;
            }
        });
        QObject::connect(&w, &MainWindow::loadFinished, [&](bool ok, bool) {
            loadMs = clock.nsecsElapsed() / 1e6;
            failed = !ok;
            if (ok) {
                w.repaint();
                drawnMs = clock.nsecsElapsed() / 1e6;
            }
            loop.quit();
        });
        clock.start();
        tick.start();
        w.open(OpenRequest::trace(QString::fromStdString(file)));
        loop.exec();
        if (failed) {
            std::fprintf(stderr, "strata-bench open: %s\n", qPrintable(w.errorText()));
            return 1;
        }
        std::printf("{\"file\": \"%s\", \"round\": %d, \"from_cache\": %s, "
                    "\"first_picture_ms\": %.1f, \"load_ms\": %.1f, \"drawn_ms\": %.1f, "
                    "\"steal_pct\": %.1f}\n",
                    file.c_str(), round + 1, w.loader()->loadedFromCache() ? "true" : "false",
                    pictureMs, loadMs, drawnMs, steal.percent());
        std::fflush(stdout);
        QElapsedTimer writing;
        writing.start();
        w.traceCache()->waitForWrites(-1);
        if (writing.elapsed() > 5)
            std::fprintf(stderr, "(the cache entry was written %lld ms after that)\n",
                         static_cast<long long>(writing.elapsed()));
    }
    return 0;
}
