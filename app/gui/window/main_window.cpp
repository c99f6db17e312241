#include "window/main_window.h"

#include "actions/profile_controller.h"
#include "analysis_views/critical_path_view.h"
#include "analysis_views/stats_panel.h"
#include "compare/compare_panel.h"
#include "model/names/time_text.h"
#include "open/open_dialogs.h"
#include "open/trace_cache_controller.h"
#include "panels/details_panel.h"
#include "panels/warnings_panel.h"
#ifdef STRATA_HAVE_QUERY
#include "query/query_panel.h"
#endif
#include "analysis/ops/roofline.h"
#include "analysis_views/roofline_panel.h"
#include "ranks/ranks_panel.h"
#include "sections/sections_panel.h"
#include "strata_resources.h"
#include "timeline/timeline_legend.h"
#include "timeline/timeline_view.h"
#include "timeline/tracks_area.h"
#include "window/dock_policy.h"
#include "window/find_bar.h"
#include "window/message_banner.h"
#include "window/notes_sidecar.h"
#include "window/rank_report.h"
#include "window/recent_files.h"
#include "window/shortcut_help.h"
#include "window/window_menus.h"
#include "window/window_pages.h"
#include "window/window_status.h"
#include "workspace/rank_set.h"
#include "workspace/trace_comparison.h"

#include <QAction>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QLineEdit>
#include <QMimeData>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace strata {

MainWindow::MainWindow(Options options, QWidget* parent)
    : QMainWindow(parent), options_(options), workspace_(new Workspace(this)),
      nav_(new Navigation(workspace_, this)) {
    setWindowTitle(QStringLiteral("Strata"));
    setWindowIcon(QIcon(QStringLiteral(":/strata/strata.png")));
    setAcceptDrops(true);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    banner_ = new MessageBanner(central);
    timeline_ = new TimelineView(workspace_, nav_, nullptr);
    pages_ = new WindowPages(timeline_, central);
    findBar_ = new FindBar(workspace_, nav_, central);
    findBar_->hide();
    layout->addWidget(banner_);
    layout->addWidget(pages_, 1);
    layout->addWidget(findBar_);
    setCentralWidget(central);

    cache_ = new TraceCacheController(this, options_.restoreSettings);
    docks_ = new DockPolicy(this, workspace_, nav_, options_.restoreSettings);
    status_ = new WindowStatus(statusBar(), workspace_, nav_);
    LoadController::Parts parts{workspace_, pages_, status_, banner_, cache_, {}, {}};
    parts.settle = [this] { // the picture whole, as when the user looks
        timeline_->waitForPicture();
        panel<WarningsPanel>()->waitForJobs();
    };
    parts.say = [this](const QString& m, int ms) { say(m, ms); };
    loader_ = new LoadController(std::move(parts), this);
    menus_ = new WindowMenus(this, options_.restoreSettings);
    // Notes, flags and pins kept beside the trace (off where no settings are kept: tests).
    auto* notes = new NotesSidecar(
        timeline_, workspace_, [this](const QString& m, int ms) { say(m, ms); }, this);
    notes->setEnabled(options_.restoreSettings);
    connectParts();
    resize(1400, 860);
    docks_->restoreLayout();
    updateStatus();
}

MainWindow::~MainWindow() = default;

MainWindow* MainWindow::openWindow(const OpenRequest& request) {
    return openWindow(request, Options{});
}

MainWindow* MainWindow::openWindow(const OpenRequest& request, Options options) {
    auto* w = new MainWindow(options);
    w->setAttribute(Qt::WA_DeleteOnClose);
    w->show();
    if (!request.files.isEmpty()) w->open(request);
    return w;
}

void MainWindow::connectParts() {
    connect(cache_, &TraceCacheController::message, this,
            [this](const QString& m) { say(m, 8000); });
    connect(loader_, &LoadController::finished, this, &MainWindow::loadFinished);
    connect(loader_, &LoadController::opened, this, &MainWindow::onOpened);
    connect(workspace_, &Workspace::currentChanged, this, &MainWindow::onCurrentChanged);
    connect(workspace_, &Workspace::shownChanged, this, &MainWindow::onShownChanged);
    connect(workspace_->ranks(), &RankSet::changed, this, [this] {
        if (workspace_->shown() == Shown::RankReport) onShownChanged(Shown::RankReport);
    });
    connect(workspace_->ranks(), &RankSet::mergeFailed, this, [this](const QString& why) {
        showError(why);
        if (pages_->showing(WindowPages::Page::Loading)) pages_->show(WindowPages::Page::Welcome);
    });
    connect(workspace_->comparison(), &TraceComparison::merged, this,
            [this] { docks_->showDock(panel<ComparePanel>()); });
    // A rank's own trace, in a new window (or said when it is not here).
    connect(panel<RanksPanel>(), &RanksPanel::rankTraceRequested, this, [this](size_t index) {
        const RankSet* ranks = workspace_->ranks();
        if (index >= ranks->ranks().size()) return;
        const QString path = ranks->ranks()[index].path;
        if (!QFileInfo::exists(path))
            showError(tr("The trace of %1 is not reachable from here: %2. Copy it here (or mount "
                         "its folder) and try again, or open it where it lies.")
                          .arg(ranks->label(index), path));
        else
            openWindow(OpenRequest::trace(path), options_);
    });
    connect(panel<SectionsPanel>(), &SectionsPanel::importRequested, this, [this] {
        if (auto r = askForSections(this, options_.restoreSettings)) open(*r);
    });
    connect(pages_, &WindowPages::openRequested, this, [this] {
        if (auto r = askToOpen(this, QFileInfo(currentFile()).absolutePath())) open(*r);
    });
    connect(pages_, &WindowPages::sampleRequested, this, &MainWindow::openSample);
    connect(docks_, &DockPolicy::warningsChanged, this, &MainWindow::updateStatus);
    connect(status_, &WindowStatus::warningsRequested, this,
            [this] { docks_->showDock(panel<WarningsPanel>()); });
    // A sample's tick clicked: its stack in Details.
    connect(timeline_, &TimelineView::sampleSelected, panel<DetailsPanel>(),
            &DetailsPanel::showSample);
    // Following a link in Details hands the keyboard back to the timeline (W/A/S/D keep working).
    connect(panel<DetailsPanel>(), &DetailsPanel::sliceActivated, this, [this] {
        QTimer::singleShot(0, timeline_, [this] { timeline_->setFocus(Qt::OtherFocusReason); });
    });
    connect(timeline_, &TimelineView::cursorTimeChanged, this, [this](std::optional<TimeNs> t) {
        const std::shared_ptr<const Trace> shown = trace();
        status_->setCursorTime(t && shown ? tr("at %1  \u00b7")
                                                .arg(QString::fromStdString(formatPreciseDuration(
                                                    *t - shown->bounds().start)))
                                          : QString());
    });
    // A match narrower than a pixel is zoomed to, as F does (else it is there but unseen).
    connect(findBar_, &FindBar::currentChanged, this, [this](SliceRef r) {
        const auto t = trace();
        if (!t || !r.valid()) return;
        const TimeRange v = timeline_->visibleRange();
        const double px = double(t->duration(r)) * timeline_->tracksArea()->width() /
                          double(std::max<TimeNs>(1, v.duration()));
        if (px < 1.0) timeline_->zoomToSelection();
    });
    connect(timeline_, &TimelineView::findRequested, this, [this](const QString& text) {
        findBar_->show();
        findBar_->edit()->setText(text);
        findBar_->search();
    });
    connect(findBar_, &FindBar::highlightsChanged, this,
            [this](const std::vector<SliceRef>& m) { timeline_->setHighlightedSlices(m); });
    connect(findBar_, &FindBar::instantHighlightsChanged, this,
            [this](const std::vector<InstantRef>& m) { timeline_->setHighlightedInstants(m); });
    connect(findBar_, &FindBar::instantChosen, timeline_, &TimelineView::revealInstant);
#ifdef STRATA_HAVE_QUERY
    // The Query dock's rows highlighted on the timeline, as the find bar's matches are.
    connect(panel<QueryPanel>(), &QueryPanel::highlightsChanged, this,
            [this](const std::vector<SliceRef>& m) { timeline_->setHighlightedSlices(m); });
#endif
    // The Statistics dock's critical path drawn on the timeline; hidden from the timeline's menu.
    CriticalPathView* path = panel<StatsPanel>()->criticalPathView();
    connect(path, &CriticalPathView::highlightChanged, timeline_, &TimelineView::setCriticalPath);
    connect(timeline_, &TimelineView::criticalPathHidden, path,
            [path] { path->setHighlightShown(false); });
    connect(findBar_, &FindBar::closed, this, [this] {
        timeline_->setHighlightedSlices({});
        timeline_->setHighlightedInstants({});
        timeline_->setFocus();
    });
}

void MainWindow::onCurrentChanged(const std::shared_ptr<const Trace>& trace) {
    if (trace && !workspace_->amending()) {
        // Something new on screen: the docks with nothing to show close (the same set merged
        // again keeps them as they are) and the timeline takes the middle.
        const bool fresh =
            workspace_->shown() != Shown::Ranks || !pages_->showing(WindowPages::Page::Timeline);
        if (fresh) docks_->closeEmptyDocks();
        if (fresh || !pages_->showing(WindowPages::Page::Timeline)) {
            pages_->show(WindowPages::Page::Timeline);
            if (workspace_->shown() != Shown::Comparison) timeline_->setFocus();
        }
    }
    updateTitle();
    updateStatus();
}

void MainWindow::onShownChanged(Shown shown) {
    if (shown == Shown::RankReport) {
        // No timeline to share the window with: the report in the middle, the map below it.
        pages_->showReport(rankReportHtml(*workspace_->ranks()));
        auto* ranks = panel<RanksPanel>();
        ranks->tabs()->setCurrentIndex(1); // Steps
        resizeDocks({DockPolicy::dockOf(ranks)}, {height() * 2 / 3}, Qt::Vertical);
    }
    updateTitle();
    updateStatus();
}

void MainWindow::onOpened(const OpenRequest& request, bool sections) {
    switch (request.kind) {
    case OpenRequest::Kind::Ranks:
    case OpenRequest::Kind::AddRanks:
        docks_->showDock(panel<RanksPanel>());
        break;
    case OpenRequest::Kind::Comparison:
        docks_->showDock(panel<ComparePanel>());
        break;
    default:
        // The bundled sample lives in the cache dir; recent files are the user's own traces.
        if (workspace_->currentTrace() && workspace_->currentTrace()->path == request.files[0] &&
            request.files[0] != sampleTracePath())
            menus_->recent()->add(request.files[0]);
        if (sections) docks_->showDock(panel<SectionsPanel>()); // what the file held
        if (trace() && mayHaveKernelCounters(*trace())) {
            // Opened for what the file holds, tall enough for its chart to be read.
            docks_->showDock(panel<RooflinePanel>());
            resizeDocks({DockPolicy::dockOf(panel<RooflinePanel>())}, {height() * 2 / 5},
                        Qt::Vertical);
        }
    }
}

void MainWindow::updateTitle() {
    const OpenTrace* t = workspace_->currentTrace();
    const RankSet* ranks = workspace_->ranks();
    const QString folder =
        ranks->isEmpty() ? QString() : QFileInfo(ranks->ranks().front().path).absolutePath();
    QString title, path;
    switch (workspace_->shown()) {
    case Shown::Nothing:
        break;
    case Shown::Trace:
    case Shown::Comparison:
        if (t) title = t->label, path = t->path;
        if (t && workspace_->previewing()) title = tr("%1 (loading\u2026)").arg(t->label);
        break;
    case Shown::Ranks:
        if (t) title = tr("%1 of %2").arg(t->label, QFileInfo(folder).fileName()), path = folder;
        break;
    case Shown::RankReport:
        title = tr("%1 (digests) of %2")
                    .arg(rankCount(ranks->ranks().size()), QFileInfo(folder).fileName());
        break;
    }
    setWindowTitle(title.isEmpty() ? QStringLiteral("Strata") : tr("%1 \u2014 Strata").arg(title));
    setWindowFilePath(path);
}

void MainWindow::updateStatus() {
    status_->update(loader_->loadedFromCache(), panel<WarningsPanel>()->count());
}

void MainWindow::openSample() {
    QString error;
    const QString path = sampleTracePath(&error);
    if (path.isEmpty())
        showError(error);
    else
        open(OpenRequest::trace(path));
}

QString MainWindow::currentFile() const {
    const OpenTrace* t = workspace_->currentTrace();
    return t ? t->path : QString();
}

void MainWindow::showError(const QString& message) {
    banner_->showError(message);
}

void MainWindow::showNotice(const QString& message) {
    banner_->showNotice(message);
}

void MainWindow::say(const QString& message, int ms) {
    if (message.isEmpty())
        statusBar()->clearMessage();
    else
        statusBar()->showMessage(message, ms);
}

QStringList MainWindow::recentFiles() const {
    return menus_->recent()->files();
}

ProfileController* MainWindow::profile() const {
    return menus_->profile();
}

ExportActions* MainWindow::exportActions() const {
    return menus_->exports();
}

QSpinBox* MainWindow::gapThresholdBox() const {
    return menus_->gapThresholdBox();
}

QAction* MainWindow::action(const QString& objectName) const {
    return findChild<QAction*>(objectName);
}

QString MainWindow::errorText() const {
    return banner_->text();
}

QString MainWindow::statusText() const {
    return status_->text();
}

QList<ShortcutEntry> MainWindow::shortcuts() const {
    QList<ShortcutEntry> out;
    for (QAction* a : actions()) {
        // The timeline's keys are listed below, once, with the timeline's other gestures.
        if (a->shortcuts().isEmpty() || a->property("timelineKey").toBool()) continue;
        QStringList keys;
        for (const QKeySequence& k : a->shortcuts()) keys << k.toString(QKeySequence::NativeText);
        out.push_back(
            {keys.join(QStringLiteral(", ")), a->text().remove(QLatin1Char('&')), tr("Window")});
    }
    out.push_back(
        {QStringLiteral("Enter / Shift+Enter"), tr("Next / previous match"), tr("Find bar")});
    out.push_back({QStringLiteral("Esc"), tr("Close the find bar"), tr("Find bar")});
    out += timelineShortcuts();
    return out;
}

void MainWindow::showShortcutHelp() {
    ShortcutHelpDialog dialog(shortcuts(),
                              timelineLegendHtml(double(timeline_->gapThresholdNs()) / 1000), this);
    dialog.exec();
}

void MainWindow::closeEvent(QCloseEvent* e) {
    if (!profile()->allowClose()) { // a program runs: asked, then stopped; closes when it exits
        e->ignore();
        return;
    }
    loader_->cancel();
    docks_->saveLayout();
    QMainWindow::closeEvent(e);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (!e->mimeData()->hasUrls()) return;
    for (const QUrl& u : e->mimeData()->urls()) {
        if (u.isLocalFile()) {
            e->acceptProposedAction();
            return;
        }
    }
}

void MainWindow::dropEvent(QDropEvent* e) {
    QStringList files;
    for (const QUrl& u : e->mimeData()->urls())
        if (u.isLocalFile()) files << u.toLocalFile();
    if (files.isEmpty()) return;
    e->acceptProposedAction();
    // One file replaces this window's trace; several (or a folder) open as the ranks of a job.
    open(OpenRequest::paths(files));
}

} // namespace strata
