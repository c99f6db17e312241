#pragma once
// The time ruler above the tracks: 1-2-5 ticks in adaptive units relative to the trace start;
// dragging on it chooses a time range (previewed while dragging, chosen on release), a click
// clears it. The user's notes and flags are marked along its top (timeline/paint/note_marks.h):
// a click on a mark selects it, a double-click edits it, hovering shows its text; Ctrl+click adds
// a note there.
#include <QWidget>

#include <optional>

#include "model/time.h"
#include "ruler_labels.h"

namespace strata {

struct TimelineState;

class TimelineRuler : public QWidget {
    Q_OBJECT
public:
    TimelineRuler(const TimelineState& state, QWidget* parent);
    QSize sizeHint() const override { return {200, 26}; }
    // The ticks and labels drawn now (ruler_labels.h).
    RulerTicks ticks() const;

signals:
    void rangeDragging(strata::TimeRange r);
    void rangeChosen(std::optional<strata::TimeRange> r); // nullopt: a click, clear it
    void noteClicked(int index);                          // a note's or flag's mark
    void noteDoubleClicked(int index);
    void noteRequested(strata::TimeNs t); // Ctrl+click
    void contextMenuRequested(QPoint pos, QPoint globalPos);

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;
    void contextMenuEvent(QContextMenuEvent* e) override;
    bool event(QEvent* e) override; // a mark's text as its tooltip

private:
    std::optional<TimeRange> dragRange(int x) const;
    int markAt(QPoint pos) const; // the note or flag marked there, -1 none
    const TimelineState& s_;
    std::optional<TimeNs> dragStart_;
    int pressX_ = 0;
    bool dragging_ = false;
};

} // namespace strata
