// TimelineView: the critical path shown over the rows (timeline/paint/critical_path_overlay.h).
#include "timeline_view.h"

#include "timeline/paint/critical_path_overlay.h"
#include "timeline_state.h"

namespace strata {

void TimelineView::setCriticalPath(std::shared_ptr<const CriticalPath> path) {
    if (path && s_->trace && path->ok)
        s_->criticalPath = std::make_shared<CriticalPathOverlay>(*s_->trace, std::move(path));
    else
        s_->criticalPath.reset();
    repaintAll();
}

bool TimelineView::criticalPathShown() const {
    return s_->criticalPath != nullptr;
}

bool TimelineView::onCriticalPath(SliceRef r) const {
    return s_->criticalPath && s_->criticalPath->contains(r);
}

} // namespace strata
