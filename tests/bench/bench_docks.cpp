// strata-bench docks FILE [--rounds N]
// Opens FILE in a MainWindow (offscreen) as File > Open does (the load on a worker thread) and
// times, from the call: the trace on screen (load_ms), the Gaps dock showing its figures
// (gaps_ms), the Statistics dock showing its figures (stats_ms), both (docks_ms), and how long
// the GUI thread went without answering from the call to both docks' figures (max_stall_ms: the
// largest gap between the ticks of a 1 ms timer; a user's click waits that long). One JSON object
// per round.
#include "bench_commands.h"
#include "bench_gui.h"
#include "cpu_steal.h"

#include "analysis_views/gaps_panel.h"
#include "analysis_views/stats_panel.h"
#include "window/main_window.h"
#include "window/message_banner.h"
#include "window/window_pages.h"
#include "window/window_status.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>

#include <cstdio>
#include <string>

namespace {

bool gapsShown(strata::MainWindow& w) {
    return w.panel<strata::GapsPanel>()->summaryText().contains(QStringLiteral("device gaps over"));
}
bool statsShown(strata::MainWindow& w) {
    return w.panel<strata::StatsPanel>()->analysis() != nullptr;
}

} // namespace

int strata::bench::docks(const Args& args) {
    std::string file;
    int rounds = 1;
    if (!fileAndRounds(args, "usage: strata-bench docks FILE [--rounds N]\n", &file, &rounds))
        return 2;
    const auto app = offscreenApp();
    for (int round = 0; round < rounds; ++round) {
        BenchWindow shown;
        MainWindow& w = shown.window;
        const strata::bench::CpuSteal steal;
        QElapsedTimer clock;
        double loadMs = -1, gapsMs = -1, statsMs = -1, maxStall = 0;
        qint64 lastTick = -1;
        bool failed = false;
        QEventLoop loop;
        QTimer tick;
        tick.setInterval(1);
        QObject::connect(&tick, &QTimer::timeout, [&] {
            const qint64 now = clock.nsecsElapsed();
            if (lastTick >= 0) maxStall = std::max(maxStall, (now - lastTick) / 1e6);
            lastTick = now;
            if (loadMs >= 0 && gapsMs < 0 && gapsShown(w)) gapsMs = now / 1e6;
            if (loadMs >= 0 && statsMs < 0 && statsShown(w)) statsMs = now / 1e6;
            if (gapsMs >= 0 && statsMs >= 0) loop.quit();
        });
        QObject::connect(&w, &MainWindow::loadFinished, [&](bool ok, bool) {
            loadMs = clock.nsecsElapsed() / 1e6;
            if (!ok) {
                failed = true;
                loop.quit();
            }
        });
        clock.start();
        tick.start();
        w.open(OpenRequest::trace(QString::fromStdString(file)));
        loop.exec();
        if (failed) {
            std::fprintf(stderr, "strata-bench docks: %s\n", qPrintable(w.errorText()));
            return 1;
        }
        std::printf("{\"file\": \"%s\", \"load_ms\": %.1f, \"gaps_ms\": %.1f, \"stats_ms\": %.1f, "
                    "\"docks_ms\": %.1f, \"max_stall_ms\": %.1f, \"steal_pct\": %.1f}\n",
                    file.c_str(), loadMs, gapsMs, statsMs, std::max(gapsMs, statsMs), maxStall,
                    steal.percent());
        std::fflush(stdout);
    }
    return 0;
}
