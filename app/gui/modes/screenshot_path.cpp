#include "modes/screenshot_path.h"

#include "modes/screenshot.h"

#include "analysis_views/critical_path_rows.h"
#include "analysis_views/critical_path_view.h"
#include "analysis_views/stats_panel.h"
#include "model/names/time_text.h"
#include "timeline/timeline_view.h"
#include "window/dock_policy.h"
#include "window/main_window.h"

#include <QDockWidget>
#include <QRegularExpression>

#include <algorithm>
#include <cstdio>

namespace strata {

bool computeCriticalPath(MainWindow& w, const QString& spec) {
    StatsPanel* stats = w.panel<StatsPanel>();
    CriticalPathView* view = stats->criticalPathView();
    stats->showTab(StatsPanel::CriticalPathTab);
    view->setWindow(CriticalPathView::kWholeTrace); // fills the choices (the trace's steps)
    int choice = view->steps().empty() ? CriticalPathView::kWholeTrace : 0;
    if (spec == QLatin1String("trace")) {
        choice = CriticalPathView::kWholeTrace;
    } else if (spec == QLatin1String("range")) {
        choice = CriticalPathView::kSelectedRange;
    } else if (!spec.isEmpty()) {
        bool ok = false;
        choice = spec.toInt(&ok);
        if (!ok || choice < 0 || size_t(choice) >= view->steps().size()) {
            std::fprintf(stderr,
                         "strata: --critical-path '%s': give a step from 0 to %d, trace or "
                         "range (the trace has %zu steps)\n",
                         qPrintable(spec), int(view->steps().size()) - 1, view->steps().size());
            return false;
        }
    }
    view->setWindow(choice);
    view->waitForJobs();
    if (!view->path() || !view->path()->ok) {
        std::fprintf(stderr, "strata: --critical-path: %s\n",
                     qPrintable(view->summaryText().remove(QRegularExpression("<[^>]*>"))));
        return false;
    }
    const CriticalPath& p = *view->path();
    std::printf("critical path: %zu edges, %zu events, %s long\n", p.edges.size(),
                p.pathEvents.size(), formatPreciseDuration(p.length).c_str());
    return true;
}

bool showCriticalPath(MainWindow& w, const ScreenshotOptions& o) {
    if (o.criticalPath.isEmpty()) return true;
    w.docks()->showDock(w.panel<StatsPanel>());
    w.resizeDocks({DockPolicy::dockOf(w.panel<StatsPanel>())}, {w.height() * 2 / 5}, Qt::Vertical);
    settleEvents(50);
    if (!computeCriticalPath(w, o.criticalPath)) return false;
    settleEvents(50);
    if (!o.range) {
        // The window and the path whole (it may end after the window).
        const CriticalPath& p = *w.panel<StatsPanel>()->criticalPathView()->path();
        const TimeRange span = pathSpan(p);
        const TimeRange win{std::min(p.window.start, span.start), std::max(p.window.end, span.end)};
        const TimeNs pad = std::max<TimeNs>(win.duration() / 50, 1000);
        w.timeline()->setVisibleRange({win.start - pad, win.end + pad});
    }
    settleEvents(100);
    return true;
}

} // namespace strata
