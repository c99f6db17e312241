#pragma once
// The tracks area: paints through the TimelinePainter and turns mouse input into requests the
// view carries out (wheel zoom at the cursor, drag pan, click select) and into hover feedback
// (the hovered gap and slice, tooltips).
#include <QPoint>
#include <QWidget>

#include <optional>

#include "model/time.h"
#include "model/track.h"
#include "timeline/lod/gap_index.h"
#include "timeline/paint/timeline_painter.h"

namespace strata {

struct TimelineState;

class TracksArea : public QWidget {
    Q_OBJECT
public:
    TracksArea(const TimelineState& state, TimelinePainter& painter, QWidget* parent);
    static constexpr int kDragThreshold = 4;

signals:
    void resized(int width);
    void dragged(strata::TimeRange visible, int scrollY); // pan by dragging
    void zoomRequested(double factor, double x);          // keep the time at x fixed
    void panRequested(strata::TimeNs dt);
    void scrollRequested(int scrollY);
    void clicked(QPoint pos);
    void doubleClicked(QPoint pos);
    // The mouse moved (x) or left (nullopt); what lies under it.
    void hoverChanged(std::optional<double> x, std::optional<strata::GapSpan> gap,
                      strata::SliceRef slice);
    void contextMenuRequested(QPoint pos, QPoint globalPos);

public:
    // The long GPU idle gap under `pos` (GPU-idle row, or a stream's band or free first row).
    std::optional<GapSpan> gapAt(QPoint pos) const;

protected:
    void paintEvent(QPaintEvent*) override;
    void contextMenuEvent(QContextMenuEvent* e) override;
    void resizeEvent(QResizeEvent*) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void leaveEvent(QEvent*) override;

private:
    void hover(QPoint pos, QPoint globalPos);
    const TrackRow* rowUnder(QPoint pos) const;
    QString rowTooltip(const TrackRow& r, TimeNs t, bool inGap) const;
    QString sliceTooltip(const TimelinePainter::Hit& hit) const;
    const TimelineState& s_;
    TimelinePainter& painter_;
    bool pressed_ = false;
    bool dragging_ = false;
    QPoint pressPos_;
    TimeRange pressRange_;
    int pressScroll_ = 0;
};

} // namespace strata
