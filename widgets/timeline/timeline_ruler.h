#pragma once
// The time ruler above the tracks: 1-2-5 ticks in adaptive units relative to the trace start;
// dragging on it selects a time range (drawn shaded with its duration).
#include <QWidget>

#include <optional>

#include "model/time.h"

namespace strata {

struct TimelineState;
class TimelineView;

class TimelineRuler : public QWidget {
    Q_OBJECT
public:
    TimelineRuler(TimelineView* view, TimelineState& state);
    QSize sizeHint() const override { return {200, 26}; }
    static constexpr double kMinTickPixels = 90.0;

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;

private:
    TimelineView* view_;
    TimelineState& s_;
    std::optional<TimeNs> dragStart_;
    int pressX_ = 0;
    bool dragging_ = false;
};

} // namespace strata
