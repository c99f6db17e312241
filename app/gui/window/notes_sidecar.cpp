#include "window/notes_sidecar.h"

#include "io/notes/notes_file.h"
#include "io/notes/notes_in_trace.h"
#include "timeline/timeline_view.h"
#include "workspace/workspace.h"

#include <QFileInfo>

namespace strata {

NotesSidecar::NotesSidecar(TimelineView* timeline, Workspace* workspace, Say say, QObject* parent)
    : QObject(parent), timeline_(timeline), workspace_(workspace), say_(std::move(say)) {
    setObjectName(QStringLiteral("notesSidecar"));
    // After the timeline's own slot (connected when it was made): its rows are built.
    connect(workspace_, &Workspace::currentChanged, this, &NotesSidecar::onCurrentChanged);
    connect(timeline_, &TimelineView::notesChanged, this, &NotesSidecar::onEdited);
    connect(timeline_, &TimelineView::arrangementChanged, this, &NotesSidecar::onEdited);
}

void NotesSidecar::say(const QString& message) {
    message_ = message;
    if (say_) say_(message, 15000);
}

void NotesSidecar::apply() {
    timeline_->setNotes(notes_.notes);
    timeline_->applyTrackArrangement(notes_.tracks);
}

void NotesSidecar::onCurrentChanged(const std::shared_ptr<const Trace>& trace) {
    const OpenTrace* open = workspace_->currentTrace();
    const QString path =
        trace && open && workspace_->shown() == Shown::Trace && QFileInfo(open->path).isFile()
            ? QFileInfo(open->path).absoluteFilePath()
            : QString();
    if (trace && !path.isEmpty() && path == tracePath_) { // the same file again (amended)
        apply();
        return;
    }
    tracePath_ = path;
    sidecar_ =
        path.isEmpty() ? QString() : QString::fromStdString(notesFilePath(path.toStdString()));
    notes_ = {};
    leaveAlone_ = false;
    if (!trace) return;
    const NotesFileRead read =
        enabled_ && !sidecar_.isEmpty() ? readNotesFile(sidecar_.toStdString()) : NotesFileRead{};
    if (!read.error.empty()) {
        leaveAlone_ = true;
        say(tr("Notes file ignored: %1").arg(QString::fromStdString(read.error)));
    }
    if (read.notes)
        notes_ = *read.notes;
    else
        notes_.notes = notesInTrace(*trace); // a Strata export's notes, read back
    apply();
}

void NotesSidecar::onEdited() {
    notes_.notes = timeline_->notes();
    notes_.tracks = timeline_->trackArrangement();
    if (!enabled_ || sidecar_.isEmpty()) return; // kept in memory
    if (leaveAlone_) {
        say(tr("Notes kept in memory: %1 is not a notes file Strata can read, so it is left as "
               "it is")
                .arg(sidecar_));
        return;
    }
    std::string error;
    if (!writeNotesFile(sidecar_.toStdString(), notes_, &error,
                        QFileInfo(tracePath_).fileName().toStdString()))
        say(tr("Notes kept in memory, not saved: %1").arg(QString::fromStdString(error)));
}

bool NotesSidecar::load(const QString& path, QString* error) {
    const NotesFileRead read = readNotesFile(path.toStdString());
    if (!read.notes) {
        if (error)
            *error =
                read.exists ? QString::fromStdString(read.error) : tr("%1: no such file").arg(path);
        return false;
    }
    notes_ = *read.notes;
    apply();
    return true;
}

} // namespace strata
