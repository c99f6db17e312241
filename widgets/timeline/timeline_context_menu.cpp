// TimelineView's right-click menu (timeline_view.h: contextMenuAt): on a slice, on a gap, and the
// row's track and group.
#include "model/names/time_text.h"
#include "timeline/paint/note_marks.h"
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
    addTrackItems(menu, s_->layout.rowAt(pos.y() + s_->scrollY));
    if (s_->criticalPath) {
        menu->addSeparator();
        menu->addAction(tr("Hide Critical Path"), this, [this] {
            setCriticalPath(nullptr);
            emit criticalPathHidden();
        });
    }
    if (const int n = s_->layout.hiddenCount(); n > 0) {
        menu->addAction(tr("Show %n Hidden Track(s)", nullptr, n), this,
                        [this] { showAllTracks(); });
        QMenu* hidden = menu->addMenu(tr("Show Hidden"));
        hidden->setObjectName(QStringLiteral("hiddenTracksMenu"));
        const TrackLayout& l = s_->layout;
        for (int g = 0; g < int(l.groups().size()); ++g)
            if (l.groups()[size_t(g)].hidden)
                hidden->addAction(tr("Group \u201c%1\u201d").arg(l.groups()[size_t(g)].label), this,
                                  [this, g] { setGroupHidden(g, false); });
        for (const TrackRow& r : l.rows())
            if (r.hidden && !r.lanes.empty())
                hidden->addAction(r.label, this,
                                  [this, t = r.lanes.front()] { setTrackHidden(t, false); });
    }
    // The notes and flags: one added here, the one under the mouse, the list.
    menu->addSeparator();
    const TimeNs at = s_->axis.timeForX(pos.x());
    menu->addAction(tr("Add Note Here"), this, [this, at] { editNoteText(addNote(at, {}), true); });
    if (const std::optional<TimeRange> r = selectedRange())
        menu->addAction(tr("Add Flag for the Selected Range"), this,
                        [this, r] { editNoteText(addFlag(*r, {}), true); });
    if (const int i = noteAtX(*s_, pos.x(), false); i >= 0) {
        menu->addAction(tr("Edit Note Text\u2026"), this, [this, i] { editNoteText(i); });
        menu->addAction(tr("Delete Note"), this, [this, i] { removeNote(i); });
    }
    addNotesMenu(menu);
    return menu;
}

// A row's items: hide, pin, move up/down, fold its levels; its group collapsed or hidden.
void TimelineView::addTrackItems(QMenu* menu, int row) {
    if (row < 0) return;
    const TrackRow& r = s_->layout.rows()[row];
    if (!menu->isEmpty()) menu->addSeparator();
    if (r.kind != TrackRow::Kind::Group && !r.lanes.empty()) {
        const TrackId track = r.lanes.front();
        menu->addAction(tr("Hide Track"), this, [this, track] { setTrackHidden(track, true); });
        menu->addAction(r.pinned ? tr("Unpin Track") : tr("Pin Track to Top"), this,
                        [this, track, on = !r.pinned] { setTrackPinned(track, on); });
        menu->addAction(tr("Move Up"), this, [this, track] { moveTrack(track, -1); })
            ->setEnabled(s_->layout.canMove(row, -1));
        menu->addAction(tr("Move Down"), this, [this, track] { moveTrack(track, 1); })
            ->setEnabled(s_->layout.canMove(row, 1));
        if (r.thread && (r.expanded || r.foldedDepths > 0 || r.hiddenLevels > 0))
            menu->addAction(
                r.expanded ? tr("Fold Levels")
                           : tr("Unfold All %1 Levels")
                                 .arg(*std::max_element(r.fullDepths.begin(), r.fullDepths.end())),
                this, [this, row, on = !r.expanded] { setRowExpanded(row, on); });
    }
    const int group = r.group;
    if (group >= 0 && group < int(s_->layout.groups().size())) {
        const QString label = s_->layout.groups()[group].label;
        menu->addAction(tr("Collapse \u201c%1\u201d").arg(label), this,
                        [this, group] { setGroupCollapsed(group, true); });
        menu->addAction(tr("Hide Group \u201c%1\u201d").arg(label), this,
                        [this, group] { setGroupHidden(group, true); });
    }
}

} // namespace strata
