#include "timeline_view.h"

#include "timeline_painter.h"
#include "timeline_ruler.h"
#include "timeline_state.h"
#include "track_tree_widget.h"
#include "tracks_area.h"

#include <QGridLayout>
#include <QKeyEvent>
#include <QScrollBar>
#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>
#include <numeric>

namespace strata {

void registerTimelineMetaTypes() {
    qRegisterMetaType<strata::SliceRef>("strata::SliceRef");
    qRegisterMetaType<strata::TimeRange>("strata::TimeRange");
    qRegisterMetaType<std::optional<strata::TimeRange>>("std::optional<strata::TimeRange>");
}

TimelineView::TimelineView(QWidget* parent)
    : QWidget(parent), s_(std::make_unique<TimelineState>()) {
    registerTimelineMetaTypes();
    setFocusPolicy(Qt::StrongFocus);
    ruler_ = new TimelineRuler(this, *s_);
    tree_ = new TrackTreeWidget(this, *s_);
    area_ = new TracksArea(this, *s_);
    vbar_ = new QScrollBar(Qt::Vertical, this);
    auto* corner = new QWidget(this);
    corner->setFixedSize(TrackTreeWidget::kWidth, ruler_->height());
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setSpacing(0);
    grid->addWidget(corner, 0, 0);
    grid->addWidget(ruler_, 0, 1);
    grid->addWidget(tree_, 1, 0);
    grid->addWidget(area_, 1, 1);
    grid->addWidget(vbar_, 1, 2);
    grid->setColumnStretch(1, 1);
    grid->setRowStretch(1, 1);
    connect(vbar_, &QScrollBar::valueChanged, this, [this](int v) { setVerticalScroll(v); });
}

TimelineView::~TimelineView() = default;

void TimelineView::setTrace(std::shared_ptr<const Trace> trace) {
    s_->reset(std::move(trace));
    s_->prebuildLods();
    s_->axis.setWidth(area_->width());
    updateScrollBar();
    repaintAll();
    emit visibleRangeChanged(s_->axis.visible());
}

std::shared_ptr<const Trace> TimelineView::trace() const {
    return s_->trace;
}
TimeRange TimelineView::visibleRange() const {
    return s_->axis.visible();
}
void TimelineView::setVisibleRange(TimeRange r) {
    axisChanged(s_->axis.setVisible(r));
}
void TimelineView::zoomToAll() {
    axisChanged(s_->axis.setVisible(s_->axis.bounds()));
}
void TimelineView::zoomBy(double factor, double x) {
    axisChanged(s_->axis.zoomAt(factor, x));
}
void TimelineView::panBy(TimeNs dt) {
    axisChanged(s_->axis.panBy(dt));
}

void TimelineView::zoomToSelection() {
    if (s_->trace && s_->selected.valid()) {
        const TimeNs st = s_->trace->start(s_->selected), d = s_->trace->duration(s_->selected);
        setVisibleRange({st - d / 10, st + d + d / 10});
    } else if (s_->range) {
        setVisibleRange(*s_->range);
    }
}

SliceRef TimelineView::selectedSlice() const {
    return s_->selected;
}

void TimelineView::selectSlice(SliceRef r, bool ensureVisible) {
    const Trace* t = s_->trace.get();
    if (!t || !r.valid() || r.track >= t->tracks().size() ||
        r.index >= t->track(r.track).slices.size())
        r = {};
    const bool changed = !(r == s_->selected);
    s_->selected = r;
    s_->correlated = r.valid() ? correlatedWith(*t, r) : Correlated{};
    if (ensureVisible && r.valid()) {
        ensureTrackVisible(r.track);
        const TimeRange v = s_->axis.visible();
        const TimeNs st = t->start(r), en = st + t->duration(r);
        if (st < v.start || en > v.end) {
            if (en - st < v.duration()) {
                const TimeNs c = st + (en - st) / 2 - v.duration() / 2;
                setVisibleRange({c, c + v.duration()});
            } else {
                zoomToSelection();
            }
        }
    }
    repaintAll();
    if (changed) emit sliceSelected(r);
}

std::optional<TimeRange> TimelineView::selectedRange() const {
    return s_->range;
}

void TimelineView::setSelectedRange(std::optional<TimeRange> r) {
    if (r && r->empty()) r.reset();
    const bool changed = r.has_value() != s_->range.has_value() || (r && !(*r == *s_->range));
    s_->range = r;
    repaintAll();
    if (changed) emit rangeSelected(r);
}

void TimelineView::setGapThresholdNs(TimeNs t) {
    s_->gapThreshold = std::max<TimeNs>(0, t);
    if (s_->trace) s_->gaps.compute(*s_->trace, s_->gapThreshold);
    repaintAll();
}

TimeNs TimelineView::gapThresholdNs() const {
    return s_->gapThreshold;
}

void TimelineView::setShowAllFlows(bool on) {
    s_->showAllFlows = on;
    repaintAll();
}

bool TimelineView::showAllFlows() const {
    return s_->showAllFlows;
}

void TimelineView::setHighlightedSlices(std::vector<SliceRef> refs) {
    std::sort(refs.begin(), refs.end());
    s_->highlights = std::move(refs);
    repaintAll();
}

SliceRef TimelineView::sliceAtPixel(QPoint pos) const {
    if (!s_->trace) return {};
    const int y = pos.y() + s_->scrollY;
    TrackId id;
    uint16_t depth;
    if (!s_->layout.laneDepthAt(s_->layout.rowAt(y), y, &id, &depth)) return {};
    const double npp = s_->axis.nsPerPixel();
    const TimeNs t = s_->axis.timeForX(pos.x());
    const TimeNs pad = static_cast<TimeNs>(std::ceil(2 * npp)) + 1;
    std::vector<LodSpan> spans;
    s_->lod(id).query(s_->trace->track(id), depth, t - pad, t + pad, s_->queryLevel(), spans);
    // The span drawn under x; failing that, one within a pixel (sub-pixel activity is hard to hit).
    SliceRef best;
    int bestDist = 2;
    for (const LodSpan& sp : spans) {
        const QRect rc = s_->spanRect(sp.start, sp.end, 0, 1);
        const int dist =
            pos.x() < rc.x() ? rc.x() - pos.x() : std::max(0, pos.x() - (rc.x() + rc.width() - 1));
        if (dist < bestDist) {
            bestDist = dist;
            best = {id, sp.slice};
        }
    }
    return best;
}

QRect TimelineView::sliceRect(SliceRef r) const {
    return s_->sliceRect(r);
}
QWidget* TimelineView::tracksArea() const {
    return area_;
}
int TimelineView::visibleTrackLabelCount() const {
    return tree_->labelsInView();
}
int TimelineView::verticalScroll() const {
    return s_->scrollY;
}

void TimelineView::setVerticalScroll(int y) {
    y = std::clamp(y, 0, std::max(0, s_->layout.contentHeight() - area_->height()));
    if (y == s_->scrollY) return;
    s_->scrollY = y;
    {
        const QSignalBlocker block(vbar_);
        vbar_->setValue(y);
    }
    tree_->update();
    area_->update();
}

void TimelineView::setGroupCollapsed(int group, bool collapsed) {
    if (group < 0 || group >= groupCount()) return;
    s_->layout.setCollapsed(group, collapsed);
    updateScrollBar();
    repaintAll();
}

int TimelineView::groupCount() const {
    return static_cast<int>(s_->layout.groups().size());
}

void TimelineView::buildLevelOfDetail() {
    if (!s_->trace) return;
    std::vector<TrackId> ids(s_->trace->tracks().size());
    std::iota(ids.begin(), ids.end(), 0u);
    // Each track's summary is its own slot, so tracks build in parallel without locks.
    QtConcurrent::blockingMap(ids, [this](TrackId id) { s_->lod(id); });
}

size_t TimelineView::viewMemoryBytes() const {
    return s_->memoryBytes();
}

void TimelineView::paintTracksArea(QPainter& p) {
    paintTracks(*s_, p, area_->size());
}

void TimelineView::keyPressEvent(QKeyEvent* e) {
    const TimeNs dur = s_->axis.visible().duration();
    // W/S zoom at the mouse when it moved over the tracks area, else at the centre.
    const double anchor = s_->hoverX.value_or(area_->width() / 2.0);
    switch (e->key()) {
    case Qt::Key_W:
        zoomBy(kKeyZoomFactor, anchor);
        break;
    case Qt::Key_S:
        zoomBy(1.0 / kKeyZoomFactor, anchor);
        break;
    case Qt::Key_A:
        panBy(-dur / kKeyPanDivisor);
        break;
    case Qt::Key_D:
        panBy(dur / kKeyPanDivisor);
        break;
    case Qt::Key_F:
        zoomToSelection();
        break;
    case Qt::Key_Home:
        zoomToAll();
        break;
    case Qt::Key_Escape:
        selectSlice({}, false);
        setSelectedRange(std::nullopt);
        break;
    default:
        QWidget::keyPressEvent(e);
        return;
    }
    e->accept();
}

void TimelineView::axisChanged(bool changed) {
    if (!changed) return;
    repaintAll();
    emit visibleRangeChanged(s_->axis.visible());
}

void TimelineView::updateScrollBar() {
    const int maxScroll = std::max(0, s_->layout.contentHeight() - area_->height());
    {
        const QSignalBlocker block(vbar_);
        vbar_->setRange(0, maxScroll);
        vbar_->setPageStep(std::max(1, area_->height()));
        vbar_->setSingleStep(TrackLayout::kDepthHeight);
    }
    const int clamped = std::min(s_->scrollY, maxScroll);
    if (clamped != s_->scrollY)
        setVerticalScroll(clamped);
    else {
        const QSignalBlocker block(vbar_);
        vbar_->setValue(s_->scrollY);
    }
}

void TimelineView::ensureTrackVisible(TrackId t) {
    const int row = s_->layout.rowOfTrack(t);
    if (row < 0) return;
    const TrackRow& r = s_->layout.rows()[row];
    if (s_->layout.collapsed(r.group)) setGroupCollapsed(r.group, false);
    const TrackRow& rr = s_->layout.rows()[row];
    const int h = area_->height();
    if (rr.y < s_->scrollY)
        setVerticalScroll(rr.y);
    else if (rr.y + std::min(rr.height, h) > s_->scrollY + h)
        setVerticalScroll(rr.y + std::min(rr.height, h) - h);
}

void TimelineView::repaintAll() {
    ruler_->update();
    tree_->update();
    area_->update();
}

} // namespace strata
