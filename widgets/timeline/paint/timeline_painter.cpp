#include "timeline_painter.h"

#include "style/theme.h"

#include "counter_scale.h"
#include "critical_path_overlay.h"
#include "instant_marks.h"
#include "note_marks.h"
#include "painter_frame.h"
#include "sample_lanes.h"
#include "timeline_overlays.h"

#include "model/counter_units.h"

#include "model/names/time_text.h"
#include "style/gap_style.h"

#include <QFontMetrics>

#include <algorithm>
#include <cmath>
#include <map>

namespace strata {

namespace {

constexpr QRgb kIdleFill = 0xfff7dcd8;
constexpr QRgb kIdleHatch = 0xffd98a80;
constexpr QRgb kBusyStrip = 0xffb9c2cc;
constexpr QRgb kLongGap = 0xffd6453a;
constexpr QRgb kSelection = 0xff101418;
constexpr int kGapLabelWidth = 56;

using Frame = PainterFrame;

void fillIdleBand(Frame& f, int x0, int x1, int y, int h) {
    x0 = std::max(x0, f.xTraceStart);
    x1 = std::min(x1, f.xTraceEnd);
    if (x1 <= x0) return;
    const QRect r(x0, y, x1 - x0, h);
    f.p.fillRect(r, QColor::fromRgb(kIdleFill));
    f.p.fillRect(r, QBrush(QColor::fromRgb(kIdleHatch), Qt::BDiagPattern));
}

// Long gaps (over the threshold) as they are at this zoom. Each pixel column shows the share of
// its time that lies in long gaps, as the height of red from the bottom of the band: a gap wider
// than a pixel fills its columns; a 12 µs gap in a column of 500 µs is the 2 % it is (nothing
// at the band's height), never a full red column. Zooming changes the detail, not the truth.
void drawIdleShare(Frame& f, const GapList& gaps, int y, int h) {
    if (gaps.empty() || h <= 0) return;
    const int x0 = std::max(0, f.xTraceStart), x1 = std::min(f.w, f.xTraceEnd);
    if (x1 <= x0) return;
    const double nsPerPx = f.s.axis.nsPerPixel();
    int runX = x0, runH = 0, cause = 0, runCause = 0;
    TimeNs prevT = f.s.axis.timeForX(x0);
    TimeNs prevIdle = gaps.idleBefore(prevT);
    for (int x = x0; x <= x1; ++x) {
        int hp = 0;
        if (x < x1) {
            const TimeNs t = f.s.axis.timeForX(x + 1);
            double share;
            if (nsPerPx < 1.0 || t <= prevT) // deeper than 1 ns per pixel: inside a gap or not
                share = double(gaps.idleBetween(prevT, prevT + 1));
            else
                share = double(gaps.idleBefore(t) - prevIdle) / double(t - prevT);
            // Whole pixels of red only: a share below 1/h of the band shows nothing (a level
            // a user could not tell from noise), a partial column no more than its share.
            hp = int(std::clamp(share, 0.0, 1.0) * h);
            // Coloured by the cause with the most idle time in the column.
            if (hp > 0 && gaps.byCause) {
                const TimeNs a = prevT, b = std::max(t, prevT + 1);
                TimeNs most = -1;
                for (int c = 0; c < kGapCauseCount; ++c) {
                    const TimeNs idle = gaps.idleBefore(b, c) - gaps.idleBefore(a, c);
                    if (idle > most) most = idle, cause = c;
                }
            }
            if (t > prevT) {
                prevT = t;
                prevIdle = gaps.idleBefore(t);
            }
        }
        if (hp != runH || cause != runCause || x == x1) {
            if (runH > 0)
                f.p.fillRect(QRect(runX, y + h - runH, x - runX, runH),
                             QColor::fromRgb(gapCauseColor(runCause)));
            runX = x;
            runH = hp;
            runCause = cause;
        }
    }
}

// A kernel, copy or set of `track` in [t0, t1) (kNoSlice if none), looking at its slices at every
// depth (kernels can sit under GPU annotations). Scans from the first slice not before t0 and stops
// at the first busy one, so a column full of kernels costs one binary search per depth.
SliceIndex busyIn(const Track& track, const TrackLod& lod, TimeNs t0, TimeNs t1) {
    const SliceColumns& c = track.slices;
    for (uint16_t d = 0; d < track.maxDepth; ++d) {
        const uint32_t n = lod.countAt(d);
        for (uint32_t p = lod.firstNotBefore(track, d, t0); p < n; ++p) {
            const SliceIndex s = lod.sliceAtDepth(d, p);
            if (c.start[s] >= t1) break;
            if (isGpuBusyKind(c.kind[s])) return s;
        }
    }
    return kNoSlice;
}

// Which pixel columns of the trace's x-range `id` runs a kernel, copy or set in (computed once per
// frame; a long op that covers many columns is tried before searching again).
const std::vector<uint8_t>& busyColumnsOf(Frame& f, TrackId id) {
    auto [it, fresh] = f.busyColumns.try_emplace(id);
    std::vector<uint8_t>& cols = it->second;
    if (!fresh) return cols;
    cols.assign(size_t(std::max(0, f.w)), 0);
    const Track& track = f.trace.track(id);
    const TrackLod& lod = *f.c.lod(id); // drawBusyColumns checked
    const SliceColumns& c = track.slices;
    SliceIndex last = kNoSlice;
    const int x0 = std::max(0, f.xTraceStart), x1 = std::min(f.w, f.xTraceEnd);
    for (int x = x0; x < x1; ++x) {
        const TimeNs t0 = f.s.axis.timeForX(x), t1 = std::max(t0 + 1, f.s.axis.timeForX(x + 1));
        if (last != kNoSlice && c.start[last] < t1 && c.end(last) > t0) {
            cols[size_t(x)] = 1;
            continue;
        }
        const SliceIndex s = busyIn(track, lod, t0, t1);
        if (s != kNoSlice) {
            cols[size_t(x)] = 1;
            last = s;
        }
    }
    return cols;
}

// The busy/idle band of GPU stream tracks (a stream's lanes, or every stream of a device): grey
// where one of them runs any kernel, copy or set in the pixel column, hatched where none does -
// from the slices themselves, never from a level-of-detail span that merged a GPU annotation with
// kernels (which used to pass for idle).
void drawBusyColumns(Frame& f, const std::vector<TrackId>& tracks, int y, int h) {
    const int x0 = std::max(0, f.xTraceStart), x1 = std::min(f.w, f.xTraceEnd);
    if (x1 <= x0) return;
    for (TrackId id : tracks) // neither busy nor idle until every stream's summary is there
        if (!f.c.lod(id)) return;
    fillIdleBand(f, x0, x1, y, h); // hatched, then the busy runs over it (one pattern fill)
    std::vector<uint8_t> any(size_t(f.w), 0);
    for (TrackId id : tracks) {
        const std::vector<uint8_t>& cols = busyColumnsOf(f, id);
        for (int x = x0; x < x1; ++x) any[size_t(x)] |= cols[size_t(x)];
    }
    for (int x = x0; x < x1;) {
        int e = x;
        while (e < x1 && any[size_t(e)] == any[size_t(x)]) ++e;
        if (any[size_t(x)]) f.p.fillRect(QRect(x, y, e - x, h), QColor::fromRgb(kBusyStrip));
        x = e;
    }
}

// True when no slice of `track` at depth 0 overlaps [t0, t1): a gap's label may go there.
bool depthZeroFree(const Track& track, TimeNs t0, TimeNs t1) {
    const auto [first, last] = track.overlapping(t0, t1);
    for (SliceIndex i = first; i < last; ++i)
        if (track.slices.depth[i] == 0 && track.slices.start[i] < t1 &&
            track.slices.start[i] + track.slices.dur[i] > t0)
            return false;
    return true;
}

// Length labels of the long gaps wide enough to hold one, in `labelY`..+labelH, centred on the
// gap; `free` says whether the label may go there (not over a slice). The hovered gap outlined.
template <typename Free>
void drawGapLabels(Frame& f, const GapList& gaps, int stripY, int stripH, int labelY, int labelH,
                   QRgb color, Free free) {
    if (gaps.empty()) return;
    const auto& v = *gaps.spans;
    for (size_t i = GapIndex::firstEndingAfter(v, f.tq0); i < v.size() && v[i].start < f.tq1;) {
        const GapSpan& g = v[i];
        const QRect rc = f.s.spanRect(g.start, g.end, stripY, stripH);
        if (f.s.hoveredGap && f.s.hoveredGap->start == g.start && f.s.hoveredGap->end == g.end) {
            f.p.setPen(QPen(QColor::fromRgb(kSelection), 1));
            f.pen = kSelection;
            f.p.drawRect(rc.adjusted(0, 0, -1, -1));
        }
        if (rc.width() >= kGapLabelWidth && labelH > 0) {
            const QRect lr = QRect(rc.x(), labelY, rc.width(), labelH)
                                 .intersected(QRect(0, labelY, f.w, labelH));
            const QString text = QString::fromStdString(formatDuration(g.duration()));
            const int tw = f.fm.horizontalAdvance(text) + 6;
            // Where the text goes (centred), within the gap: it must be free of slices.
            const QRect tr(lr.x() + (lr.width() - tw) / 2, labelY, tw, labelH);
            const TimeNs a = std::max(g.start, f.s.axis.timeForX(tr.x()));
            const TimeNs b = std::min(g.end, f.s.axis.timeForX(tr.x() + tr.width()));
            if (lr.width() >= tw && free(a, b)) {
                f.p.setPen(QColor::fromRgb(color));
                f.pen = color;
                f.p.drawText(lr, Qt::AlignCenter, text);
            }
        }
        // Skip the gaps that end inside the pixel just looked at.
        const TimeNs next = f.s.axis.timeForX(rc.x() + std::max(1, rc.width()));
        i = GapIndex::firstEndingAfter(v, i + 1, next);
    }
}

// A thread's lane of sampled stacks at y.
void paintSampleRow(Frame& f, const TrackRow& r, int y) {
    const StackSamples& ss = f.trace.stackSamples();
    if (r.sampleThread < 0 || size_t(r.sampleThread) >= ss.threads.size()) return;
    const int h = r.kind == TrackRow::Kind::Samples ? TrackLayout::kSampleRowHeight
                                                    : TrackLayout::kSampleHeight;
    paintSampleLane(f.p, f.s, f.c, ss.threads[size_t(r.sampleThread)], y, h, f.w);
    f.pen = 0; // unknown after it
}

void paintSliceRow(Frame& f, const TrackRow& r, int top) {
    constexpr int H = TrackLayout::kDepthHeight;
    const int stripY = top + r.height - TrackLayout::kRowPad - TrackLayout::kGapStrip;
    if (r.instants)
        paintInstantMarks(f.p, f.s, f.trace.track(r.lanes.front()), top, f.w, QColor(70, 80, 95));
    paintSliceLevels(f, r, top);
    if (r.sampleThread >= 0)
        paintSampleRow(f, r,
                       top + r.laneY.back() + r.laneDepths.back() * TrackLayout::kDepthHeight);
    if (r.gpuStream && !r.lanes.empty()) {
        const Track& t0 = f.trace.track(r.lanes.front());
        const GapList gaps = f.s.gaps.streamList(t0.device, t0.tid);
        drawBusyColumns(f, r.lanes, stripY, TrackLayout::kGapStrip);
        drawIdleShare(f, gaps, stripY, TrackLayout::kGapStrip);
        // The length goes in the stream's first row where it is free of slices (a GPU user
        // annotation may cover the gap there), else nowhere.
        drawGapLabels(f, gaps, stripY, TrackLayout::kGapStrip, top + r.laneY[0], H, kLongGap,
                      [&](TimeNs a, TimeNs b) { return depthZeroFree(t0, a, b); });
    }
}

void paintDeviceIdle(Frame& f, const TrackRow& r, int top) {
    const int y = top + 1, h = TrackLayout::kIdleHeight - 1;
    std::vector<TrackId> streams;
    for (const TrackRow& sr : f.s.layout.rows())
        if (sr.group == r.group && sr.gpuStream)
            streams.insert(streams.end(), sr.lanes.begin(), sr.lanes.end());
    drawBusyColumns(f, streams, y, h);
    QFont small = f.p.font();
    small.setPointSizeF(std::max(6.0, small.pointSizeF() * 0.8));
    f.p.save();
    f.p.setFont(small);
    const GapList gaps = f.s.gaps.deviceList(r.device);
    drawIdleShare(f, gaps, y, h);
    // Length labels of long device gaps, white on the red band (the gap is idle: no slice).
    drawGapLabels(f, gaps, y, h, y, h, 0xffffffff, [](TimeNs, TimeNs) { return true; });
    f.p.restore();
    f.pen = 0; // unknown after restore()
}

void paintCounter(Frame& f, const TrackRow& r, int top) {
    const TrackId id = r.lanes.front();
    const Track& track = f.trace.track(id);
    const double mx = f.c.counterMax(id);
    const int H = TrackLayout::kCounterHeight - 2;
    const QRgb col = sliceColor(f.trace.str(track.name), SliceKind::Generic);
    f.cells.clear();
    if (const TrackLod* lod = f.c.lod(id)) lod->queryCounter(track, f.tq0, f.tq1, f.level, f.cells);
    for (const LodCounterCell& c : f.cells) {
        const int hh = counterBarHeight(c.max, mx, H);
        if (hh == 0) continue;
        const QRect rc = f.s.spanRect(c.start, c.end, top + 1 + H - hh, hh);
        f.p.fillRect(rc.intersected(QRect(-2, rc.y(), f.w + 4, hh)), QColor::fromRgb(col));
    }
    f.p.setPen(themeColors().mutedText);
    f.pen = 0xff5a5a5a;
    const CounterUnit unit = counterUnit(f.trace.str(track.name));
    f.p.drawText(
        QRect(4, top + 1, f.w - 8, 14), Qt::AlignLeft | Qt::AlignTop,
        QStringLiteral("max %1").arg(QString::fromStdString(formatCounterValue(mx, unit))));
}

void paintInstants(Frame& f, const TrackRow& r, int top) {
    paintInstantMarks(f.p, f.s, f.trace.track(r.lanes.front()), top, f.w, QColor(70, 80, 95));
}

} // namespace

void TimelinePainter::paint(const TimelineState& s, QPainter& p, const QSize& size) {
    const ThemeColors colors = themeColors();
    p.fillRect(QRect(QPoint(0, 0), size), colors.background);
    if (!s.trace) {
        p.setPen(colors.mutedText);
        p.drawText(QRect(QPoint(0, 0), size), Qt::AlignCenter, QStringLiteral("No trace loaded"));
        return;
    }
    cache_.lods().beginFrame();
    const TimeRange v = s.axis.visible();
    const double npp = s.axis.nsPerPixel();
    const TimeNs pad = static_cast<TimeNs>(std::ceil(2 * npp)) + 1;
    const TimeRange b = s.trace->bounds();
    Frame f{s,
            cache_,
            spans_,
            cells_,
            busy_,
            p,
            *s.trace,
            size.width(),
            size.height(),
            v.start - pad,
            v.end + pad,
            s.queryLevel(),
            QFontMetrics(p.font()),
            s.spanRect(b.start, b.end, 0, 1).x(),
            0};
    f.xTraceEnd = s.spanRect(b.start, b.end, 0, 1).right() + 1;
    const auto& rows = s.layout.rows();
    const int first = std::max(0, s.layout.rowAt(s.scrollY));
    for (size_t i = static_cast<size_t>(first); i < rows.size(); ++i) {
        const TrackRow& r = rows[i];
        if (r.height == 0) continue;
        const int top = r.y - s.scrollY;
        if (top >= f.h) break;
        if (top + r.height <= 0) continue;
        switch (r.kind) {
        case TrackRow::Kind::Group: {
            p.fillRect(QRect(0, top, f.w, r.height), colors.headerBand);
            // A rank folded into one row: its GPU's busy and idle under the header.
            const TrackGroup& g = s.layout.groups()[size_t(r.group)];
            if (g.summaryGpu >= 0) {
                TrackRow idle;
                idle.group = g.summaryGpu;
                idle.device = s.layout.groups()[size_t(g.summaryGpu)].device;
                paintDeviceIdle(f, idle, top + TrackLayout::kHeaderHeight);
            }
            break;
        }
        case TrackRow::Kind::Slices:
            paintSliceRow(f, r, top);
            break;
        case TrackRow::Kind::DeviceIdle:
            paintDeviceIdle(f, r, top);
            break;
        case TrackRow::Kind::Counter:
            paintCounter(f, r, top);
            break;
        case TrackRow::Kind::Instants:
            paintInstants(f, r, top);
            break;
        case TrackRow::Kind::Samples:
            paintSampleRow(f, r, top);
            break;
        case TrackRow::Kind::Sections:
            paintSectionLanes(p, s, cache_.sections(), r, top, f.w);
            break;
        case TrackRow::Kind::Utilisation:
            paintUtilisation(p, s, s.utilisation, r, top, f.w);
            break;
        case TrackRow::Kind::Queue:
            paintQueue(p, s, r, top, f.w);
            f.pen = 0; // unknown after it
            break;
        case TrackRow::Kind::Memory:
            paintMemory(p, s, r, top, f.w);
            f.pen = 0; // unknown after it
            break;
        }
        p.fillRect(QRect(0, top + r.height - 1, f.w, 1), colors.separator);
    }
    paintSectionMarkers(p, s, cache_.sections(), f.w, f.h);
    if (s.criticalPath) paintCriticalPath(f, *s.criticalPath);
    paintNoteMarks(p, s, f.w, f.h);
    paintOverlays(f);
}

SliceRef TimelinePainter::sliceAt(const TimelineState& s, QPoint pos) {
    return hitAt(s, pos).slice;
}

TimelinePainter::Hit TimelinePainter::hitAt(const TimelineState& s, QPoint pos) {
    Hit hit;
    if (!s.trace) return hit;
    const int y = pos.y() + s.scrollY;
    TrackId id;
    uint16_t depth;
    if (!s.layout.laneDepthAt(s.layout.rowAt(y), y, &id, &depth, &hit.fold)) return hit;
    const double npp = s.axis.nsPerPixel();
    const TimeNs t = s.axis.timeForX(pos.x());
    const TimeNs pad = static_cast<TimeNs>(std::ceil(2 * npp)) + 1;
    std::vector<LodSpan> spans;
    const Track& track = s.trace->track(id);
    const TrackLod* lod = cache_.lod(id);
    if (!lod) return hit; // not summarised yet: nothing drawn there to hit
    lod->query(track, depth, t - pad, t + pad, s.queryLevel(), spans);
    // The span drawn under x; failing that, one within a pixel (sub-pixel activity is hard to hit).
    int bestDist = 2;
    for (const LodSpan& sp : spans) {
        const QRect rc = s.spanRect(sp.start, sp.end, 0, 1);
        const int dist =
            pos.x() < rc.x() ? rc.x() - pos.x() : std::max(0, pos.x() - (rc.x() + rc.width() - 1));
        if (dist < bestDist) {
            bestDist = dist;
            hit.slice = {id, sp.slice};
            hit.merged = sp.merged;
            hit.start = sp.start;
            hit.end = sp.end;
        }
    }
    if (hit.merged) {
        // The slices of that depth the block stands for: those overlapping it.
        const uint32_t first = lod->firstNotBefore(track, depth, hit.start);
        uint32_t last = lod->firstNotBefore(track, depth, hit.end);
        if (last < lod->countAt(depth) &&
            track.slices.start[lod->sliceAtDepth(depth, last)] < hit.end)
            ++last;
        hit.count = last - first;
    }
    return hit;
}

size_t TimelinePainter::memoryBytes() const {
    return cache_.memoryBytes() + spans_.capacity() * sizeof(LodSpan) +
           cells_.capacity() * sizeof(LodCounterCell) + busy_.capacity();
}

} // namespace strata
