// MainWindow's menus and toolbar (createActions): File, Edit, View, Profile, Help, and the
// toolbar's gap threshold.
#include "analysis_views/call_tree_panel.h"
#include "analysis_views/gaps_panel.h"
#include "analysis_views/stats_panel.h"
#include "build_info.h"
#include "export_actions.h"
#include "find_bar.h"
#include "load_job.h"
#include "main_window.h"
#include "model/names/time_text.h"
#include "panels/details_panel.h"
#include "panels/range_panel.h"
#include "panels/trace_info_panel.h"
#include "panels/warnings_panel.h"
#include "profile_controller.h"
#include "sections/sections_panel.h"
#include "shortcut_help.h"
#include "style/theme.h"
#include "timeline/layout/track_layout.h"
#include "timeline/timeline_legend.h"
#include "timeline/timeline_view.h"
#include "trace_cache_controller.h"
#include "workspace/analyses.h"
#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace strata {

template <typename Slot>
QAction* MainWindow::makeAction(const char* name, const QString& text, const QKeySequence& key,
                                Slot slot) {
    auto* a = new QAction(text, this);
    a->setObjectName(QString::fromLatin1(name));
    if (!key.isEmpty()) a->setShortcut(key);
    a->setShortcutContext(Qt::WindowShortcut);
    connect(a, &QAction::triggered, this, slot);
    addAction(a);
    return a;
}

QAction* MainWindow::makeTimelineOption(const char* name, const QString& text,
                                        const QString& settingsKey, bool byDefault,
                                        void (TimelineView::*set)(bool),
                                        bool (TimelineView::*get)() const, const QString& tip) {
    QAction* a = makeAction(name, text, QKeySequence(), [this, settingsKey, set](bool on) {
        (timeline_->*set)(on);
        if (options_.restoreSettings) QSettings().setValue(settingsKey, on);
    });
    a->setCheckable(true);
    a->setToolTip(tip);
    if (options_.restoreSettings)
        (timeline_->*set)(QSettings().value(settingsKey, byDefault).toBool());
    a->setChecked((timeline_->*get)());
    return a;
}

void MainWindow::createActions() {
    createFileMenu();
    createEditMenu();
    createViewMenu();
    createSettingsMenu();
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* keys = makeAction("actionShortcuts", tr("&Keyboard Shortcuts"), QKeySequence(),
                               [this] { showShortcutHelp(); });
    keys->setShortcuts({QKeySequence(Qt::Key_Question), QKeySequence(Qt::Key_F1)});
    help->addAction(keys);
    help->addAction(makeAction("actionAbout", tr("&About Strata"), QKeySequence(), [this] {
        // The same as strata --version --verbose.
        QString details =
            QStringLiteral("Qt %1 (built with %2)\n")
                .arg(QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR)) +
            QString::fromStdString(buildDetails());
        QMessageBox::about(this, tr("About Strata"),
                           tr("<h3>%1</h3><p>A trace viewer and profiling front-end for GPU "
                              "programs.</p><p>%2</p>")
                               .arg(QString::fromStdString(versionLine("Strata")).toHtmlEscaped(),
                                    details.toHtmlEscaped().trimmed().replace('\n', "<br>")));
    }));
    createToolBar();
}

void MainWindow::createFileMenu() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(makeAction("actionOpen", tr("&Open\u2026"), QKeySequence::Open,
                               [this] { showOpenDialog(); }));
    file->addAction(
        makeAction("actionOpenFolder", tr("Open &Folder as Ranks…"), QKeySequence(), [this] {
            const QString dir =
                QFileDialog::getExistingDirectory(this, tr("Open the Ranks of a Job"));
            if (!dir.isEmpty()) openFiles({dir});
        }));
    QAction* addRanks = makeAction("actionAddRanks", tr("&Add Ranks…"), QKeySequence(),
                                   [this] { showOpenRanksDialog(true); });
    addRanks->setToolTip(tr("Add traces to the ranks open in this window"));
    file->addAction(addRanks);
    QAction* compare = makeAction("actionCompareWith", tr("&Compare With…"), QKeySequence(),
                                  [this] { showCompareDialog(); });
    compare->setToolTip(tr("Compare the trace open (the baseline) with another run"));
    file->addAction(compare);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    file->addAction(makeAction("actionOpenSample", tr("Open the &Sample Trace"), QKeySequence(),
                               [this] { openSample(); }));
    file->addAction(makeAction("actionImportSections", tr("Import Timer &Sections\u2026"),
                               QKeySequence(), [this] { importSectionsInteractively(); }));
    exports_ = new ExportActions(this, file); // File > Export
    file->addSeparator();
    file->addAction(
        makeAction("actionNewWindow", tr("&New Window"), QKeySequence::New, [] { openWindow(); }));
    file->addAction(
        makeAction("actionClose", tr("&Close Window"), QKeySequence::Close, [this] { close(); }));
    file->addAction(makeAction("actionQuit", tr("&Quit"), QKeySequence::Quit,
                               [] { QApplication::closeAllWindows(); }));
}

void MainWindow::createSettingsMenu() {
    QMenu* settings = menuBar()->addMenu(tr("&Settings"));
    settings->setToolTipsVisible(true);
    cache_->addMenu(settings);
}

void MainWindow::createEditMenu() {
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    // Two ranges of one trace compared (the Compare dock, the two one above the other).
    QAction* base = makeAction(
        "actionBaselineRange", tr("Set Selected Range as &Baseline"), QKeySequence(), [this] {
            baselineRange_ = nav_->selectedRange();
            if (baselineRange_)
                statusBar()->showMessage(tr("Baseline range set: select another range, then "
                                            "Edit ▸ Compare Selected Range with the "
                                            "Baseline"),
                                         10000);
        });
    base->setToolTip(tr("The range selected on the timeline becomes the baseline of a comparison"));
    edit->addAction(base);
    QAction* against =
        makeAction("actionCompareRange", tr("Compare Selected Range with the Baseline"),
                   QKeySequence(), [this] {
                       if (!baselineRange_ || !nav_->selectedRange()) {
                           showError(tr("Select a range and choose Edit ▸ Set Selected Range as "
                                        "Baseline, then select the range to compare with it."));
                           return;
                       }
                       compareRanges(*baselineRange_, *nav_->selectedRange());
                   });
    against->setToolTip(tr("Compare the range selected on the timeline with the baseline range"));
    edit->addAction(against);
    edit->addSeparator();
    edit->addAction(makeAction("actionFind", tr("&Find Slices and Instants\u2026"),
                               QKeySequence::Find, [this] { findBar_->activate(); }));
    edit->addAction(
        makeAction("actionFindNext", tr("Find &Next"), QKeySequence(Qt::Key_F3), [this] {
            findBar_->show();
            findBar_->next();
        }));
    edit->addAction(makeAction("actionFindPrevious", tr("Find &Previous"),
                               QKeySequence(Qt::SHIFT | Qt::Key_F3), [this] {
                                   findBar_->show();
                                   findBar_->previous();
                               }));
}

void MainWindow::createViewMenu() {
    QMenu* view = menuBar()->addMenu(tr("&View"));
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
    view->addAction(makeAction("actionZoomAll", tr("Zoom to &Whole Trace"), QKeySequence(),
                               [this] { timeline_->zoomToAll(); }));
    view->addAction(makeAction("actionZoomSelection", tr("Zoom to &Selection"), QKeySequence(),
                               [this] { timeline_->zoomToSelection(); }));
    view->addSeparator();
    QAction* flows = makeAction("actionShowAllFlows", tr("Show All &Flows"), QKeySequence(),
                                [this](bool on) { timeline_->setShowAllFlows(on); });
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
        "actionWheelScrolls", tr("&Wheel Scrolls the Tracks (Ctrl+Wheel Zooms)"),
        QStringLiteral("timeline/wheelScrolls"), false, &TimelineView::setWheelScrolls,
        &TimelineView::wheelScrolls,
        tr("Perfetto's habit: the wheel scrolls, Ctrl+wheel zooms, Shift+wheel pans; off: the "
           "wheel zooms at the cursor, Shift+wheel scrolls")));
    view->addAction(makeAction("actionExpandThreads", tr("&Expand All Threads"), QKeySequence(),
                               [this] { timeline_->setAllThreadsExpanded(true); }));
    view->addAction(makeAction(
        "actionCollapseThreads", tr("&Collapse Threads to %1 Levels").arg(TrackLayout::kDepthCap),
        QKeySequence(), [this] { timeline_->setAllThreadsExpanded(false); }));
    profile_ = new ProfileController(this); // the Profile menu and the Console dock
    tabifyDockWidget(dockOf(range_), profile_->consoleDock());
    profile_->consoleDock()->hide(); // opened when a program runs
    view->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());
}

// The toolbar: Open, Zoom to All, Show All Flows, and the gap threshold every view follows.
void MainWindow::createToolBar() {
    QToolBar* bar = addToolBar(tr("Timeline"));
    bar->setObjectName(QStringLiteral("timelineToolBar"));
    bar->setMovable(false);
    bar->addAction(action(QStringLiteral("actionOpen")));
    bar->addSeparator();
    bar->addAction(action(QStringLiteral("actionZoomAll")));
    bar->addAction(action(QStringLiteral("actionShowAllFlows")));
    bar->addSeparator();
    auto* gapLabel = new QLabel(tr(" Launch gaps \u2265 "), bar);
    gapBox_ = new QSpinBox(bar);
    gapBox_->setObjectName(QStringLiteral("gapThreshold"));
    gapBox_->setRange(0, 10'000'000);
    gapBox_->setSuffix(QStringLiteral(" \u00b5s"));
    gapBox_->setValue(static_cast<int>(workspace_->analyses()->gapThreshold() / 1000));
    gapBox_->setToolTip(tr("GPU idle gaps at least this long are marked on the stream tracks"));
    gapBox_->setKeyboardTracking(false);
    connect(gapBox_, &QSpinBox::valueChanged, this, [this](int us) {
        workspace_->analyses()->setGapThreshold(TimeNs(us) * 1000); // every view follows
        if (options_.restoreSettings)
            QSettings().setValue(QStringLiteral("timeline/gapThresholdUs"), us);
    });
    if (options_.restoreSettings) // the threshold is remembered between runs
        gapBox_->setValue(
            QSettings().value(QStringLiteral("timeline/gapThresholdUs"), gapBox_->value()).toInt());
    bar->addWidget(gapLabel);
    bar->addWidget(gapBox_);
}

} // namespace strata
