#pragma once
// The notes sidecar of the trace a window shows (io/notes/notes_file.h): read when a trace is
// opened — its notes, flags and track arrangement put on the timeline; without a sidecar, the
// notes a Strata export carried (io/notes/notes_in_trace.h) — and written whole (a temporary
// file renamed) each time the user changes something, never before. A bad or foreign sidecar is
// said in the status bar (file and reason), ignored and never overwritten; a folder that cannot
// be written is said too, the notes kept in memory. A set of traces (ranks, a comparison) keeps
// its notes in memory only. Off until setEnabled(true): a window that keeps no settings (tests,
// screenshots) leaves the files beside traces alone.
#include "model/timeline_notes.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>

namespace strata {

class TimelineView;
class Workspace;
class Trace;

class NotesSidecar : public QObject {
    Q_OBJECT
public:
    using Say = std::function<void(const QString& message, int ms)>;
    NotesSidecar(TimelineView* timeline, Workspace* workspace, Say say, QObject* parent);
    void setEnabled(bool on) { enabled_ = on; }
    bool enabled() const { return enabled_; }
    // A sidecar's notes and arrangement put on the timeline now from `path` (a screenshot's
    // --notes), not written back; false and *error when it cannot be read.
    bool load(const QString& path, QString* error);
    QString sidecarPath() const { return sidecar_; } // of the trace shown; empty: none kept
    const TimelineNotes& notes() const { return notes_; }
    QString lastMessage() const { return message_; } // the last warning or failure said

private:
    void onCurrentChanged(const std::shared_ptr<const Trace>& trace);
    void onEdited();
    void apply();
    void say(const QString& message);
    TimelineView* timeline_;
    Workspace* workspace_;
    Say say_;
    bool enabled_ = false;
    QString tracePath_, sidecar_;
    TimelineNotes notes_;
    bool leaveAlone_ = false; // the sidecar there could not be read: not overwritten
    QString message_;
};

} // namespace strata
