#pragma once
// The track names on the left of the timeline, aligned with the tracks area; clicking a group
// header (process, GPU device) asks to collapse or expand it, clicking a thread's "+N levels"
// handle asks to show its levels past the cap (and "show fewer" to cap it again).
#include "group_label_fit.h"

#include <QWidget>

namespace strata {

struct TimelineState;

class TrackTreeWidget : public QWidget {
    Q_OBJECT
public:
    TrackTreeWidget(const TimelineState& state, QWidget* parent);
    static constexpr int kWidth = 230;
    int labelsInView() const; // the labels paintEvent draws
    // A group header's label as drawn: whole, a device's name in a lighter font if it must
    // (group_label_fit.h).
    FittedGroupLabel fittedGroupLabel(int group) const;
    // Where a row's levels handle is drawn (widget coordinates); null when it has none.
    QRect levelsHandleRect(int row) const;

signals:
    void groupToggled(int group);
    void rowExpandToggled(int row);
    void scrollRequested(int scrollY); // the wheel over the labels scrolls the tracks

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent* e) override;
    bool event(QEvent* e) override; // tooltips with the full name
    void wheelEvent(QWheelEvent* e) override;

private:
    const TimelineState& s_;
};

} // namespace strata
