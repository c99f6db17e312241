#pragma once
// The track names on the left of the timeline, aligned with the tracks area; clicking a group
// header (process, GPU device) asks to collapse or expand it, clicking a thread's "+N levels"
// handle asks to show its levels past the cap (and "show fewer" to cap it again); dragging a
// track's name up or down asks to move it there (among its siblings: TrackLayout::moveRow).
#include "group_label_fit.h"

#include "model/track.h"

#include <optional>

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
    void trackDragged(strata::TrackId track, int contentY); // dropped at content y

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    bool event(QEvent* e) override; // tooltips with the full name
    void wheelEvent(QWheelEvent* e) override;

private:
    const TimelineState& s_;
    int dragRow_ = -1; // a track's name pressed
    int pressY_ = 0;
    std::optional<int> dropY_; // widget y while it is dragged
};

} // namespace strata
