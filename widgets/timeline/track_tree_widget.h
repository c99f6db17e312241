#pragma once
// The track names on the left of the timeline, aligned with the tracks area; clicking a group
// header (process, GPU device) collapses or expands it.
#include <QWidget>

namespace strata {

struct TimelineState;
class TimelineView;

class TrackTreeWidget : public QWidget {
    Q_OBJECT
public:
    TrackTreeWidget(TimelineView* view, TimelineState& state);
    static constexpr int kWidth = 230;
    int labelsInView() const; // the labels paintEvent draws

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent* e) override;
    bool event(QEvent* e) override; // tooltips with the full name

private:
    TimelineView* view_;
    TimelineState& s_;
};

} // namespace strata
