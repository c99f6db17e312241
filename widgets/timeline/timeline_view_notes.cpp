// TimelineView: the user's notes and flags (timeline_view.h) — added from the keys, the ruler
// and the menus, their text asked for in a dialog, selected, removed, listed and zoomed to.
#include "model/names/time_text.h"
#include "timeline/paint/note_marks.h"
#include "timeline_ruler.h"
#include "timeline_state.h"
#include "timeline_view.h"
#include "track_tree_widget.h"
#include "tracks_area.h"
#include "workspace/navigation.h"

#include <QInputDialog>
#include <QMenu>

#include <algorithm>

namespace strata {

namespace {

QString markTitle(const TimelineState& s, const TimelineNote& n) {
    const TimeNs origin = s.trace ? s.trace->bounds().start : 0;
    QString text = QString::fromStdString(n.text);
    if (text.size() > 60) text = text.left(59) + QChar(0x2026);
    const QString at = QString::fromStdString(formatPreciseDuration(n.start - origin));
    if (!n.flag) return QObject::tr("Note at %1: %2").arg(at, text);
    return QObject::tr("Flag at %1 (%2): %3")
        .arg(at, QString::fromStdString(formatPreciseDuration(n.end - n.start)), text);
}

} // namespace

void TimelineView::connectNotes() {
    connect(tree_, &TrackTreeWidget::trackDragged, this, &TimelineView::moveTrackTo);
    connect(ruler_, &TimelineRuler::noteClicked, this, &TimelineView::selectNote);
    connect(ruler_, &TimelineRuler::noteDoubleClicked, this, [this](int i) {
        selectNote(i);
        editNoteText(i);
    });
    connect(ruler_, &TimelineRuler::noteRequested, this,
            [this](TimeNs t) { editNoteText(addNote(t, {}), true); });
    connect(ruler_, &TimelineRuler::contextMenuRequested, this, [this](QPoint pos, QPoint global) {
        QMenu* menu = rulerMenuAt(pos);
        if (!menu->isEmpty()) menu->exec(global);
        menu->deleteLater();
    });
}

const std::vector<TimelineNote>& TimelineView::notes() const {
    return s_->notes;
}

void TimelineView::setNotes(std::vector<TimelineNote> notes) {
    s_->notes = std::move(notes);
    s_->selectedNote = -1;
    repaintAll();
}

int TimelineView::addNote(TimeNs t, const QString& text) {
    s_->notes.push_back({t, t, text.toStdString(), false});
    s_->selectedNote = int(s_->notes.size()) - 1;
    repaintAll();
    emit notesChanged();
    return s_->selectedNote;
}

int TimelineView::addFlag(TimeRange r, const QString& text) {
    if (r.end <= r.start) return -1;
    s_->notes.push_back({r.start, r.end, text.toStdString(), true});
    s_->selectedNote = int(s_->notes.size()) - 1;
    repaintAll();
    emit notesChanged();
    return s_->selectedNote;
}

void TimelineView::setNoteText(int index, const QString& text) {
    if (index < 0 || index >= int(s_->notes.size())) return;
    const std::string t = text.toStdString();
    if (s_->notes[size_t(index)].text == t) return;
    s_->notes[size_t(index)].text = t;
    repaintAll();
    emit notesChanged();
}

void TimelineView::removeNote(int index) {
    if (index < 0 || index >= int(s_->notes.size())) return;
    s_->notes.erase(s_->notes.begin() + index);
    if (s_->selectedNote == index)
        s_->selectedNote = -1;
    else if (s_->selectedNote > index)
        --s_->selectedNote;
    repaintAll();
    emit notesChanged();
}

void TimelineView::selectNote(int index) {
    s_->selectedNote = index >= 0 && index < int(s_->notes.size()) ? index : -1;
    repaintAll();
}

int TimelineView::selectedNote() const {
    return s_->selectedNote;
}

void TimelineView::zoomToNote(int index) {
    if (index < 0 || index >= int(s_->notes.size())) return;
    const TimelineNote& n = s_->notes[size_t(index)];
    selectNote(index);
    if (n.flag) {
        const TimeNs m = std::max<TimeNs>(1, (n.end - n.start) / 10);
        setVisibleRange({n.start - m, n.end + m});
    } else {
        const TimeNs half = visibleRange().duration() / 2;
        setVisibleRange({n.start - half, n.start + half});
    }
}

void TimelineView::editNoteText(int index, bool justAdded) {
    if (index < 0 || index >= int(s_->notes.size())) return;
    const TimelineNote& n = s_->notes[size_t(index)];
    auto* d = new QInputDialog(this);
    d->setObjectName(QStringLiteral("noteTextDialog"));
    d->setAttribute(Qt::WA_DeleteOnClose);
    d->setWindowTitle(n.flag ? tr("Flag") : tr("Note"));
    d->setLabelText(markTitle(*s_, {n.start, n.end, {}, n.flag}).chopped(2));
    d->setTextValue(QString::fromStdString(n.text));
    // Indices hold while it is open: it is modal to the window.
    connect(d, &QInputDialog::textValueSelected, this,
            [this, index](const QString& text) { setNoteText(index, text); });
    if (justAdded) connect(d, &QDialog::rejected, this, [this, index] { removeNote(index); });
    d->open();
}

void TimelineView::markAtCursor() {
    if (!s_->trace) return;
    const TimeRange v = visibleRange();
    const TimeNs t = s_->hoverX ? s_->axis.timeForX(*s_->hoverX) : v.start + v.duration() / 2;
    editNoteText(addNote(t, {}), true);
}

void TimelineView::flagSelection() {
    const Trace* t = s_->trace.get();
    if (!t) return;
    std::optional<TimeRange> r = selectedRange();
    if (const SliceRef sel = s_->selected(); !r && sel.valid())
        r = TimeRange{t->start(sel), t->start(sel) + t->duration(sel)};
    if (r) editNoteText(addFlag(*r, {}), true);
}

void TimelineView::addNotesMenu(QMenu* menu) {
    QMenu* list = menu->addMenu(tr("Notes"));
    list->setObjectName(QStringLiteral("notesMenu"));
    list->setEnabled(!s_->notes.empty());
    std::vector<size_t> order(s_->notes.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return s_->notes[a].start < s_->notes[b].start; });
    for (size_t i : order)
        list->addAction(markTitle(*s_, s_->notes[i]), this, [this, i] { zoomToNote(int(i)); });
}

QMenu* TimelineView::rulerMenuAt(QPoint pos) {
    auto* menu = new QMenu(this);
    if (!s_->trace) return menu;
    const TimeNs t = s_->axis.timeForX(pos.x());
    menu->addAction(tr("Add Note Here"), this, [this, t] { editNoteText(addNote(t, {}), true); });
    if (const std::optional<TimeRange> r = selectedRange())
        menu->addAction(tr("Add Flag for the Selected Range"), this,
                        [this, r] { editNoteText(addFlag(*r, {}), true); });
    if (const int i = noteAtX(*s_, pos.x(), true); i >= 0) {
        const bool flag = s_->notes[size_t(i)].flag;
        menu->addSeparator();
        menu->addAction(flag ? tr("Edit Flag Text\u2026") : tr("Edit Note Text\u2026"), this,
                        [this, i] { editNoteText(i); });
        menu->addAction(flag ? tr("Zoom to Flag") : tr("Go to Note"), this,
                        [this, i] { zoomToNote(i); });
        menu->addAction(flag ? tr("Delete Flag") : tr("Delete Note"), this,
                        [this, i] { removeNote(i); });
    }
    menu->addSeparator();
    addNotesMenu(menu);
    return menu;
}

} // namespace strata
