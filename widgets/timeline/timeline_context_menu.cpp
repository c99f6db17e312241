// TimelineView's right-click menu (timeline_view.h: contextMenuAt): on a slice, on a gap, and the
// row's track and group.
#include "model/names/time_text.h"
#include "timeline/paint/timeline_painter.h"
#include "timeline_ruler.h"
#include "timeline_state.h"
#include "timeline_view.h"
#include "track_tree_widget.h"
#include "tracks_area.h"
#include "workspace/navigation.h"
#include <QClipboard>
#include <QGridLayout>
#include <QGuiApplication>
#include <QKeyEvent>
#include <QMenu>
#include <QScrollBar>
#include <QtConcurrent/QtConcurrentMap>
#include <algorithm>
#include <numeric>

namespace strata {

QMenu* TimelineView::contextMenuAt(QPoint pos) {
    auto* menu = new QMenu(this);
    const Trace* t = s_->trace.get();
    if (!t) return menu;
    const SliceRef slice = sliceAtPixel(pos);
    const std::optional<GapSpan> gap = slice.valid() ? std::nullopt : area_->gapAt(pos);
    if (slice.valid()) {
        const QString name =
            QString::fromUtf8(t->name(slice).data(), qsizetype(t->name(slice).size()));
        const TimeRange span{t->start(slice), t->start(slice) + t->duration(slice)};
        menu->addAction(tr("Zoom to Slice"), this, [this, slice] {
            selectSlice(slice);
            zoomToSelection();
        });
        menu->addAction(tr("Copy Name"), this,
                        [name] { QGuiApplication::clipboard()->setText(name); });
        menu->addAction(tr("Find All With This Name"), this,
                        [this, name] { emit findRequested(name); });
        menu->addAction(tr("Select Its Time Range"), this,
                        [this, span] { setSelectedRange(span); });
    } else if (gap) {
        const GapSpan g = *gap;
        menu->addAction(tr("Zoom to Gap"), this, [this, g] {
            const TimeNs m = std::max<TimeNs>(1, g.duration() / 10);
            setVisibleRange({g.start - m, g.end + m});
        });
        const TimeNs origin = t->bounds().start;
        const QString figures =
            tr("GPU idle %1, from %2 to %3 (threshold %4)")
                .arg(QString::fromStdString(formatPreciseDuration(g.duration())),
                     QString::fromStdString(formatPreciseDuration(g.start - origin)),
                     QString::fromStdString(formatPreciseDuration(g.end - origin)),
                     QString::fromStdString(formatPreciseDuration(gapThresholdNs())));
        menu->addAction(tr("Copy Gap Figures"), this,
                        [figures] { QGuiApplication::clipboard()->setText(figures); });
    }
    const int row = s_->layout.rowAt(pos.y() + s_->scrollY);
    if (row >= 0) {
        const TrackRow& r = s_->layout.rows()[row];
        if (!menu->isEmpty()) menu->addSeparator();
        if (r.kind != TrackRow::Kind::Group && !r.lanes.empty()) {
            const TrackId track = r.lanes.front();
            menu->addAction(tr("Hide Track"), this, [this, track] { setTrackHidden(track, true); });
            menu->addAction(r.pinned ? tr("Unpin Track") : tr("Pin Track to Top"), this,
                            [this, track, on = !r.pinned] { setTrackPinned(track, on); });
            if (r.thread && (r.expanded || r.foldedDepths > 0 || r.hiddenLevels > 0))
                menu->addAction(r.expanded ? tr("Fold Levels")
                                           : tr("Unfold All %1 Levels")
                                                 .arg(*std::max_element(r.fullDepths.begin(),
                                                                        r.fullDepths.end())),
                                this, [this, row, on = !r.expanded] { setRowExpanded(row, on); });
        }
        const int group = r.group;
        if (group >= 0 && group < int(s_->layout.groups().size()))
            menu->addAction(tr("Collapse \u201c%1\u201d").arg(s_->layout.groups()[group].label),
                            this, [this, group] { setGroupCollapsed(group, true); });
    }
    if (s_->criticalPath) {
        menu->addSeparator();
        menu->addAction(tr("Hide Critical Path"), this, [this] {
            setCriticalPath(nullptr);
            emit criticalPathHidden();
        });
    }
    if (const int n = s_->layout.hiddenCount(); n > 0)
        menu->addAction(tr("Show %n Hidden Track(s)", nullptr, n), this,
                        [this] { showAllTracks(); });
    return menu;
}

} // namespace strata
