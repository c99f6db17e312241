#include "window/dock_table.h"

#include "analysis_views/call_tree_panel.h"
#include "analysis_views/gaps_panel.h"
#include "analysis_views/roofline_panel.h"
#include "analysis_views/stats_panel.h"
#include "compare/compare_panel.h"
#include "panels/details_panel.h"
#include "panels/range_panel.h"
#include "panels/trace_info_panel.h"
#include "panels/warnings_panel.h"
#ifdef STRATA_HAVE_QUERY
#include "query/query_panel.h"
#endif
#include "ranks/ranks_panel.h"
#include "sections/sections_panel.h"

namespace strata {

namespace {
template <typename Panel> TracePanel* make(Workspace* w, Navigation* n, QWidget* parent) {
    return new Panel(w, n, parent);
}
} // namespace

const std::vector<DockSpec>& dockTable() {
    static const std::vector<DockSpec> docks = {
        {"detailsDock", "Details", Qt::RightDockWidgetArea, nullptr, make<DetailsPanel>},
        {"rangeDock", "Range", Qt::BottomDockWidgetArea, nullptr, make<RangePanel>},
        {"warningsDock", "Warnings", Qt::BottomDockWidgetArea, "rangeDock", make<WarningsPanel>},
        {"sectionsDock", "Sections", Qt::BottomDockWidgetArea, "rangeDock", make<SectionsPanel>},
        {"gapsDock", "Gaps", Qt::BottomDockWidgetArea, "rangeDock", make<GapsPanel>},
        {"statsDock", "Statistics", Qt::BottomDockWidgetArea, "rangeDock", make<StatsPanel>},
        {"rooflineDock", "Roofline", Qt::BottomDockWidgetArea, "rangeDock", make<RooflinePanel>},
        {"callTreeDock", "Call Tree", Qt::BottomDockWidgetArea, "rangeDock", make<CallTreePanel>},
        {"ranksDock", "Ranks", Qt::BottomDockWidgetArea, "rangeDock", make<RanksPanel>},
        {"compareDock", "Compare", Qt::BottomDockWidgetArea, "rangeDock", make<ComparePanel>},
#ifdef STRATA_HAVE_QUERY
        {"queryDock", "Query", Qt::BottomDockWidgetArea, "rangeDock", make<QueryPanel>},
#endif
        {"traceInfoDock", "Trace Info", Qt::RightDockWidgetArea, "detailsDock",
         make<TraceInfoPanel>},
    };
    return docks;
}

} // namespace strata
