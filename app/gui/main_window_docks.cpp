// MainWindow: the docks of dock_table.cpp around the timeline, and when they open. The window
// is the timeline's (issue 28): on a new trace the docks with nothing to show are closed, so the
// tracks get most of the window; Details opens on a selection and closes when it is cleared,
// Range on a selected range, Sections with timer sections, and the Warnings list (otherwise a
// count in the status bar that opens it) only for warnings on what the figures mean. Whatever the
// user arranges (positions, sizes, tabs, the analysis docks left open) is remembered.
#include "main_window.h"
#include "ranks/ranks_panel.h"
#include "workspace/rank_set.h"

#include "dock_table.h"
#include "panels/details_panel.h"
#include "panels/range_panel.h"
#include "panels/warnings_panel.h"
#include "sections/sections_panel.h"

#include <QDockWidget>
#include <QSettings>

#include <map>

namespace strata {

namespace {
// saveState()'s version: layouts saved before docks opened on demand (every dock shown) are
// not restored.
constexpr int kLayoutVersion = 2;
} // namespace

void MainWindow::createDocks() {
    std::map<QString, QDockWidget*> made;
    for (const DockSpec& d : dockTable()) {
        auto* dock = new QDockWidget(tr(d.title), this);
        dock->setObjectName(QString::fromLatin1(d.objectName));
        dock->setWidget(d.make(workspace_, nav_, dock));
        addDockWidget(d.area, dock);
        if (d.tabbedWith) tabifyDockWidget(made.at(QString::fromLatin1(d.tabbedWith)), dock);
        made[dock->objectName()] = dock;
        // Moved or floated by the user: remembered at once.
        connect(dock, &QDockWidget::dockLocationChanged, this, [this] { saveLayout(); });
        connect(dock, &QDockWidget::topLevelChanged, this, [this] { saveLayout(); });
        // Closed by the user: no longer one the window opened.
        connect(dock, &QDockWidget::visibilityChanged, this, [this, dock](bool visible) {
            if (!visible && dock->isHidden()) openedForContent_.removeAll(dock);
        });
    }
    details_ = panel<DetailsPanel>();
    range_ = panel<RangePanel>();
    warnings_ = panel<WarningsPanel>();
    sections_ = panel<SectionsPanel>();
    connect(sections_, &SectionsPanel::importRequested, this,
            &MainWindow::importSectionsInteractively);
    resizeDocks({dockOf(details_)}, {380}, Qt::Horizontal);
    resizeDocks({dockOf(range_)}, {230}, Qt::Vertical);
    for (const auto& [name, dock] : made) dock->hide(); // opened as needed

    connect(nav_, &Navigation::selectedSliceChanged, this, [this](const TraceSliceRef& r) {
        if (r.slice.valid())
            showDock(details_);
        else
            hideDockIfOpenedForIt(details_);
    });
    connect(nav_, &Navigation::selectedRangeChanged, this, [this](std::optional<TimeRange> r) {
        if (r)
            showDock(range_);
        else
            hideDockIfOpenedForIt(range_);
    });
    connect(warnings_, &WarningsPanel::beliefWarnings, this, [this] {
        showDock(warnings_);
        // The ranks of a job: the Ranks dock stays in front (the warnings are a tab away).
        if (!workspace_->ranks()->isEmpty()) dockOf(findChild<RanksPanel*>())->raise();
    });
    connect(warnings_, &WarningsPanel::changed, this, [this] { updateStatus(); });
}

void MainWindow::showDock(QWidget* panel) {
    QDockWidget* dock = dockOf(panel);
    if (dock->isHidden()) {
        dock->show();
        if (!openedForContent_.contains(dock)) openedForContent_ << dock;
    }
    dock->raise();
}

void MainWindow::hideDockIfOpenedForIt(QWidget* panel) {
    QDockWidget* dock = dockOf(panel);
    if (!openedForContent_.removeAll(dock)) return;
    dock->hide();
}

void MainWindow::closeEmptyDocks() {
    // The analysis docks (Gaps, Statistics, Call Tree, Trace Info) stay as the user left them.
    for (QWidget* panel : {static_cast<QWidget*>(details_), static_cast<QWidget*>(range_),
                           static_cast<QWidget*>(warnings_)}) {
        dockOf(panel)->hide();
        openedForContent_.removeAll(dockOf(panel));
    }
    const auto t = trace();
    if (!t || t->sections().empty()) dockOf(sections_)->hide();
}

void MainWindow::restoreLayout() {
    restoreState(QSettings().value(QStringLiteral("window/state")).toByteArray(), kLayoutVersion);
}

void MainWindow::saveLayout() const {
    if (!options_.restoreSettings) return;
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"), saveState(kLayoutVersion));
}

} // namespace strata
