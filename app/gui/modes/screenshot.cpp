#include "modes/screenshot.h"
#include "io/load_preview_trace.h"
#include "modes/screenshot_frames.h"
#include "modes/screenshot_hover.h"
#include "modes/screenshot_path.h"
#include "window/notes_sidecar.h"

#include "model/names/time_text.h"
#include "util/output_file.h"

#include "analysis_views/call_tree_panel.h"
#include "analysis_views/clock_notice.h"
#include "analysis_views/gaps_panel.h"
#include "analysis_views/roofline_panel.h"
#include "analysis_views/stats_panel.h"
#include "compare/compare_panel.h"
#include "panels/range_panel.h"
#ifdef STRATA_HAVE_QUERY
#include "query/query_editor.h"
#include "query/query_panel.h"
#include "query/query_results_model.h"
#include "window/dock_policy.h"

#include <QCheckBox>
#include <QTableView>
#endif
#include "ranks/rank_roles_view.h"
#include "ranks/ranks_panel.h"
#include "sections/sections_panel.h"
#include "timeline/layout/track_layout.h"
#include "timeline/timeline_view.h"
#include "window/find_bar.h"
#include "window/main_window.h"
#include "window/window_pages.h"
#include "workspace/rank_set.h"

#include <QApplication>
#include <QBuffer>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QLineEdit>
#include <QPixmap>
#include <QTabWidget>
#include <QThread>
#include <cstdio>
#include <optional>

namespace strata {

void settleEvents(int ms) {
    QElapsedTimer t;
    t.start();
    do {
        QApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(5);
    } while (t.elapsed() < ms);
}

// `shot` written to o.output as PNG: its size, or nullopt after saying why.
std::optional<QSize> savePixmap(const QPixmap& shot, const ScreenshotOptions& o) {
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    if (shot.isNull() || !shot.save(&buffer, "PNG")) {
        std::fprintf(stderr, "strata: cannot draw the screenshot for %s\n", qPrintable(o.output));
        return std::nullopt;
    }
    // Written as util/output_file.h says: a file replaced whole, a device written into.
    std::string error;
    if (!writeWholeFile(QFile::encodeName(o.output).toStdString(),
                        std::string_view(png.constData(), size_t(png.size())), &error)) {
        std::fprintf(stderr, "strata: cannot write the screenshot: %s\n", error.c_str());
        return std::nullopt;
    }
    return shot.size();
}

// `widget` grabbed and written to o.output as PNG.
std::optional<QSize> savePng(QWidget* widget, const ScreenshotOptions& o) {
    return savePixmap(widget->grab(), o);
}

namespace {

// The Sections dock alone, floated to the screenshot's size, on the tab asked for.
int screenshotSections(MainWindow& w, const ScreenshotOptions& o) {
    static const QStringList tabs{"table", "box", "iterations", "heatmap", "sm"};
    const int tab = int(tabs.indexOf(o.sectionsTab));
    if (tab < 0) {
        std::fprintf(stderr, "strata: --sections-tab expects one of %s\n",
                     qPrintable(tabs.join(", ")));
        return 2;
    }
    SectionsPanel* p = w.panel<SectionsPanel>();
    if (o.sectionsChoice >= 0) {
        if (o.sectionsChoice >= p->choiceCount()) {
            std::fprintf(stderr, "strata: --sections-choice %d: there are %d choices\n",
                         o.sectionsChoice, p->choiceCount());
            return 2;
        }
        p->setChoice(o.sectionsChoice);
    }
    p->waitForJobs();
    auto* dock = qobject_cast<QDockWidget*>(p->parentWidget());
    dock->setFloating(true);
    dock->resize(o.size);
    p->showTab(SectionsPanel::Tab(tab));
    settleEvents(200);
    if (o.selectBlock >= 0) p->selectSlowestBlock(o.selectBlock);
    settleEvents(200);
    const std::optional<QSize> shot = savePng(p, o);
    if (!shot) return 1;
    for (int i = 0; i < p->choiceCount(); ++i)
        std::printf("choice %d: %s\n", i, qPrintable(p->choiceLabel(i)));
    std::printf("wrote %s (%dx%d)\n", qPrintable(o.output), shot->width(), shot->height());
    std::fflush(stdout);
    return 0;
}

// An analysis dock alone (after its computation, on the selected range if one is given).
int screenshotDock(MainWindow& w, const ScreenshotOptions& o) {
    QWidget* panel = nullptr;
    if (o.dock == "gaps") {
        if (o.selectRange && w.trace()) {
            const TimeRange b = w.trace()->bounds();
            w.timeline()->setSelectedRange(
                TimeRange{b.start + o.selectRange->start, b.start + o.selectRange->end});
        }
        settleEvents(50);
        w.panel<GapsPanel>()->waitForJobs();
        panel = w.panel<GapsPanel>();
    } else if (o.dock.startsWith("stats")) { // stats, stats:kernels, stats:advisor, ...
        static const QStringList tabs{"overview", "gputime", "steps",   "kernels",
                                      "cpuops",   "copies",  "advisor", "criticalpath"};
        const int tab = o.dock.contains(':') ? int(tabs.indexOf(o.dock.section(':', 1))) : 0;
        if (tab < 0) {
            std::fprintf(stderr, "strata: --dock stats:TAB expects one of %s\n",
                         qPrintable(tabs.join(", ")));
            return 2;
        }
        w.panel<StatsPanel>()->waitForJobs();
        w.panel<StatsPanel>()->showTab(StatsPanel::Tab(tab));
        if (tab == StatsPanel::KernelsTab) w.panel<StatsPanel>()->selectKernelRow(0);
        if (tab == StatsPanel::CriticalPathTab && !computeCriticalPath(w, o.criticalPath)) return 1;
        panel = w.panel<StatsPanel>();
    } else if (o.dock.startsWith("ranks")) { // ranks, ranks:steps|collectives|roles[:overlap]
        auto* ranks = w.panel<RanksPanel>();
        static const QStringList tabs{"ranks", "steps", "collectives", "roles"};
        ranks->tabs()->setCurrentIndex(
            std::max(0, int(tabs.indexOf(o.dock.section(':', 1, 1, QString::SectionSkipEmpty)))));
        if (o.dock.endsWith(":overlap")) // ranks:roles:overlap
            ranks->rolesView()->setSplit(RankRolesView::Split::Overlap);
        if (o.dock.endsWith(":collectives") && !ranks->collectiveRows().empty()) {
            // The instance with the longest wait.
            int worst = 0;
            for (size_t i = 0; i < ranks->collectiveRows().size(); ++i)
                if (ranks->collectiveRows()[i].maxWait >
                    ranks->collectiveRows()[size_t(worst)].maxWait)
                    worst = int(i);
            ranks->showCollective(worst);
        }
        panel = ranks;
    } else if (o.dock.startsWith("compare")) { // compare[:ops|copies|sections|gpus|steps]
        auto* compare = w.panel<ComparePanel>();
        static const QStringList tabs{"kernels", "ops", "copies", "sections", "gpus", "steps"};
        const int tab = std::max(0, int(tabs.indexOf(o.dock.section(':', 1, 1))));
        compare->tabs()->setCurrentIndex(tab);
        if (tab < 2 && !compare->rows(ComparePanel::Tab(tab)).empty())
            compare->showRow(ComparePanel::Tab(tab), 0);
        panel = compare;
    } else if (o.dock == "roofline") {
        w.panel<RooflinePanel>()->waitForJobs();
        w.panel<RooflinePanel>()->activateRow(0);
        panel = w.panel<RooflinePanel>();
    } else if (o.dock.startsWith("calltree")) {
        // calltree[:samples|:native[:functions]][:bottomup|:gpu]
        w.panel<CallTreePanel>()->setFromSamples(o.dock.contains(":samples") ||
                                                 o.dock.contains(":native"));
        if (o.dock.contains(":native")) w.panel<CallTreePanel>()->setNativeSamples();
        w.panel<CallTreePanel>()->setTopFunctionsShown(o.dock.contains(":functions"));
        w.panel<CallTreePanel>()->setBottomUp(o.dock.endsWith(":bottomup"));
        w.panel<CallTreePanel>()->setGpuWeight(o.dock.endsWith(":gpu"));
        if (!o.find.isEmpty()) w.panel<CallTreePanel>()->setSearch(o.find);
        w.panel<CallTreePanel>()->waitForJobs();
        panel = w.panel<CallTreePanel>();
    } else {
        std::fprintf(stderr, "strata: --dock expects gaps, stats[:TAB], roofline, "
                             "calltree[:samples|:native[:functions]][:bottomup|:gpu] or "
                             "ranks[:steps|:collectives|:roles[:overlap]] or "
                             "compare[:ops|:copies|:sections|:gpus|:steps]\n");
        return 2;
    }
    auto* dock = qobject_cast<QDockWidget*>(panel->parentWidget());
    dock->setFloating(true);
    dock->resize(o.size);
    settleEvents(300);
    const std::optional<QSize> shot = savePng(panel, o);
    if (!shot) return 1;
    std::printf("wrote %s (%dx%d)\n", qPrintable(o.output), shot->width(), shot->height());
    std::fflush(stdout);
    return 0;
}

} // namespace

namespace {

// The window while o.trace loads (asynchronously, as File > Open does), grabbed when the
// timeline has drawn its second picture of what was read so far (Workspace::showPreview); the
// load is then cancelled.
int screenshotWhileLoading(MainWindow& w, const ScreenshotOptions& o) {
    w.show();
    settleEvents(50);
    int previews = 0;
    const Trace* last = nullptr;
    QElapsedTimer since;
    since.start();
    w.open(OpenRequest::trace(o.trace));
    while (w.loader()->isLoading() && previews < 2) {
        QApplication::processEvents(QEventLoop::AllEvents, 20);
        const Trace* p = w.workspace()->previewing() ? w.workspace()->current().get() : nullptr;
        if (p && p != last) ++previews, last = p;
    }
    if (previews < 2) {
        std::fprintf(stderr, "strata: %s loaded before a second preview (nothing to show)\n",
                     qPrintable(o.trace));
        return 1;
    }
    w.timeline()->waitForPicture();
    const std::optional<QSize> shot = savePng(&w, o);
    if (!shot) return 1;
    std::printf("preview (%s) %lld ms after the open\n", previewOf(*last).c_str(),
                static_cast<long long>(since.elapsed()));
    std::printf("wrote %s (%dx%d)\n", qPrintable(o.output), shot->width(), shot->height());
    std::fflush(stdout);
    w.loader()->cancel();
    return 0;
}

// The status bar's "Shift the GPU by …" pressed once the clocks are checked, and the views
// settled on the shifted trace; false (said) when the trace shows no offset to correct.
bool shiftGpu(MainWindow& w) {
    auto* notice = w.findChild<ClockNotice*>();
    notice->waitForJobs();
    if (notice->suggestedShift() == 0) {
        std::fprintf(stderr, "strata: --shift-gpu: the trace shows no clock offset to correct\n");
        return false;
    }
    notice->applyShift();
    notice->waitForJobs();
    w.timeline()->waitForGaps();
    std::printf("%s\n", qPrintable(notice->shiftText()));
    return true;
}

// --query: the Query dock under the timeline with the query's rows, every row's slice
// highlighted and the first row's selected (the view zoomed to it unless --range says where).
bool showQuery(MainWindow& w, const ScreenshotOptions& o) {
    if (o.query.isEmpty()) return true;
#ifdef STRATA_HAVE_QUERY
    auto* p = w.panel<QueryPanel>();
    w.docks()->showDock(p);
    w.resizeDocks({DockPolicy::dockOf(p)}, {w.height() * 2 / 5}, Qt::Vertical);
    p->editor()->setPlainText(o.query);
    p->run();
    p->waitForJobs();
    settleEvents(100);
    if (!p->statusText().contains(QStringLiteral("row")) || p->statusText().startsWith("Error")) {
        std::fprintf(stderr, "strata: --query: %s\n", qPrintable(p->statusText()));
        return false;
    }
    p->highlightBox()->setChecked(true);
    if (p->model()->rowCount() > 0) {
        p->table()->selectRow(0); // selected on the timeline too
        if (!o.range) p->activateRow(0, true);
    }
    settleEvents(100);
    return true;
#else
    std::fprintf(stderr, "strata: --query: this build has no query layer (no SQLite)\n");
    return false;
#endif
}

// The timeline as the options ask before the picture: rows shown, sections expanded, a range
// selected, Find's matches, the visible range. False (said on stderr) when one cannot be had.
bool prepareView(MainWindow& w, const ScreenshotOptions& o) {
    const TimeRange b = w.trace()->bounds();
    if (o.utilisation) w.timeline()->setShowUtilisation(true);
    if (o.queues) w.timeline()->setShowQueues(true);
    if (o.expandSections) {
        const auto& rows = w.timeline()->layout().rows();
        for (size_t i = 0; i < rows.size(); ++i)
            if (rows[i].kind == TrackRow::Kind::Sections)
                w.timeline()->setRowExpanded(int(i), true);
        settleEvents(50);
    }
    if (o.selectRange) {
        w.timeline()->setSelectedRange(
            TimeRange{b.start + o.selectRange->start, b.start + o.selectRange->end});
        w.panel<RangePanel>()->waitForJobs();
    }
    if (!o.find.isEmpty()) {
        w.findBar()->show();
        w.findBar()->edit()->setText(o.find);
        w.findBar()->search();
        if (w.findBar()->matches().empty() && w.findBar()->instantMatches().empty()) {
            std::fprintf(stderr, "strata: --find '%s': no slice or instant matches\n",
                         qPrintable(o.find));
            return false;
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
    if (!showCriticalPath(w, o)) return false;
    if (!showQuery(w, o)) return false;
    if (!o.notes.isEmpty()) {
        QString error;
        if (!w.findChild<NotesSidecar*>()->load(o.notes, &error)) {
            std::fprintf(stderr, "strata: --notes: %s\n", qPrintable(error));
            return false;
        }
        settleEvents(50);
    }
    if (o.range) {
        TimeRange r{b.start + o.range->start, b.start + o.range->end};
        if (r.start >= b.end || r.end <= b.start) {
            std::fprintf(stderr, "strata: --range lies outside the trace (which lasts %s)\n",
                         formatPreciseDuration(b.duration()).c_str());
            return false;
        }
        w.timeline()->setVisibleRange(r);
        settleEvents(100);
    }
    return true;
}

} // namespace

int runScreenshot(const ScreenshotOptions& o) {
    MainWindow::Options wo;
    wo.restoreSettings = false;
    MainWindow w(wo);
    w.resize(o.size);
    // A set: when its merged trace reached the timeline (the analyses go on behind it).
    QElapsedTimer sinceOpen;
    sinceOpen.start();
    qint64 mergedMs = -1;
    QObject::connect(w.workspace()->ranks(), &RankSet::merged, &w, [&] {
        if (mergedMs < 0) mergedMs = sinceOpen.elapsed();
    });
    if (o.whileLoading) return screenshotWhileLoading(w, o);
    if (o.frames) return screenshotFrames(w, o);
    QString error;
    const bool opened = o.compare
                            ? w.openSync(OpenRequest::comparison(o.traces[0], o.traces[1]), &error)
                        : o.traces.size() > 1 || QFileInfo(o.trace).isDir()
                            ? w.openSync(OpenRequest::paths(o.traces), &error)
                            : w.openSync(OpenRequest::trace(o.trace), &error);
    if (!opened) {
        std::fprintf(stderr, "strata: %s\n", qPrintable(error));
        return 1;
    }
    if (!o.sections.isEmpty() && !w.openSync(OpenRequest::trace(o.sections), &error)) {
        std::fprintf(stderr, "strata: %s\n", qPrintable(error));
        return 1;
    }
    for (int rank : o.foldRanks) w.workspace()->ranks()->requestCollapse(size_t(rank), true);
    if (o.shiftGpu && !shiftGpu(w)) return 1;
    w.show();
    w.repaint(); // drawn once, now (the figure below), before the settling waits
    const qint64 drawnMs = sinceOpen.elapsed();
    settleEvents(150);
    w.resize(o.size); // a window manager may have changed it on show
    settleEvents(100);
    if (!o.sectionsTab.isEmpty()) return screenshotSections(w, o);
    if (!o.dock.isEmpty()) return screenshotDock(w, o);
    if (w.workspace()->ranks()->fromDigests()) { // the job's report: no trace, the window
        const std::optional<QSize> shot = savePng(&w, o);
        if (!shot) return 1;
        std::printf("opened %zu rank digests\n", w.workspace()->ranks()->ranks().size());
        return 0;
    }
    if (!w.trace()) {
        std::fprintf(stderr, "strata: %s holds no trace to show (give --sections-tab)\n",
                     qPrintable(o.trace));
        return 1;
    }
    if (!prepareView(w, o)) return 1;
    std::optional<QSize> shot;
    if (o.hoverGap || o.hoverIdleRow || o.hoverSample) { // hovered, the tooltip in the picture
        const std::optional<QPixmap> picture = o.hoverGap       ? grabWithGapTooltip(w)
                                               : o.hoverIdleRow ? grabWithIdleRowTooltip(w)
                                                                : grabWithSampleTooltip(w);
        if (!picture) return 1;
        shot = savePixmap(*picture, o);
    } else {
        shot = savePng(&w, o);
    }
    if (!shot) return 1;
    if (o.printTrackLabels) {
        std::printf("track labels: %d\ntracks: %zu\n", w.timeline()->visibleTrackLabelCount(),
                    w.trace()->tracks().size());
    }
    std::printf("loaded %s: %zu slices in %lld ms%s\n", qPrintable(o.trace),
                w.trace()->sliceCount(),
                static_cast<long long>(w.workspace()->currentTrace()->loadMs),
                w.loader()->loadedFromCache() ? " (from the trace cache)" : "");
    std::printf("drawn %lld ms after the open began\n", static_cast<long long>(drawnMs));
    if (mergedMs >= 0)
        std::printf("the set on the timeline %lld ms after the open began\n",
                    static_cast<long long>(mergedMs));
    std::printf("wrote %s (%dx%d)\n", qPrintable(o.output), shot->width(), shot->height());
    std::fflush(stdout);
    return 0;
}

} // namespace strata
