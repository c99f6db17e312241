#include "trace_panel.h"

namespace strata {

TracePanel::TracePanel(Workspace* workspace, Navigation* navigation, QWidget* parent)
    : QWidget(parent), workspace_(workspace), nav_(navigation) {
    connect(workspace_, &Workspace::currentChanged, this,
            [this](const std::shared_ptr<const Trace>& t) { traceChanged(t); });
    connect(nav_, &Navigation::selectedSliceChanged, this,
            [this](const TraceSliceRef& r) { selectedSliceChanged(r); });
    connect(nav_, &Navigation::selectedRangeChanged, this,
            [this](std::optional<TimeRange> r) { selectedRangeChanged(r); });
    connect(nav_, &Navigation::visibleRangeChanged, this,
            [this](TimeRange r) { visibleRangeChanged(r); });
}

} // namespace strata
