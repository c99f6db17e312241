#pragma once
// The tracks area: paints through paintTracks() and turns mouse input into navigation
// (wheel zoom at the cursor, drag pan), selection (click) and hover tooltips.
#include <QPoint>
#include <QWidget>

#include "model/time.h"

namespace strata {

struct TimelineState;
class TimelineView;

class TracksArea : public QWidget {
    Q_OBJECT
public:
    TracksArea(TimelineView* view, TimelineState& state);
    static constexpr int kDragThreshold = 4;

protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void leaveEvent(QEvent*) override;

private:
    void hover(QPoint pos, QPoint globalPos);
    TimelineView* view_;
    TimelineState& s_;
    bool pressed_ = false;
    bool dragging_ = false;
    QPoint pressPos_;
    TimeRange pressRange_;
    int pressScroll_ = 0;
};

} // namespace strata
