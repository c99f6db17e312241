#include "timeline_view.h"

#include "model/names/time_text.h"
#include "timeline/paint/sample_lanes.h"
#include "timeline/paint/timeline_painter.h"
#include "timeline_ruler.h"
#include "timeline_state.h"
#include "track_tree_widget.h"
#include "tracks_area.h"
#include "workspace/analyses.h"
#include "workspace/job_runner.h"
#include "workspace/navigation.h"
#include "workspace/rank_set.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QMenu>

#include <QGridLayout>
#include <QKeyEvent>
#include <QScrollBar>
#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>
#include <numeric>

namespace strata {

TimelineView::TimelineView(QWidget* parent) : TimelineView(nullptr, nullptr, parent) {}

TimelineView::TimelineView(Workspace* workspace, Navigation* navigation, QWidget* parent)
    : QWidget(parent), workspace_(workspace ? workspace : new Workspace(this)),
      nav_(navigation ? navigation : new Navigation(workspace_, this)),
      s_(std::make_unique<TimelineState>()), painter_(std::make_unique<TimelinePainter>()),
      gapJobs_(new JobRunner(this)), rowJobs_(new JobRunner(this)) {
    s_->nav = nav_;
    setFocusPolicy(Qt::StrongFocus);
    ruler_ = new TimelineRuler(*s_, this);
    tree_ = new TrackTreeWidget(*s_, this);
    area_ = new TracksArea(*s_, *painter_, this);
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
    connectParts();
    showTrace(workspace_->current());
}

TimelineView::~TimelineView() = default;

void TimelineView::connectParts() {
    connect(vbar_, &QScrollBar::valueChanged, this, [this](int v) { setVerticalScroll(v); });
    connect(workspace_, &Workspace::currentChanged, this, &TimelineView::showTrace);
    connect(workspace_->analyses(), &Analyses::settingsChanged, this, &TimelineView::indexGaps);
    connect(workspace_->ranks(), &RankSet::collapseRequested, this,
            &TimelineView::setGroupsCollapsed);
    connect(nav_, &Navigation::visibleRangeChanged, this, &TimelineView::onVisibleRange);
    connect(nav_, &Navigation::selectedSliceChanged, this, &TimelineView::onSelectedSlice);
    connect(nav_, &Navigation::revealRequested, this, [this](const TraceSliceRef& r) {
        if (r.trace == workspace_->currentId()) reveal(r.slice);
    });
    connect(nav_, &Navigation::selectedRangeChanged, this, [this](std::optional<TimeRange> r) {
        repaintAll();
        emit rangeSelected(r);
    });
    connect(ruler_, &TimelineRuler::rangeDragging, this, [this](TimeRange r) {
        s_->rangePreview = r;
        repaintAll();
    });
    connect(ruler_, &TimelineRuler::rangeChosen, this, [this](std::optional<TimeRange> r) {
        s_->rangePreview.reset();
        repaintAll();
        nav_->setSelectedRange(r);
    });
    connect(tree_, &TrackTreeWidget::groupToggled, this,
            [this](int g) { setGroupCollapsed(g, !s_->layout.collapsed(g)); });
    connect(tree_, &TrackTreeWidget::rowExpandToggled, this, [this](int row) {
        s_->layout.setExpanded(row, !s_->layout.rows()[row].expanded);
        updateScrollBar();
        repaintAll();
    });
    connect(area_, &TracksArea::resized, this, [this](int w) {
        s_->axis.setWidth(w);
        updateScrollBar();
    });
    connect(area_, &TracksArea::dragged, this, [this](TimeRange v, int scrollY) {
        setVisibleRange(v);
        setVerticalScroll(scrollY);
    });
    connect(area_, &TracksArea::doubleClicked, this, [this](QPoint pos) {
        // On a folded level: the thread's levels unfolded (expanded).
        if (painter_->hitAt(*s_, pos).fold.count > 1)
            setRowExpanded(s_->layout.rowAt(pos.y() + s_->scrollY), true);
    });
    connect(area_, &TracksArea::zoomRequested, this, &TimelineView::zoomBy);
    connect(area_, &TracksArea::panRequested, this, &TimelineView::panBy);
    connect(area_, &TracksArea::scrollRequested, this, &TimelineView::setVerticalScroll);
    connect(tree_, &TrackTreeWidget::scrollRequested, this, &TimelineView::setVerticalScroll);
    connect(area_, &TracksArea::contextMenuRequested, this, [this](QPoint pos, QPoint global) {
        QMenu* menu = contextMenuAt(pos);
        if (!menu->isEmpty()) menu->exec(global);
        menu->deleteLater();
    });
    connect(area_, &TracksArea::clicked, this, [this](QPoint pos) {
        if (const SampleHit h = sampleAt(*s_, pos, painter_->cache()); h.valid()) {
            selectSlice({}, false);
            emit sampleSelected(int(h.thread - s_->trace->stackSamples().threads.data()), h.index);
            return;
        }
        const SliceRef slice = sliceAtPixel(pos);
        if (!slice.valid()) {
            // A gap: select the call that launched the op ending it, highlight the CPU work on
            // that thread during the gap.
            if (const auto gap = area_->gapAt(pos))
                if (const ExplainedGap* e = s_->gaps.explained(*gap); e && e->launch.valid()) {
                    selectSlice(e->launch, true);
                    setHighlightedSlices(cpuSlicesDuring(*s_->trace, e->launch.track, e->gap));
                    return;
                }
        }
        selectSlice(slice, false);
    });
    connect(
        area_, &TracksArea::hoverChanged, this,
        [this](std::optional<double> x, std::optional<GapSpan> gap, SliceRef slice) {
            s_->hoverX = x;
            emit cursorTimeChanged(x ? std::optional<TimeNs>(s_->axis.timeForX(*x)) : std::nullopt);
            const bool gapChanged =
                gap.has_value() != s_->hoveredGap.has_value() ||
                (gap && (gap->start != s_->hoveredGap->start || gap->end != s_->hoveredGap->end));
            s_->hoveredGap = gap;
            if (gapChanged) area_->update();
            nav_->setHoveredSlice(workspace_->ref(slice));
        });
    connectNotes();
}

std::vector<SliceRef> TimelineView::cpuSlicesDuring(const Trace& t, TrackId track,
                                                    const GpuGap& g) {
    std::vector<SliceRef> out;
    const Track& tr = t.track(track);
    const auto [first, last] = tr.overlapping(g.start, g.end);
    for (SliceIndex i = first; i < last; ++i)
        if (tr.slices.start[i] < g.end && tr.slices.end(i) > g.start) out.push_back({track, i});
    return out;
}

void TimelineView::setTrace(std::shared_ptr<const Trace> trace) {
    workspace_->showTrace(std::move(trace));
}

void TimelineView::showTrace(const std::shared_ptr<const Trace>& trace) {
    TimelineState& s = *s_;
    s.trace = trace;
    s.correlated = {};
    s.highlights.clear();
    s.criticalPath.reset();
    s.hoveredGap.reset();
    s.rangePreview.reset();
    if (!workspace_->amending()) s.scrollY = 0; // a live run's next picture keeps its place
    s.gaps.clear();
    s.utilisation.clear();
    s.queues.clear();
    s.memory.clear();
    s.instantHighlights.clear();
    s.currentInstant = {};
    s.notes.clear(); // who keeps them (the notes sidecar) sets them again
    s.selectedNote = -1;
    s.layout.setMemoryDevices({});
    if (trace) {
        s.layout.build(*trace);
        s.axis.setBounds(nav_->bounds());
        s.axis.setVisible(nav_->visibleRange()); // an amended trace keeps its place
    } else {
        s.layout.clear();
        s.axis.setBounds({0, 1000});
    }
    s.axis.setWidth(area_->width());
    painter_->cache().reset(trace, s.showAllFlows);
    LodCache& lods = painter_->cache().lods();
    lods.setOnBuilt([this] { // on the worker, until the next reset
        QMetaObject::invokeMethod(this, &TimelineView::lodBuilt, Qt::QueuedConnection);
    });
    lods.prebuildInBackground();
    refold();
    updateScrollBar();
    repaintAll();
    emit visibleRangeChanged(s.axis.visible());
    // The docks and the trace cache wait for the gap causes drawn (released in indexGaps).
    if (trace) workspace_->analyses()->holdForPicture();
    indexGaps();
}

void TimelineView::indexGaps() {
    const std::shared_ptr<const TraceAnalysis> a = workspace_->analyses()->current();
    rowJobs_->cancel();
    if (!a) {
        gapJobs_->cancel();
        workspace_->analyses()->releasePicture();
        return;
    }
    // Off the GUI thread: the gap causes and the GPU ops (shared with the docks: whoever asks
    // first computes them), indexed for drawing; they replace the shown ones when they arrive.
    // What the picture shows comes first (the gaps, the memory rows); what only the optional
    // utilisation and queue rows and the idle row's tooltip use follows (indexRows).
    gapJobs_->run(
        [a](JobControl&) {
            GapIndex gaps;
            gaps.build(a);
            a->memory(); // computed here, drawn from the GUI thread
            return gaps;
        },
        [this, a](GapIndex gaps) {
            s_->gaps = std::move(gaps);
            s_->memory.build(a);
            showMemoryRows();
            repaintAll();
            indexRows(a);
            workspace_->analyses()->releasePicture();
        });
}

// The GPU utilisation and time breakdown, and the launch queues, for their rows and tooltips.
void TimelineView::indexRows(const std::shared_ptr<const TraceAnalysis>& a) {
    struct Indexed {
        GpuUtilisation utilisation;
        LaunchQueue queue;
    };
    rowJobs_->run(
        [a](JobControl&) {
            Indexed i;
            i.utilisation.build(a->gpuOps());
            i.utilisation.setBreakdown(a->gpuTimeBreakdown());
            i.queue = launchQueue(a->trace(), a->gpuOps());
            return i;
        },
        [this](Indexed i) {
            s_->utilisation = std::move(i.utilisation);
            s_->queues.build(std::move(i.queue));
            repaintAll();
        });
}

void TimelineView::showMemoryRows() {
    std::vector<int32_t> devices = s_->memory.gpuDevices();
    if (!s_->trace || devices == s_->layout.memoryDevices()) return;
    s_->layout.setMemoryDevices(std::move(devices));
    s_->layout.rebuild(*s_->trace);
    refold();
    updateScrollBar();
}

const MemoryUsage* TimelineView::memoryUsage() const {
    const std::shared_ptr<const TraceAnalysis> a = s_->gaps.analysis();
    return a && !s_->layout.memoryDevices().empty() ? &a->memory() : nullptr;
}

void TimelineView::waitForGaps() {
    gapJobs_->waitForFinished();
    rowJobs_->waitForFinished();
}

void TimelineView::waitForPicture() {
    gapJobs_->waitForFinished();
    if (showUtilisation() || showQueues()) rowJobs_->waitForFinished();
    if (!s_->trace) return;
    LodCache& lods = painter_->cache().lods();
    const std::vector<TrackId> ids = lanesInView();
    QtConcurrent::blockingMap(ids, [&lods](TrackId id) { lods.get(id); });
    lods.waitForRequested();
    refold();
}

bool TimelineView::pictureComplete() const {
    if (gapJobs_->isRunning()) return false;
    if ((showUtilisation() || showQueues()) && rowJobs_->isRunning()) return false;
    return !s_->trace || !painter_->cache().lods().requestsPending();
}

std::shared_ptr<const TraceAnalysis> TimelineView::gapAnalysis() const {
    return s_->gaps.analysis();
}

std::shared_ptr<const Trace> TimelineView::trace() const {
    return s_->trace;
}
TimeRange TimelineView::visibleRange() const {
    return s_->axis.visible();
}
void TimelineView::setVisibleRange(TimeRange r) {
    nav_->setVisibleRange(r);
}
void TimelineView::zoomToAll() {
    nav_->setVisibleRange(nav_->bounds());
}
void TimelineView::zoomBy(double factor, double x) {
    TimeAxis a = s_->axis;
    if (a.zoomAt(factor, x)) nav_->setVisibleRange(a.visible());
}
void TimelineView::panBy(TimeNs dt) {
    TimeAxis a = s_->axis;
    if (a.panBy(dt)) nav_->setVisibleRange(a.visible());
}

void TimelineView::onVisibleRange(TimeRange r) {
    if (!s_->axis.setVisible(r)) return;
    refold();
    repaintAll();
    emit visibleRangeChanged(s_->axis.visible());
}

void TimelineView::zoomToSelection() {
    const SliceRef sel = s_->selected();
    if (s_->trace && sel.valid()) {
        const TimeNs st = s_->trace->start(sel), d = s_->trace->duration(sel);
        setVisibleRange({st - d / 10, st + d + d / 10});
    } else if (const auto r = nav_->selectedRange()) {
        setVisibleRange(*r);
    }
}

SliceRef TimelineView::selectedSlice() const {
    return s_->selected();
}

void TimelineView::selectSlice(SliceRef r, bool ensureVisible) {
    const Trace* t = s_->trace.get();
    if (!t || !r.valid() || r.track >= t->tracks().size() ||
        r.index >= t->track(r.track).slices.size())
        r = {};
    nav_->setSelectedSlice(workspace_->ref(r), ensureVisible);
}

void TimelineView::onSelectedSlice(const TraceSliceRef&) {
    const SliceRef r = s_->selected();
    s_->correlated = r.valid() ? correlatedWith(*s_->trace, r) : Correlated{};
    repaintAll();
    emit sliceSelected(r);
}

std::optional<TimeRange> TimelineView::selectedRange() const {
    return nav_->selectedRange();
}

void TimelineView::setSelectedRange(std::optional<TimeRange> r) {
    nav_->setSelectedRange(r);
}

void TimelineView::setGapThresholdNs(TimeNs t) {
    workspace_->analyses()->setGapThreshold(t); // indexGaps() follows
}

TimeNs TimelineView::gapThresholdNs() const {
    return workspace_->analyses()->gapThreshold();
}

void TimelineView::setWheelScrolls(bool on) {
    s_->wheelScrolls = on;
}

bool TimelineView::wheelScrolls() const {
    return s_->wheelScrolls;
}

void TimelineView::setShowAllFlows(bool on) {
    s_->showAllFlows = on;
    if (on) painter_->cache().buildFlows();
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
    return painter_->sliceAt(*s_, pos);
}

TimelinePainter::Hit TimelineView::hitAtPixel(QPoint pos) const {
    return painter_->hitAt(*s_, pos);
}

QRect TimelineView::sliceRect(SliceRef r) const {
    return s_->sliceRect(r);
}
RulerTicks TimelineView::rulerTicks() const {
    return ruler_->ticks();
}
QWidget* TimelineView::tracksArea() const {
    return area_;
}
int TimelineView::visibleTrackLabelCount() const {
    return tree_->labelsInView();
}
void TimelineView::buildLevelOfDetail() {
    if (!s_->trace) return;
    std::vector<TrackId> ids(s_->trace->tracks().size());
    std::iota(ids.begin(), ids.end(), 0u);
    // Each track's summary is its own slot, so tracks build in parallel without locks.
    QtConcurrent::blockingMap(ids, [this](TrackId id) { painter_->cache().lodNow(id); });
}

size_t TimelineView::viewMemoryBytes() const {
    return s_->memoryBytes() + painter_->memoryBytes();
}

void TimelineView::paintTracksArea(QPainter& p) {
    painter_->paint(*s_, p, area_->size());
}

void TimelineView::zoomStep(bool in) {
    const double anchor = s_->hoverX.value_or(area_->width() / 2.0);
    zoomBy(in ? kKeyZoomFactor : 1.0 / kKeyZoomFactor, anchor);
}

void TimelineView::panStep(bool right) {
    const TimeNs step = s_->axis.visible().duration() / kKeyPanDivisor;
    panBy(right ? step : -step);
}

void TimelineView::keyPressEvent(QKeyEvent* e) {
    switch (e->key()) {
    case Qt::Key_W:
        zoomStep(true);
        break;
    case Qt::Key_S:
        zoomStep(false);
        break;
    case Qt::Key_A:
        panStep(false);
        break;
    case Qt::Key_D:
        panStep(true);
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
        selectNote(-1);
        break;
    case Qt::Key_M: // Perfetto's key: a note at the mouse; Shift+M a flag over the selection
        if (e->modifiers() & Qt::ShiftModifier)
            flagSelection();
        else
            markAtCursor();
        break;
    case Qt::Key_Delete:
    case Qt::Key_Backspace:
        if (s_->selectedNote < 0) {
            QWidget::keyPressEvent(e);
            return;
        }
        removeNote(s_->selectedNote);
        break;
    default:
        QWidget::keyPressEvent(e);
        return;
    }
    e->accept();
}

void TimelineView::repaintAll() {
    ruler_->update();
    tree_->update();
    area_->update();
}

} // namespace strata
