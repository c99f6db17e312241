#pragma once
// A panel that shows something about the current trace and where the user is in it (a dock:
// Details, Warnings, Trace Info, Sections; the analysis docks derive from AnalysisPanel). It hears
// of the workspace's current trace and of the navigation through the virtual functions below, and
// asks the navigation to change (select a slice, a range). A new dock is one subclass plus one
// line in app/gui/dock_table.cpp.
#include "navigation.h"

#include <QWidget>

#include <memory>
#include <optional>

namespace strata {

class TracePanel : public QWidget {
    Q_OBJECT
public:
    TracePanel(Workspace* workspace, Navigation* navigation, QWidget* parent = nullptr);

    Workspace* workspace() const { return workspace_; }
    Navigation* navigation() const { return nav_; }
    std::shared_ptr<const Trace> trace() const { return workspace_->current(); }

protected:
    // Each is called after the change; a subclass calls traceChanged(trace()) at the end of its
    // constructor if it shows something before the first change.
    virtual void traceChanged(const std::shared_ptr<const Trace>& trace) { (void)trace; }
    virtual void selectedSliceChanged(const TraceSliceRef& r) { (void)r; }
    virtual void selectedRangeChanged(std::optional<TimeRange> r) { (void)r; }
    virtual void visibleRangeChanged(TimeRange r) { (void)r; }

private:
    Workspace* workspace_;
    Navigation* nav_;
};

} // namespace strata
