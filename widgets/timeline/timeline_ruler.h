#pragma once
// The time ruler above the tracks: 1-2-5 ticks in adaptive units relative to the trace start;
// dragging on it chooses a time range (previewed while dragging, chosen on release), a click
// clears it.
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

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;

private:
    std::optional<TimeRange> dragRange(int x) const;
    const TimelineState& s_;
    std::optional<TimeNs> dragStart_;
    int pressX_ = 0;
    bool dragging_ = false;
};

} // namespace strata
