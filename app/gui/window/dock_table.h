#pragma once
// The window's docks, one line each (dock_table.cpp): the panel (a TracePanel), its title and
// object name, where it goes and the dock it shares tabs with. DockPolicy (dock_policy.h) makes
// them in this order; View lists them. A new dock is its panel class and one line there.
#include <Qt>

#include <vector>

class QWidget;

namespace strata {

class Navigation;
class TracePanel;
class Workspace;

struct DockSpec {
    const char* objectName;
    const char* title;
    Qt::DockWidgetArea area;
    const char* tabbedWith; // the objectName of an earlier dock, or null
    TracePanel* (*make)(Workspace* workspace, Navigation* navigation, QWidget* parent);
};

const std::vector<DockSpec>& dockTable();

} // namespace strata
