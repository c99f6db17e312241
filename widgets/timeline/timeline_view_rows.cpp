// TimelineView: the rows (groups collapsed, tracks hidden and pinned, threads expanded and their
// levels folded at the visible range), the vertical scroll, and bringing a slice or an instant
// into view, in time and vertically.
#include "timeline_view.h"

#include "timeline/layout/level_folds.h"
#include "timeline/layout/track_arrangement.h"
#include "timeline/paint/instant_marks.h"
#include "timeline/paint/sample_lanes.h"
#include "timeline/paint/timeline_painter.h"
#include "timeline_state.h"
#include "track_tree_widget.h"
#include "tracks_area.h"

#include <QScrollBar>

#include <algorithm>

namespace strata {

void TimelineView::reveal(SliceRef r) {
    const Trace* t = s_->trace.get();
    if (!t || !r.valid()) return;
    // In time first: the levels folded depend on the visible range.
    const TimeRange v = s_->axis.visible();
    const TimeNs st = t->start(r), en = st + t->duration(r);
    if (st < v.start || en > v.end) {
        if (en - st < v.duration()) {
            const TimeNs c = st + (en - st) / 2 - v.duration() / 2;
            setVisibleRange({c, c + v.duration()});
        } else {
            zoomToSelection();
        }
    }
    // A slice below a thread's level cap: the thread shows all its levels.
    const int row = s_->layout.rowOfTrack(r.track);
    if (row >= 0 && s_->layout.sliceY(r.track, t->track(r.track).slices.depth[r.index]) < 0)
        setThreadExpanded(r.track, true);
    ensureTrackVisible(r.track);
    ensureYVisible(s_->layout.sliceY(r.track, t->track(r.track).slices.depth[r.index]),
                   TrackLayout::kDepthHeight);
}

void TimelineView::revealInstant(InstantRef r) {
    const Trace* t = s_->trace.get();
    if (!t || !r.valid() || r.track >= t->tracks().size() ||
        r.index >= t->track(r.track).instants.size())
        return;
    s_->currentInstant = r;
    const TimeNs ts = t->track(r.track).instants.ts[r.index];
    const TimeRange v = s_->axis.visible();
    if (ts < v.start || ts >= v.end)
        setVisibleRange({ts - v.duration() / 2, ts + v.duration() / 2});
    ensureTrackVisible(r.track);
    ensureYVisible(s_->layout.instantsY(s_->layout.rowOfTrack(r.track)),
                   TrackLayout::kInstantHeight);
    repaintAll();
}

void TimelineView::setHighlightedInstants(std::vector<InstantRef> refs) {
    s_->instantHighlights = std::move(refs);
    if (s_->instantHighlights.empty()) s_->currentInstant = {};
    repaintAll();
}

InstantRef TimelineView::instantAtPixel(QPoint pos) const {
    return instantAt(*s_, pos);
}

QRect TimelineView::instantRect(InstantRef r) const {
    return strata::instantRect(*s_, r);
}

QString TimelineView::sampleTextAt(QPoint pos) const {
    const SampleHit h = sampleAt(*s_, pos, painter_->cache());
    return h.valid() ? sampleTooltip(*s_->trace, *h.thread, h.index) : QString();
}

void TimelineView::refold() {
    if (!s_->trace) return;
    const TimeRange v = s_->axis.visible();
    // A lane still being summarised keeps its folds until its summary is there (lodBuilt).
    const bool changed = s_->layout.applyFolds([&](TrackId id) -> std::optional<LaneFolds> {
        const TrackLod* lod = painter_->cache().lod(id);
        if (!lod) return std::nullopt;
        return singleSliceRuns(s_->trace->track(id), *lod, v.start, v.end);
    });
    if (changed) updateScrollBar();
}

void TimelineView::lodBuilt() {
    refold();
    repaintAll();
}

std::vector<TrackId> TimelineView::lanesInView() const {
    // Before the window is shown the area has no size yet: the window's height bounds it.
    const int height = std::max(area_->height(), window()->height());
    std::vector<TrackId> ids;
    for (const TrackRow& r : s_->layout.rows()) {
        if (r.height == 0 || r.y + r.height <= s_->scrollY) continue;
        if (r.y >= s_->scrollY + height) break;
        ids.insert(ids.end(), r.lanes.begin(), r.lanes.end());
    }
    return ids;
}

int TimelineView::verticalScroll() const {
    return s_->scrollY;
}

void TimelineView::setVerticalScroll(int y) {
    y = std::clamp(y, 0, std::max(0, s_->layout.contentHeight() - area_->height()));
    if (y == s_->scrollY) return;
    s_->scrollY = y;
    {
        const QSignalBlocker block(vbar_);
        vbar_->setValue(y);
    }
    tree_->update();
    area_->update();
}

void TimelineView::setGroupCollapsed(int group, bool collapsed) {
    if (group < 0 || group >= groupCount()) return;
    s_->layout.setCollapsed(group, collapsed);
    updateScrollBar();
    repaintAll();
}

void TimelineView::setGroupsCollapsed(const QString& prefix, bool collapsed) {
    s_->layout.setRankFolded(prefix, collapsed);
    updateScrollBar();
    repaintAll();
}

void TimelineView::setTrackHidden(TrackId t, bool hidden) {
    s_->layout.setHidden(s_->layout.rowOfTrack(t), hidden);
    updateScrollBar();
    repaintAll();
    emit arrangementChanged();
}

void TimelineView::setTrackPinned(TrackId t, bool pinned) {
    s_->layout.setPinned(s_->layout.rowOfTrack(t), pinned);
    updateScrollBar();
    repaintAll();
    emit arrangementChanged();
}

void TimelineView::showAllTracks() {
    s_->layout.showAll();
    updateScrollBar();
    repaintAll();
    emit arrangementChanged();
}

void TimelineView::moveTrack(TrackId t, int delta) {
    if (!s_->layout.moveRow(s_->layout.rowOfTrack(t), delta)) return;
    updateScrollBar();
    repaintAll();
    emit arrangementChanged();
}

void TimelineView::moveTrackTo(TrackId t, int y) {
    TrackLayout& l = s_->layout;
    int row = l.rowOfTrack(t), moves = 0;
    if (row < 0) return;
    const bool up = y < l.rows()[size_t(row)].y;
    for (;;) {
        const TrackRow& r = l.rows()[size_t(row)];
        if (up ? r.y <= y : r.y + r.height >= y) break;
        if (!l.moveRow(row, up ? -1 : 1)) break;
        row = l.rowOfTrack(t);
        ++moves;
    }
    if (moves == 0) return;
    updateScrollBar();
    repaintAll();
    emit arrangementChanged();
}

void TimelineView::setGroupHidden(int group, bool hidden) {
    if (group < 0 || group >= groupCount()) return;
    s_->layout.setGroupHidden(group, hidden);
    updateScrollBar();
    repaintAll();
    emit arrangementChanged();
}

TrackArrangement TimelineView::trackArrangement() const {
    return s_->trace ? arrangementOf(s_->layout, *s_->trace) : TrackArrangement{};
}

void TimelineView::applyTrackArrangement(const TrackArrangement& a) {
    if (!s_->trace) return;
    applyArrangement(s_->layout, *s_->trace, a);
    refold();
    updateScrollBar();
    repaintAll();
}

// The rows laid out again after a layout option changed (and drawn).
void TimelineView::rebuildRows() {
    if (s_->trace) s_->layout.rebuild(*s_->trace);
    refold();
    updateScrollBar();
    repaintAll();
}

void TimelineView::setGpuSectionFirst(bool on) {
    if (s_->layout.gpuFirst() == on) return;
    s_->layout.setGpuFirst(on);
    rebuildRows();
}

void TimelineView::setShowUtilisation(bool on) {
    if (s_->layout.showUtilisation() == on) return;
    s_->layout.setShowUtilisation(on);
    rebuildRows();
}

bool TimelineView::showUtilisation() const {
    return s_->layout.showUtilisation();
}

void TimelineView::setShowQueues(bool on) {
    if (s_->layout.showQueues() == on) return;
    s_->layout.setShowQueues(on);
    rebuildRows();
}

bool TimelineView::showQueues() const {
    return s_->layout.showQueues();
}

bool TimelineView::gpuSectionFirst() const {
    return s_->layout.gpuFirst();
}

void TimelineView::setThreadExpanded(TrackId t, bool expanded) {
    s_->layout.setExpanded(s_->layout.rowOfTrack(t), expanded);
    updateScrollBar();
    repaintAll();
}

void TimelineView::setRowExpanded(int row, bool expanded) {
    s_->layout.setExpanded(row, expanded);
    updateScrollBar();
    repaintAll();
}

const TrackLayout& TimelineView::layout() const {
    return s_->layout;
}

void TimelineView::setAllThreadsExpanded(bool expanded) {
    s_->layout.setAllExpanded(expanded);
    updateScrollBar();
    repaintAll();
}

QRect TimelineView::trackRect(TrackId t) const {
    const int row = s_->layout.rowOfTrack(t);
    if (row < 0) return {};
    const TrackRow& r = s_->layout.rows()[row];
    if (r.height == 0) return {};
    return QRect(0, r.y - s_->scrollY, area_->width(), r.height);
}

QRect TimelineView::deviceIdleRect(int32_t device) const {
    for (const TrackRow& r : s_->layout.rows())
        if (r.kind == TrackRow::Kind::DeviceIdle && r.device == device && r.height > 0)
            return QRect(0, r.y - s_->scrollY, area_->width(), r.height);
    return {};
}

int TimelineView::groupCount() const {
    return static_cast<int>(s_->layout.groups().size());
}

void TimelineView::updateScrollBar() {
    const int maxScroll = std::max(0, s_->layout.contentHeight() - area_->height());
    {
        const QSignalBlocker block(vbar_);
        vbar_->setRange(0, maxScroll);
        vbar_->setPageStep(std::max(1, area_->height()));
        vbar_->setSingleStep(TrackLayout::kDepthHeight);
    }
    const int clamped = std::min(s_->scrollY, maxScroll);
    if (clamped != s_->scrollY)
        setVerticalScroll(clamped);
    else {
        const QSignalBlocker block(vbar_);
        vbar_->setValue(s_->scrollY);
    }
}

void TimelineView::ensureYVisible(int y, int h) {
    if (y < 0) return;
    // A row of room around it where there is some, so what encloses it shows too.
    const int view = area_->height(), margin = std::min(2 * TrackLayout::kDepthHeight, view / 4);
    if (y < s_->scrollY + margin)
        setVerticalScroll(y - margin);
    else if (y + h > s_->scrollY + view - margin)
        setVerticalScroll(y + h + margin - view);
}

void TimelineView::ensureTrackVisible(TrackId t) {
    const int row = s_->layout.rowOfTrack(t);
    if (row < 0) return;
    const TrackRow& r = s_->layout.rows()[row];
    if (s_->layout.collapsed(r.group)) setGroupCollapsed(r.group, false);
    const TrackRow& rr = s_->layout.rows()[row];
    const int h = area_->height();
    if (rr.y < s_->scrollY)
        setVerticalScroll(rr.y);
    else if (rr.y + std::min(rr.height, h) > s_->scrollY + h)
        setVerticalScroll(rr.y + std::min(rr.height, h) - h);
}

} // namespace strata
