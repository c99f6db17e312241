#include "critical_path_overlay.h"

#include "style/theme.h"
#include "timeline_overlays.h"

#include <algorithm>
#include <limits>

namespace strata {

namespace {

constexpr QRgb kPathArrow = 0xffc2185b; // the path's edges: one colour, apart from the flows'
constexpr QRgb kPathSync = 0xff00838f;  // its sync and dependency edges
constexpr int kDimAlpha = 170;          // what is off the path, under the background at 2/3
constexpr size_t kArrowCap = 4000;      // arrows drawn per frame at most

// An edge drawn as an arrow: between two events, unless both lie on one thread's track (a call
// stack's operator and dependency edges follow the slices already drawn).
bool drawnAsArrow(const Trace& trace, SliceRef a, SliceRef b, CpEdgeType type) {
    if (!a.valid() || !b.valid() || a == b) return false;
    if (type == CpEdgeType::KernelKernelDelay) return true;
    return a.track != b.track || trace.track(a.track).kind != TrackKind::Thread;
}

} // namespace

CriticalPathOverlay::CriticalPathOverlay(const Trace& trace,
                                         std::shared_ptr<const CriticalPath> path)
    : trace_(&trace), path_(std::move(path)), tracks_(trace.tracks().size()) {
    for (SliceRef r : path_->pathEvents) // sorted: by track, then by index (by start)
        if (r.track < tracks_.size() && r.index < trace.track(r.track).slices.size())
            tracks_[r.track].slices.push_back(r.index);
    for (TrackId t = 0; t < tracks_.size(); ++t) {
        TrackEvents& e = tracks_[t];
        TimeNs m = std::numeric_limits<TimeNs>::min();
        for (SliceIndex s : e.slices)
            e.maxEnd.push_back(m = std::max(m, trace.track(t).slices.end(s)));
    }
    const std::vector<CpPoint>& pts = path_->points;
    for (const CpPathEdge& e : path_->edges) {
        if (e.from >= pts.size() || e.to >= pts.size()) continue;
        const CpPoint& a = pts[e.from];
        const CpPoint& b = pts[e.to];
        if (drawnAsArrow(trace, a.event, b.event, e.type))
            arrows_.push_back({a.time, b.time, a.event, b.event, e.type});
    }
    std::sort(arrows_.begin(), arrows_.end(), [](const Arrow& x, const Arrow& y) {
        return std::min(x.t0, x.t1) < std::min(y.t0, y.t1);
    });
    TimeNs m = std::numeric_limits<TimeNs>::min();
    for (const Arrow& a : arrows_) arrowMaxEnd_.push_back(m = std::max(m, std::max(a.t0, a.t1)));
}

bool CriticalPathOverlay::contains(SliceRef r) const {
    if (r.track >= tracks_.size()) return false;
    const std::vector<SliceIndex>& v = tracks_[r.track].slices;
    return std::binary_search(v.begin(), v.end(), r.index);
}

namespace {

// The rectangles of the path's events in view, by (y, x).
std::vector<QRect> pathRects(PainterFrame& f, const CriticalPathOverlay& cp) {
    std::vector<QRect> out;
    const QRect view(-1, 0, f.w + 2, f.h);
    const auto& rows = f.s.layout.rows();
    for (size_t i = size_t(std::max(0, f.s.layout.rowAt(f.s.scrollY))); i < rows.size(); ++i) {
        const TrackRow& r = rows[i];
        if (r.y - f.s.scrollY >= f.h) break;
        if (r.kind != TrackRow::Kind::Slices || r.height == 0) continue;
        for (TrackId lane : r.lanes)
            cp.forEachIn(lane, f.tq0, f.tq1, [&](SliceIndex s) {
                const QRect rc = f.s.sliceRect({lane, s}).intersected(view);
                if (!rc.isEmpty()) out.push_back(rc);
            });
    }
    std::sort(out.begin(), out.end(), [](const QRect& a, const QRect& b) {
        return a.y() != b.y() ? a.y() < b.y() : a.x() < b.x();
    });
    return out;
}

// Everything but `keep` (sorted by (y, x); rows of equal height at one y) under `dim`.
void dimAllBut(QPainter& p, const std::vector<QRect>& keep, int w, int h, const QColor& dim) {
    int y = 0;
    for (size_t i = 0; i < keep.size();) {
        const int top = keep[i].y(), bh = keep[i].height();
        if (top > y) p.fillRect(QRect(0, y, w, top - y), dim);
        int x = 0;
        for (; i < keep.size() && keep[i].y() == top; ++i) {
            if (keep[i].x() > x) p.fillRect(QRect(x, top, keep[i].x() - x, bh), dim);
            x = std::max(x, keep[i].right() + 1);
        }
        if (x < w) p.fillRect(QRect(x, top, w - x, bh), dim);
        y = std::max(y, top + bh);
    }
    if (y < h) p.fillRect(QRect(0, y, w, h - y), dim);
}

void drawArrows(PainterFrame& f, const CriticalPathOverlay& cp) {
    const QRectF view(0, 0, f.w, f.h);
    f.p.setRenderHint(QPainter::Antialiasing, true);
    cp.forEachArrowIn(f.tq0, f.tq1, kArrowCap, [&](const CriticalPathOverlay::Arrow& a) {
        const QRect ra = f.s.sliceRect(a.from), rb = f.s.sliceRect(a.to);
        if (ra.isNull() || rb.isNull()) return;
        const QColor col = QColor::fromRgb(
            a.type == CpEdgeType::Sync || a.type == CpEdgeType::Dependency ? kPathSync
                                                                           : kPathArrow);
        const double xa = f.s.axis.xForTime(a.t0), xb = f.s.axis.xForTime(a.t1);
        if (ra.y() == rb.y()) { // along one row (kernel to kernel): a straight arrow
            const double y = ra.center().y() + 0.5;
            if (xb - xa < 6 || !view.intersects(QRectF(xa, y - 4, xb - xa, 8))) return;
            f.p.setPen(QPen(col, 1.5));
            f.p.drawLine(QPointF(xa, y), QPointF(xb, y));
            f.p.setBrush(col);
            f.p.drawPolygon(QPolygonF{{xb, y}, {xb - 7, y - 4}, {xb - 7, y + 4}});
            return;
        }
        const bool down = rb.y() > ra.y();
        const QPointF pa(xa, down ? ra.bottom() + 1 : ra.top());
        const QPointF pb(xb, down ? rb.top() : rb.bottom() + 1);
        if (view.intersects(QRectF(pa, pb).normalized().adjusted(-1, -1, 1, 1)))
            drawFlowArrow(f.p, pa, pb, col);
    });
    f.p.setRenderHint(QPainter::Antialiasing, false);
    f.p.setBrush(Qt::NoBrush);
    f.pen = 0; // unknown after it
}

} // namespace

void paintCriticalPath(PainterFrame& f, const CriticalPathOverlay& cp) {
    if (cp.trace() != &f.trace) return;
    QColor dim = themeColors().background;
    dim.setAlpha(kDimAlpha);
    dimAllBut(f.p, pathRects(f, cp), f.w, f.h, dim);
    drawArrows(f, cp);
}

} // namespace strata
