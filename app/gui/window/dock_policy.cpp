#include "window/dock_policy.h"

#include "analysis/ops/roofline.h"
#include "analysis_views/roofline_panel.h"
#include "panels/details_panel.h"
#include "panels/range_panel.h"
#include "panels/warnings_panel.h"
#include "ranks/ranks_panel.h"
#include "sections/sections_panel.h"
#include "window/dock_table.h"
#include "workspace/navigation.h"
#include "workspace/rank_set.h"
#include "workspace/workspace.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QSettings>

#include <map>

namespace strata {

namespace {
// saveState()'s version: layouts saved before docks opened on demand (every dock shown) are
// not restored.
constexpr int kLayoutVersion = 2;
} // namespace

DockPolicy::DockPolicy(QMainWindow* window, Workspace* workspace, Navigation* nav, bool remember)
    : QObject(window), window_(window), workspace_(workspace), remember_(remember) {
    std::map<QString, QDockWidget*> made;
    for (const DockSpec& d : dockTable()) {
        auto* dock = new QDockWidget(tr(d.title), window);
        dock->setObjectName(QString::fromLatin1(d.objectName));
        dock->setWidget(d.make(workspace, nav, dock));
        window->addDockWidget(d.area, dock);
        if (d.tabbedWith)
            window->tabifyDockWidget(made.at(QString::fromLatin1(d.tabbedWith)), dock);
        made[dock->objectName()] = dock;
        // Moved or floated by the user: remembered at once.
        connect(dock, &QDockWidget::dockLocationChanged, this, [this] { saveLayout(); });
        connect(dock, &QDockWidget::topLevelChanged, this, [this] { saveLayout(); });
        // Closed by the user: no longer one the window opened.
        connect(dock, &QDockWidget::visibilityChanged, this, [this, dock](bool visible) {
            if (!visible && dock->isHidden()) openedForContent_.removeAll(dock);
        });
    }
    auto* details = window->findChild<DetailsPanel*>();
    auto* range = window->findChild<RangePanel*>();
    auto* warnings = window->findChild<WarningsPanel*>();
    window->resizeDocks({dockOf(details)}, {380}, Qt::Horizontal);
    window->resizeDocks({dockOf(range)}, {230}, Qt::Vertical);
    for (const auto& [name, dock] : made) dock->hide(); // opened as needed

    connect(nav, &Navigation::selectedSliceChanged, this, [this, details](const TraceSliceRef& r) {
        if (r.slice.valid())
            showDock(details);
        else
            hideDockIfOpenedForIt(details);
    });
    connect(nav, &Navigation::selectedRangeChanged, this,
            [this, range](std::optional<TimeRange> r) {
                if (r)
                    showDock(range);
                else
                    hideDockIfOpenedForIt(range);
            });
    connect(warnings, &WarningsPanel::beliefWarnings, this, [this, warnings] {
        showDock(warnings);
        // The ranks of a job: the Ranks dock stays in front (the warnings are a tab away).
        if (!workspace_->ranks()->isEmpty()) dockOf(window_->findChild<RanksPanel*>())->raise();
    });
    connect(warnings, &WarningsPanel::changed, this, &DockPolicy::warningsChanged);
}

void DockPolicy::restoreLayout() {
    if (!remember_) return;
    QSettings s;
    window_->restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray());
    window_->restoreState(s.value(QStringLiteral("window/state")).toByteArray(), kLayoutVersion);
}

QDockWidget* DockPolicy::dockOf(QWidget* panel) {
    return qobject_cast<QDockWidget*>(panel->parentWidget());
}

void DockPolicy::showDock(QWidget* panel) {
    QDockWidget* dock = dockOf(panel);
    if (dock->isHidden()) {
        dock->show();
        if (!openedForContent_.contains(dock)) openedForContent_ << dock;
    }
    dock->raise();
}

void DockPolicy::hideDockIfOpenedForIt(QWidget* panel) {
    QDockWidget* dock = dockOf(panel);
    if (!openedForContent_.removeAll(dock)) return;
    dock->hide();
}

void DockPolicy::closeEmptyDocks() {
    // The analysis docks (Gaps, Statistics, Call Tree, Trace Info) stay as the user left them.
    for (QWidget* panel : {static_cast<QWidget*>(window_->findChild<DetailsPanel*>()),
                           static_cast<QWidget*>(window_->findChild<RangePanel*>()),
                           static_cast<QWidget*>(window_->findChild<WarningsPanel*>())}) {
        dockOf(panel)->hide();
        openedForContent_.removeAll(dockOf(panel));
    }
    const auto t = workspace_->current();
    if (!t || t->sections().empty()) dockOf(window_->findChild<SectionsPanel*>())->hide();
    if (!t || !mayHaveKernelCounters(*t)) dockOf(window_->findChild<RooflinePanel*>())->hide();
}

void DockPolicy::saveLayout() const {
    if (!remember_) return;
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), window_->saveGeometry());
    s.setValue(QStringLiteral("window/state"), window_->saveState(kLayoutVersion));
}

} // namespace strata
