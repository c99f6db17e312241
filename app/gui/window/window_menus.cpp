#include "window/window_menus.h"

#include "actions/export_actions.h"
#include "actions/profile_controller.h"
#include "build_info.h"
#include "compare/compare_panel.h"
#include "open/open_dialogs.h"
#include "open/trace_cache_controller.h"
#include "panels/range_panel.h"
#include "strata_resources.h"
#include "style/theme.h"
#include "timeline/layout/track_layout.h"
#include "timeline/timeline_view.h"
#include "window/dock_policy.h"
#include "window/find_bar.h"
#include "window/main_window.h"
#include "window/recent_files.h"
#include "workspace/analyses.h"
#include "workspace/rank_set.h"
#include "workspace/trace_comparison.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSpinBox>
#include <QToolBar>

namespace strata {

WindowMenus::WindowMenus(MainWindow* window, bool remember)
    : QObject(window), window_(window), remember_(remember) {
    createFileMenu();
    createEditMenu();
    createViewMenu();
    QMenu* settings = window_->menuBar()->addMenu(tr("&Settings"));
    settings->setToolTipsVisible(true);
    window_->traceCache()->addMenu(settings);
    createHelpMenu();
    createToolBar();
}

QAction* WindowMenus::makeAction(const char* name, const QString& text, const QKeySequence& key,
                                 std::function<void(bool)> slot) {
    auto* a = new QAction(text, window_);
    a->setObjectName(QString::fromLatin1(name));
    if (!key.isEmpty()) a->setShortcut(key);
    a->setShortcutContext(Qt::WindowShortcut);
    connect(a, &QAction::triggered, this, std::move(slot));
    window_->addAction(a);
    return a;
}

QAction* WindowMenus::makeTimelineOption(const char* name, const QString& text,
                                         const QString& settingsKey, bool byDefault,
                                         void (TimelineView::*set)(bool),
                                         bool (TimelineView::*get)() const, const QString& tip) {
    TimelineView* timeline = window_->timeline();
    QAction* a =
        makeAction(name, text, QKeySequence(), [this, timeline, settingsKey, set](bool on) {
            (timeline->*set)(on);
            if (remember_) QSettings().setValue(settingsKey, on);
        });
    a->setCheckable(true);
    a->setToolTip(tip);
    if (remember_) (timeline->*set)(QSettings().value(settingsKey, byDefault).toBool());
    a->setChecked((timeline->*get)());
    return a;
}

void WindowMenus::createFileMenu() {
    MainWindow* w = window_;
    const auto openIf = [w](const std::optional<OpenRequest>& r) {
        if (r) w->open(*r);
    };
    // Where the dialogs start: beside the trace shown, else the last one opened.
    const auto folder = [this] {
        const QString file = window_->currentFile();
        if (!file.isEmpty()) return QFileInfo(file).absolutePath();
        const QStringList& recent = recent_->files();
        return recent.isEmpty() ? QString() : QFileInfo(recent.front()).absolutePath();
    };
    QMenu* file = w->menuBar()->addMenu(tr("&File"));
    file->addAction(makeAction("actionOpen", tr("&Open\u2026"), QKeySequence::Open,
                               [w, openIf, folder](bool) { openIf(askToOpen(w, folder())); }));
    file->addAction(makeAction("actionOpenFolder", tr("Open &Folder as Ranks…"), QKeySequence(),
                               [w, openIf](bool) { openIf(askForRanksFolder(w)); }));
    QAction* addRanks =
        makeAction("actionAddRanks", tr("&Add Ranks…"), QKeySequence(),
                   [w, openIf, folder](bool) { openIf(askForRanks(w, folder(), true)); });
    addRanks->setToolTip(tr("Add traces to the ranks open in this window"));
    file->addAction(addRanks);
    QAction* compare =
        makeAction("actionCompareWith", tr("&Compare With…"), QKeySequence(), [w, openIf](bool) {
            if (!w->trace()) {
                w->showError(tr("Open the baseline first: File ▸ "
                                "Compare With… compares the trace "
                                "open with another."));
                return;
            }
            openIf(askToCompareWith(w, w->currentFile()));
        });
    compare->setToolTip(tr("Compare the trace open (the baseline) with another run"));
    file->addAction(compare);
    recent_ = new RecentFiles(file->addMenu(tr("Open &Recent")), remember_,
                              [w](const QString& path) { w->open(OpenRequest::trace(path)); });
    file->addAction(makeAction("actionOpenSample", tr("Open the &Sample Trace"), QKeySequence(),
                               [w](bool) { w->openSample(); }));
    file->addAction(
        makeAction("actionImportSections", tr("Import Timer &Sections\u2026"), QKeySequence(),
                   [this, openIf](bool) { openIf(askForSections(window_, remember_)); }));
    exports_ = new ExportActions(w, file); // File > Export
    file->addSeparator();
    file->addAction(makeAction("actionNewWindow", tr("&New Window"), QKeySequence::New,
                               [](bool) { MainWindow::openWindow(); }));
    file->addAction(makeAction("actionClose", tr("&Close Window"), QKeySequence::Close,
                               [w](bool) { w->close(); }));
    file->addAction(makeAction("actionQuit", tr("&Quit"), QKeySequence::Quit,
                               [](bool) { QApplication::closeAllWindows(); }));
}

void WindowMenus::createEditMenu() {
    MainWindow* w = window_;
    QMenu* edit = w->menuBar()->addMenu(tr("&Edit"));
    // Two ranges of one trace compared (the Compare dock, the two one above the other).
    QAction* base = makeAction(
        "actionBaselineRange", tr("Set Selected Range as &Baseline"), QKeySequence(), [this](bool) {
            baselineRange_ = window_->navigation()->selectedRange();
            if (baselineRange_)
                window_->say(tr("Baseline range set: select another range, then Edit ▸ Compare "
                                "Selected Range with the Baseline"),
                             10000);
        });
    base->setToolTip(tr("The range selected on the timeline becomes the baseline of a comparison"));
    edit->addAction(base);
    QAction* against = makeAction(
        "actionCompareRange", tr("Compare Selected Range with the Baseline"), QKeySequence(),
        [this](bool) {
            const std::optional<TimeRange> selected = window_->navigation()->selectedRange();
            if (!baselineRange_ || !selected) {
                window_->showError(tr("Select a range and choose Edit ▸ Set Selected Range as "
                                      "Baseline, then select the range to compare with it."));
                return;
            }
            compareRanges(*baselineRange_, *selected);
        });
    against->setToolTip(tr("Compare the range selected on the timeline with the baseline range"));
    edit->addAction(against);
    edit->addSeparator();
    FindBar* find = w->findBar();
    edit->addAction(makeAction("actionFind", tr("&Find Slices and Instants\u2026"),
                               QKeySequence::Find, [find](bool) { find->activate(); }));
    edit->addAction(
        makeAction("actionFindNext", tr("Find &Next"), QKeySequence(Qt::Key_F3), [find](bool) {
            find->show();
            find->next();
        }));
    edit->addAction(makeAction("actionFindPrevious", tr("Find &Previous"),
                               QKeySequence(Qt::SHIFT | Qt::Key_F3), [find](bool) {
                                   find->show();
                                   find->previous();
                               }));
}

void WindowMenus::compareRanges(TimeRange baseline, TimeRange candidate) {
    Workspace* ws = window_->workspace();
    const std::shared_ptr<const Trace> t = ws->current();
    if (!t || ws->shown() != Shown::Trace) {
        window_->showError(tr("Two ranges are compared within one trace: open it alone first."));
        return;
    }
    const OpenTrace* shown = ws->currentTrace();
    ws->comparison()->set({shown->path, t, {}, baseline}, {shown->path, t, {}, candidate},
                          shown->loadMs);
    window_->docks()->showDock(window_->panel<ComparePanel>());
}

void WindowMenus::createViewMenu() {
    MainWindow* w = window_;
    TimelineView* timeline = w->timeline();
    QMenu* view = w->menuBar()->addMenu(tr("&View"));
    // Light or dark: the system's, or the one chosen (kept in the settings for the next start).
    QMenu* theme = view->addMenu(tr("&Theme"));
    auto* themes = new QActionGroup(this);
    const std::pair<Theme, QString> choices[] = {{Theme::System, tr("Follow the &System")},
                                                 {Theme::Light, tr("&Light")},
                                                 {Theme::Dark, tr("&Dark")}};
    for (const auto& [t, label] : choices) {
        QAction* a = theme->addAction(label);
        a->setObjectName(QStringLiteral("actionTheme_") + themeName(t));
        a->setCheckable(true);
        a->setChecked(currentTheme() == t);
        themes->addAction(a);
        connect(a, &QAction::triggered, this, [t] {
            applyTheme(t);
            saveTheme(t);
        });
    }
    view->addSeparator();
    createNavigationActions(view);
    view->addSeparator();
    QAction* flows = makeAction("actionShowAllFlows", tr("Show All &Flows"), QKeySequence(),
                                [timeline](bool on) { timeline->setShowAllFlows(on); });
    flows->setCheckable(true);
    flows->setToolTip(tr("Draw every flow arrow (launch \u2192 kernel, ...), not only the "
                         "selected slice's"));
    view->addAction(flows);
    view->addSeparator();
    view->addAction(makeTimelineOption(
        "actionGpuFirst", tr("&GPU Section at Top"), QStringLiteral("timeline/gpuFirst"), true,
        &TimelineView::setGpuSectionFirst, &TimelineView::gpuSectionFirst,
        tr("The GPU devices and their streams above the CPU processes (else below them)")));
    view->addAction(makeTimelineOption(
        "actionUtilisation", tr("GPU &Utilisation Rows"), QStringLiteral("timeline/utilisation"),
        false, &TimelineView::setShowUtilisation, &TimelineView::showUtilisation,
        tr("Under each GPU's idle row, how busy it was over time: each pixel column as high as "
           "the share of its time the device ran work")));
    view->addAction(makeTimelineOption(
        "actionQueues", tr("Launch &Queue Rows"), QStringLiteral("timeline/queues"), false,
        &TimelineView::setShowQueues, &TimelineView::showQueues,
        tr("Under each GPU stream, how many launched operations waited to start over time "
           "(HTA's queue length)")));
    view->addAction(makeTimelineOption(
        "actionWheelScrolls", tr("&Wheel Scrolls the Tracks (Ctrl+Wheel Zooms)"),
        QStringLiteral("timeline/wheelScrolls"), false, &TimelineView::setWheelScrolls,
        &TimelineView::wheelScrolls,
        tr("Perfetto's habit: the wheel scrolls, Ctrl+wheel zooms, Shift+wheel pans; off: the "
           "wheel zooms at the cursor, Shift+wheel scrolls")));
    view->addAction(makeAction("actionExpandThreads", tr("&Expand All Threads"), QKeySequence(),
                               [timeline](bool) { timeline->setAllThreadsExpanded(true); }));
    view->addAction(makeAction(
        "actionCollapseThreads", tr("&Collapse Threads to %1 Levels").arg(TrackLayout::kDepthCap),
        QKeySequence(), [timeline](bool) { timeline->setAllThreadsExpanded(false); }));
    profile_ = new ProfileController(w); // the Profile menu and the Console dock
    w->tabifyDockWidget(DockPolicy::dockOf(w->panel<RangePanel>()), profile_->consoleDock());
    profile_->consoleDock()->hide(); // opened when a program runs
    view->addSeparator();
    for (QDockWidget* dock : w->findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());
}

// The timeline's keys, as shortcuts of the whole window: they reach the timeline wherever the
// keyboard is (a dock's table, its chart, a button), while a text field keeps its typing (a line
// edit, a spin box or a text box takes a printable key or Home before any shortcut does).
void WindowMenus::createNavigationActions(QMenu* view) {
    TimelineView* timeline = window_->timeline();
    view->addAction(makeAction("actionZoomAll", tr("Zoom to &Whole Trace"),
                               QKeySequence(Qt::Key_Home),
                               [timeline](bool) { timeline->zoomToAll(); }));
    view->addAction(makeAction("actionZoomSelection", tr("Zoom to &Selection"),
                               QKeySequence(Qt::Key_F),
                               [timeline](bool) { timeline->zoomToSelection(); }));
    view->addAction(makeAction("actionZoomIn", tr("Zoom &In"), QKeySequence(Qt::Key_W),
                               [timeline](bool) { timeline->zoomStep(true); }));
    view->addAction(makeAction("actionZoomOut", tr("Zoom &Out"), QKeySequence(Qt::Key_S),
                               [timeline](bool) { timeline->zoomStep(false); }));
    view->addAction(makeAction("actionPanLeft", tr("Pan &Left"), QKeySequence(Qt::Key_A),
                               [timeline](bool) { timeline->panStep(false); }));
    view->addAction(makeAction("actionPanRight", tr("Pan &Right"), QKeySequence(Qt::Key_D),
                               [timeline](bool) { timeline->panStep(true); }));
    for (QAction* a : view->actions()) a->setProperty("timelineKey", !a->shortcut().isEmpty());
}

void WindowMenus::createHelpMenu() {
    MainWindow* w = window_;
    QMenu* help = w->menuBar()->addMenu(tr("&Help"));
    QAction* keys = makeAction("actionShortcuts", tr("&Keyboard Shortcuts"), QKeySequence(),
                               [w](bool) { w->showShortcutHelp(); });
    keys->setShortcuts({QKeySequence(Qt::Key_Question), QKeySequence(Qt::Key_F1)});
    help->addAction(keys);
    help->addAction(makeAction("actionAbout", tr("&About Strata"), QKeySequence(), [w](bool) {
        // The same as strata --version --verbose.
        QString details =
            QStringLiteral("Qt %1 (built with %2)\n")
                .arg(QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR)) +
            QString::fromStdString(buildDetails());
        QMessageBox::about(w, tr("About Strata"),
                           tr("<h3>%1</h3><p>A trace viewer and profiling front-end for GPU "
                              "programs.</p><p>%2</p>")
                               .arg(QString::fromStdString(versionLine("Strata")).toHtmlEscaped(),
                                    details.toHtmlEscaped().trimmed().replace('\n', "<br>")));
    }));
}

// The toolbar: Open, Zoom to All, Show All Flows, and the gap threshold every view follows.
void WindowMenus::createToolBar() {
    MainWindow* w = window_;
    QToolBar* bar = w->addToolBar(tr("Timeline"));
    bar->setObjectName(QStringLiteral("timelineToolBar"));
    bar->setMovable(false);
    bar->addAction(w->action(QStringLiteral("actionOpen")));
    bar->addSeparator();
    bar->addAction(w->action(QStringLiteral("actionZoomAll")));
    bar->addAction(w->action(QStringLiteral("actionShowAllFlows")));
    bar->addSeparator();
    auto* gapLabel = new QLabel(tr(" Launch gaps \u2265 "), bar);
    Analyses* analyses = w->workspace()->analyses();
    gapBox_ = new QSpinBox(bar);
    gapBox_->setObjectName(QStringLiteral("gapThreshold"));
    gapBox_->setRange(0, 10'000'000);
    gapBox_->setSuffix(QStringLiteral(" \u00b5s"));
    gapBox_->setValue(static_cast<int>(analyses->gapThreshold() / 1000));
    gapBox_->setToolTip(tr("GPU idle gaps at least this long are marked on the stream tracks"));
    gapBox_->setKeyboardTracking(false);
    connect(gapBox_, &QSpinBox::valueChanged, this, [this, analyses](int us) {
        analyses->setGapThreshold(TimeNs(us) * 1000); // every view follows
        if (remember_) QSettings().setValue(QStringLiteral("timeline/gapThresholdUs"), us);
    });
    if (remember_) // the threshold is remembered between runs
        gapBox_->setValue(
            QSettings().value(QStringLiteral("timeline/gapThresholdUs"), gapBox_->value()).toInt());
    bar->addWidget(gapLabel);
    bar->addWidget(gapBox_);
}

} // namespace strata
