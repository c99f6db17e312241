#pragma once
// The timeline: a track tree (left), a time ruler (top) and the tracks area, with level-of-detail
// drawing, GPU launch gaps, correlation arrows, selection, navigation, and the user's notes and
// flags. Keyboard: W/S zoom, A/D pan, F zoom to selection, Home whole trace, M a note at the
// mouse, Shift+M a flag over the selection, Delete the selected note. Mouse: wheel (or
// Ctrl+wheel) zooms at the cursor, Shift+wheel scrolls tracks, drag pans, click selects, drag on
// the ruler selects a range, Ctrl+click on it adds a note, dragging a track's name moves it.
//
// It shows the workspace's current trace and follows the navigation (visible range, selected
// range and slice); its own gestures are requests to the navigation. Made without a workspace it
// keeps its own (setTrace() then sets that workspace's trace).
#include "analysis/gaps/gpu_gaps.h"
#include "analysis/memory_usage.h"
#include "model/timeline_notes.h"
#include "model/trace.h"
#include "ruler_labels.h"
#include "timeline/paint/timeline_painter.h"
#include "workspace/meta_types.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QScrollBar;

class QMenu;

namespace strata {

struct TimelineState;
class TraceAnalysis;
class Navigation;
class TrackLayout;
class TimelineRuler;
class TrackTreeWidget;
class TracksArea;
class JobRunner;
class Workspace;
struct TraceSliceRef;
struct CriticalPath;

class TimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr); // with a workspace of its own
    TimelineView(Workspace* workspace, Navigation* navigation, QWidget* parent = nullptr);
    ~TimelineView() override;

    Workspace* workspace() const { return workspace_; }
    Navigation* navigation() const { return nav_; }
    void setTrace(std::shared_ptr<const Trace> trace); // the workspace's current trace
    std::shared_ptr<const Trace> trace() const;
    TimeRange visibleRange() const;
    void setVisibleRange(TimeRange r);
    void zoomToAll(); // Home
    // F: the selected slice (10 % margin each side), else the selected range.
    void zoomToSelection();
    SliceRef selectedSlice() const;
    void selectSlice(SliceRef r, bool ensureVisible = true); // also scrolls to its track
    std::optional<TimeRange> selectedRange() const;
    void setSelectedRange(std::optional<TimeRange> r);
    // The workspace's gap threshold (Analyses::setGapThreshold: every view follows it).
    void setGapThresholdNs(TimeNs t);
    TimeNs gapThresholdNs() const;
    // The gaps are indexed off the GUI thread when the trace or the settings change, then the
    // utilisation and queues; this waits until all are shown (screenshots, tests).
    void waitForGaps();
    // Waits for what the picture shows: the gaps and memory rows, the utilisation and queue rows
    // when they are on, and the level-of-detail summaries of the tracks in view and of those
    // asked for (the window's "drawn" moment; not the idle row's tooltip).
    void waitForPicture();
    // True once what waitForPicture() waits for is there, without waiting (the summaries: those
    // asked for by the frames drawn so far).
    bool pictureComplete() const;
    // The analysis whose gaps are drawn (null before the first arrives).
    std::shared_ptr<const TraceAnalysis> gapAnalysis() const;
    void setShowAllFlows(bool on);
    // The wheel scrolls the tracks (Ctrl+wheel zooms, Shift+wheel pans), as in Perfetto; off:
    // the wheel zooms at the cursor (Shift+wheel scrolls).
    void setWheelScrolls(bool on);
    bool wheelScrolls() const;
    bool showAllFlows() const;
    void setHighlightedSlices(std::vector<SliceRef> refs); // e.g. find results
    // A critical path shown (timeline/paint/critical_path_overlay.h: its events drawn, the rest
    // dimmed, its edges as arrows), of the current trace; null: none. Cleared with the trace.
    void setCriticalPath(std::shared_ptr<const CriticalPath> path);
    bool criticalPathShown() const;
    bool onCriticalPath(SliceRef r) const; // an event of the path shown
    // Instants Find matched (outlined), and the one it is on: shown in time and scrolled to.
    void setHighlightedInstants(std::vector<InstantRef> refs);
    void revealInstant(InstantRef r);
    InstantRef instantAtPixel(QPoint posInTracksArea) const;
    QRect instantRect(InstantRef r) const; // tracks-area coordinates, null when not shown
    // The hover text of the stack sample drawn at `pos` (tracks-area coordinates): its time and
    // stack, innermost first; empty where no sample is drawn.
    QString sampleTextAt(QPoint posInTracksArea) const;
    // The memory the memory rows show (null until the analysis arrives, or without any).
    const MemoryUsage* memoryUsage() const;

    // For tests and the render benchmark:
    SliceRef sliceAtPixel(QPoint posInTracksArea) const; // hit testing
    // What is drawn there: a merged block and how many slices it stands for, a folded level.
    TimelinePainter::Hit hitAtPixel(QPoint posInTracksArea) const;
    QRect sliceRect(SliceRef r) const;  // where a slice is drawn (tracks-area coordinates)
    QWidget* tracksArea() const;        // the widget that receives mouse events
    RulerTicks rulerTicks() const;      // the ruler's ticks and labels as drawn now
    int visibleTrackLabelCount() const; // number of track labels drawn

    // factor < 1 zooms in, keeping the time at tracks-area x fixed.
    void zoomBy(double factor, double x);
    void panBy(TimeNs dt);
    // One step of the keys (W/S, A/D; the window's shortcuts too): zoom by kKeyZoomFactor at the
    // mouse when it moved over the tracks area, else at the centre; pan by a kKeyPanDivisor-th of
    // the visible duration.
    void zoomStep(bool in);
    void panStep(bool right);
    int verticalScroll() const;
    void setVerticalScroll(int y);
    void setGroupCollapsed(int group, bool collapsed); // group index in track-tree order
    // Every group whose label starts with `prefix` (a rank's: "rank 3: ") folded into one
    // summary row (TrackLayout::setRankFolded), or expanded again.
    void setGroupsCollapsed(const QString& prefix, bool collapsed);
    // The row of track t hidden, or pinned to the top of the tracks; every hidden row shown.
    void setTrackHidden(TrackId t, bool hidden);
    void setTrackPinned(TrackId t, bool pinned);
    void showAllTracks();
    // A track's row one place up (delta < 0) or down among its siblings (TrackLayout::moveRow).
    void moveTrack(TrackId t, int delta);
    // The same, step by step, until its row reaches content y (a drag of its name in the track
    // tree), or it meets the end of its group (or of the pinned rows).
    void moveTrackTo(TrackId t, int contentY);
    void setGroupHidden(int group, bool hidden); // the whole group, header too
    // What the user arranged (pins, hides, order) by stable keys (layout/track_arrangement.h),
    // and applying one to the rows of the trace shown (no arrangementChanged).
    TrackArrangement trackArrangement() const;
    void applyTrackArrangement(const TrackArrangement& a);
    int groupCount() const;

    // The user's notes (a point) and flags (a range) with text, drawn over the tracks and on the
    // ruler (timeline/paint/note_marks.h), by index in notes(). Setting them (a trace opened
    // with its notes) says nothing; the user's edits emit notesChanged.
    const std::vector<TimelineNote>& notes() const;
    void setNotes(std::vector<TimelineNote> notes);
    int addNote(TimeNs t, const QString& text);    // its index
    int addFlag(TimeRange r, const QString& text); // its index; -1 for an empty range
    void setNoteText(int index, const QString& text);
    void removeNote(int index);
    void zoomToNote(int index); // a flag filled, a note centred (the zoom kept)
    void selectNote(int index); // drawn stronger; Delete removes it (-1: none)
    int selectedNote() const;
    // Asks for the text in a dialog of its own (not blocking; objectName "noteTextDialog");
    // Cancel on a note just added takes it back.
    void editNoteText(int index, bool justAdded = false);
    // M: a note at the mouse (else the middle of the view); Shift+M: a flag over the selected
    // range (else the selected slice); each then asks for its text.
    void markAtCursor();
    void flagSelection();
    // The ruler's right-click menu at x (ruler coordinates): add a note there, a flag for the
    // selection, the mark there (edit, delete, zoom), the list of notes. The caller owns it.
    QMenu* rulerMenuAt(QPoint pos);
    // The "Notes" menu: each note and flag, jumping to it when chosen.
    void addNotesMenu(QMenu* menu);
    // The GPU devices and their streams above the CPU processes (on by default) or below them.
    void setGpuSectionFirst(bool on);
    // A GPU utilisation row per device (busy share per pixel column), off by default.
    void setShowUtilisation(bool on);
    bool showUtilisation() const;
    // A launch queue row under each GPU stream (HTA's queue length), off by default.
    void setShowQueues(bool on);
    bool showQueues() const;
    bool gpuSectionFirst() const;
    // A CPU thread's levels past TrackLayout::kDepthCap shown (the thread of track t), or all
    // threads'.
    void setThreadExpanded(TrackId t, bool expanded);
    void setAllThreadsExpanded(bool expanded);
    // A row of layout() expanded: a CPU thread's levels, a device's in-kernel section SM lanes.
    void setRowExpanded(int row, bool expanded);
    const TrackLayout& layout() const;
    // The slices of `track` that overlap a gap (what a click on a gap highlights).
    static std::vector<SliceRef> cpuSlicesDuring(const Trace& t, TrackId track, const GpuGap& g);
    // Where a track's row is (tracks-area coordinates, scroll applied); null when not shown.
    QRect trackRect(TrackId t) const;
    // The right-click menu at `pos` (tracks-area coordinates): on a slice (zoom to it, copy its
    // name, find all with its name, select its time range), on a gap (zoom to it, copy its
    // figures), and the row's group (collapse/expand). The caller owns the menu.
    QMenu* contextMenuAt(QPoint pos);
    // Where a GPU device's idle row is (tracks-area coordinates, scroll applied), null if hidden.
    QRect deviceIdleRect(int32_t device) const;
    // Builds every track's summary now (else a worker builds them, those in view first, and a
    // track small enough is summarised by the frame that first draws it).
    void buildLevelOfDetail();
    size_t viewMemoryBytes() const;
    // Paints the tracks area alone into `p` (what paintEvent does), for the render benchmark.
    void paintTracksArea(QPainter& p);

    static constexpr double kKeyZoomFactor = 0.8; // W: duration x 0.8, S: duration / 0.8
    static constexpr int kKeyPanDivisor = 5;      // A/D: pan by a fifth of the visible duration

signals:
    void sliceSelected(strata::SliceRef r); // invalid SliceRef = cleared
    // A sample's tick clicked: sample `index` of the trace's sampled thread `thread`.
    void sampleSelected(int thread, quint64 index);
    void rangeSelected(std::optional<strata::TimeRange> r);
    void visibleRangeChanged(strata::TimeRange r);
    // "Find All With This Name" from a slice's menu (the window's find bar answers it).
    void findRequested(const QString& text);
    // The trace time under the mouse over the tracks (none when it leaves them): the status bar's.
    void cursorTimeChanged(std::optional<strata::TimeNs> t);
    // "Hide Critical Path" from the menu: the path is no longer shown (who set it follows).
    void criticalPathHidden();
    // The user added, edited or removed a note or flag; pinned, hid, showed or moved tracks.
    void notesChanged();
    void arrangementChanged();

protected:
    void keyPressEvent(QKeyEvent* e) override;

private:
    void connectParts();
    void connectNotes();
    void addTrackItems(QMenu* menu, int row); // the row's track and group items (context menu)
    void showTrace(const std::shared_ptr<const Trace>& trace);
    void indexGaps();
    void indexRows(const std::shared_ptr<const TraceAnalysis>& a);
    void onVisibleRange(TimeRange r);
    void onSelectedSlice(const TraceSliceRef& r);
    void reveal(SliceRef r);
    void refold();   // the threads' folded levels at the visible range
    void lodBuilt(); // a summary asked for is there: refolded, drawn
    std::vector<TrackId> lanesInView() const;
    void rebuildRows(); // after a layout option changed: rebuilt, refolded, drawn
    void showMemoryRows();
    void updateScrollBar();
    void ensureTrackVisible(TrackId t);
    void ensureYVisible(int contentY, int height); // scrolled into view, a margin around it
    void repaintAll();

    Workspace* workspace_;
    Navigation* nav_;
    std::unique_ptr<TimelineState> s_;
    std::unique_ptr<TimelinePainter> painter_;
    TimelineRuler* ruler_ = nullptr;
    TrackTreeWidget* tree_ = nullptr;
    TracksArea* area_ = nullptr;
    QScrollBar* vbar_ = nullptr;
    JobRunner* gapJobs_;
    JobRunner* rowJobs_;
};

} // namespace strata
