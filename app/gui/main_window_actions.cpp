// MainWindow's menus and toolbar (createActions): File, Edit, View, Profile, Help, and the
// toolbar's gap threshold.
#include "analysis_views/call_tree_panel.h"
#include "analysis_views/gaps_panel.h"
#include "analysis_views/stats_panel.h"
#include "export_actions.h"
#include "find_bar.h"
#include "load_job.h"
#include "main_window.h"
#include "model/time_text.h"
#include "panels/details_panel.h"
#include "panels/range_panel.h"
#include "panels/trace_info_panel.h"
#include "panels/warnings_panel.h"
#include "profile_controller.h"
#include "sections/sections_panel.h"
#include "shortcut_help.h"
#include "timeline/timeline_legend.h"
#include "timeline/timeline_view.h"
#include "timeline/track_layout.h"
#include "workspace/analyses.h"
#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
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

void MainWindow::createActions() {
    auto make = [this](const char* name, const QString& text, const QKeySequence& key, auto slot) {
        auto* a = new QAction(text, this);
        a->setObjectName(QString::fromLatin1(name));
        if (!key.isEmpty()) a->setShortcut(key);
        a->setShortcutContext(Qt::WindowShortcut);
        connect(a, &QAction::triggered, this, slot);
        addAction(a);
        return a;
    };
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(
        make("actionOpen", tr("&Open\u2026"), QKeySequence::Open, [this] { showOpenDialog(); }));
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    file->addAction(make("actionOpenSample", tr("Open the &Sample Trace"), QKeySequence(),
                         [this] { openSample(); }));
    file->addAction(make("actionImportSections", tr("Import Timer &Sections\u2026"), QKeySequence(),
                         [this] { importSectionsInteractively(); }));
    exports_ = new ExportActions(this, file); // File > Export
    file->addSeparator();
    file->addAction(
        make("actionNewWindow", tr("&New Window"), QKeySequence::New, [] { openWindow(); }));
    file->addAction(
        make("actionClose", tr("&Close Window"), QKeySequence::Close, [this] { close(); }));
    file->addAction(make("actionQuit", tr("&Quit"), QKeySequence::Quit,
                         [] { QApplication::closeAllWindows(); }));

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(make("actionFind", tr("&Find Slices and Instants\u2026"), QKeySequence::Find,
                         [this] { findBar_->activate(); }));
    edit->addAction(make("actionFindNext", tr("Find &Next"), QKeySequence(Qt::Key_F3), [this] {
        findBar_->show();
        findBar_->next();
    }));
    edit->addAction(make("actionFindPrevious", tr("Find &Previous"),
                         QKeySequence(Qt::SHIFT | Qt::Key_F3), [this] {
                             findBar_->show();
                             findBar_->previous();
                         }));

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(make("actionZoomAll", tr("Zoom to &Whole Trace"), QKeySequence(),
                         [this] { timeline_->zoomToAll(); }));
    view->addAction(make("actionZoomSelection", tr("Zoom to &Selection"), QKeySequence(),
                         [this] { timeline_->zoomToSelection(); }));
    view->addSeparator();
    QAction* flows = make("actionShowAllFlows", tr("Show All &Flows"), QKeySequence(),
                          [this](bool on) { timeline_->setShowAllFlows(on); });
    flows->setCheckable(true);
    flows->setToolTip(tr("Draw every flow arrow (launch \u2192 kernel, ...), not only the "
                         "selected slice's"));
    view->addAction(flows);
    view->addSeparator();
    QAction* gpuFirst =
        make("actionGpuFirst", tr("&GPU Section at Top"), QKeySequence(), [this](bool on) {
            timeline_->setGpuSectionFirst(on);
            if (options_.restoreSettings)
                QSettings().setValue(QStringLiteral("timeline/gpuFirst"), on);
        });
    gpuFirst->setCheckable(true);
    gpuFirst->setToolTip(tr("The GPU devices and their streams above the CPU processes (else "
                            "below them)"));
    if (options_.restoreSettings)
        timeline_->setGpuSectionFirst(
            QSettings().value(QStringLiteral("timeline/gpuFirst"), true).toBool());
    gpuFirst->setChecked(timeline_->gpuSectionFirst());
    view->addAction(gpuFirst);
    QAction* util =
        make("actionUtilisation", tr("GPU &Utilisation Rows"), QKeySequence(), [this](bool on) {
            timeline_->setShowUtilisation(on);
            if (options_.restoreSettings)
                QSettings().setValue(QStringLiteral("timeline/utilisation"), on);
        });
    util->setCheckable(true);
    util->setToolTip(tr("Under each GPU's idle row, how busy it was over time: each pixel "
                        "column as high as the share of its time the device ran work"));
    if (options_.restoreSettings)
        timeline_->setShowUtilisation(
            QSettings().value(QStringLiteral("timeline/utilisation"), false).toBool());
    util->setChecked(timeline_->showUtilisation());
    view->addAction(util);
    QAction* wheel = make("actionWheelScrolls", tr("&Wheel Scrolls the Tracks (Ctrl+Wheel Zooms)"),
                          QKeySequence(), [this](bool on) {
                              timeline_->setWheelScrolls(on);
                              if (options_.restoreSettings)
                                  QSettings().setValue(QStringLiteral("timeline/wheelScrolls"), on);
                          });
    wheel->setCheckable(true);
    wheel->setToolTip(tr("Perfetto's habit: the wheel scrolls, Ctrl+wheel zooms, Shift+wheel "
                         "pans; off: the wheel zooms at the cursor, Shift+wheel scrolls"));
    if (options_.restoreSettings)
        timeline_->setWheelScrolls(
            QSettings().value(QStringLiteral("timeline/wheelScrolls"), false).toBool());
    wheel->setChecked(timeline_->wheelScrolls());
    view->addAction(wheel);
    view->addAction(make("actionExpandThreads", tr("&Expand All Threads"), QKeySequence(),
                         [this] { timeline_->setAllThreadsExpanded(true); }));
    view->addAction(make("actionCollapseThreads",
                         tr("&Collapse Threads to %1 Levels").arg(TrackLayout::kDepthCap),
                         QKeySequence(), [this] { timeline_->setAllThreadsExpanded(false); }));
    profile_ = new ProfileController(this); // the Profile menu and the Console dock
    tabifyDockWidget(dockOf(range_), profile_->consoleDock());
    profile_->consoleDock()->hide(); // opened when a program runs
    view->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* keys = make("actionShortcuts", tr("&Keyboard Shortcuts"), QKeySequence(),
                         [this] { showShortcutHelp(); });
    keys->setShortcuts({QKeySequence(Qt::Key_Question), QKeySequence(Qt::Key_F1)});
    help->addAction(keys);

    QToolBar* bar = addToolBar(tr("Timeline"));
    bar->setObjectName(QStringLiteral("timelineToolBar"));
    bar->setMovable(false);
    bar->addAction(action(QStringLiteral("actionOpen")));
    bar->addSeparator();
    bar->addAction(action(QStringLiteral("actionZoomAll")));
    bar->addAction(flows);
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
