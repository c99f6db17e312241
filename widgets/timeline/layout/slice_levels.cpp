// The levels of a slices row (TimelinePainter): each lane's levels as the layout shows them, a
// folded level (level_folds.h) as its run's outermost slice in grey under its innermost slice,
// with how many levels it holds; merged level-of-detail blocks (many slices narrower than a
// pixel or two) striped so they read as many slices, not as one unnamed slice.
#include "timeline/paint/painter_frame.h"

#include "style/slice_palette.h"
#include "style/theme.h"

#include <QImage>
#include <QObject>
#include <QStaticText>

namespace strata {

namespace {

constexpr int kMinLabelWidth = 36; // narrower slices carry no label (an elided stub says little)
constexpr QRgb kFoldFill = 0xffdfe3e9;
constexpr QRgb kFoldEdge = 0xff9aa3ae;

void drawLabel(PainterFrame& f, const QRect& rc, StringId name, QRgb bg) {
    const QRect vis = rc.intersected(QRect(0, rc.y(), f.w, rc.height())).adjusted(3, 0, -3, 0);
    if (vis.width() < kMinLabelWidth - 6) return;
    const QStaticText* st = f.c.fittedLabel(name, vis.width(), f.fm);
    if (!st) return;
    const QRgb fg = textColorOn(bg);
    if (fg != f.pen) {
        f.p.setPen(QColor::fromRgb(fg));
        f.pen = fg;
    }
    f.p.drawStaticText(vis.x(), vis.y() + (vis.height() - f.fm.height()) / 2, *st);
}

// A merged block: its colour, with a lighter pixel column every third so it reads as many
// slices side by side (the tooltip says how many). One pattern fill over the colour.
void fillMerged(PainterFrame& f, const QRect& rc, QRgb col) {
    static const QBrush stripes = [] {
        QImage img(3, 1, QImage::Format_ARGB32);
        img.fill(Qt::transparent);
        img.setPixel(2, 0, qRgba(255, 255, 255, 110));
        return QBrush(img);
    }();
    f.p.fillRect(rc, QColor::fromRgb(col));
    f.p.fillRect(rc, stripes);
}

void paintDepth(PainterFrame& f, const Track& track, const TrackLod& lod, uint16_t depth, int y) {
    constexpr int H = TrackLayout::kDepthHeight;
    const SliceColumns& c = track.slices;
    f.spans.clear();
    lod.query(track, depth, f.tq0, f.tq1, f.level, f.spans);
    for (const LodSpan& sp : f.spans) {
        QRect rc = f.s.spanRect(sp.start, sp.end, y + 1, H - 2);
        const QRgb col = f.c.color(c.name[sp.slice], c.kind[sp.slice]);
        rc = rc.intersected(QRect(-2, rc.y(), f.w + 4, rc.height()));
        if (sp.merged) {
            fillMerged(f, rc, mergedColor(col));
            continue;
        }
        f.p.fillRect(rc, QColor::fromRgb(col));
        if (rc.width() >= kMinLabelWidth) drawLabel(f, rc, c.name[sp.slice], col);
    }
}

// The one slice of `depth` in view (kNoSlice if none).
SliceIndex soleSlice(const PainterFrame& f, const Track& track, const TrackLod& lod,
                     uint16_t depth) {
    const uint32_t p = lod.firstNotBefore(track, depth, f.tq0);
    return p < lod.countAt(depth) ? lod.sliceAtDepth(depth, p) : kNoSlice;
}

// A folded level: the outermost slice of the run in grey, its innermost slice over it, labelled
// "N levels: <innermost name>".
void paintFold(PainterFrame& f, const Track& track, const TrackLod& lod, DepthFold fold, int y) {
    constexpr int H = TrackLayout::kDepthHeight;
    const SliceColumns& c = track.slices;
    const SliceIndex outer = soleSlice(f, track, lod, fold.first);
    const SliceIndex inner = soleSlice(f, track, lod, uint16_t(fold.first + fold.count - 1));
    if (outer == kNoSlice || inner == kNoSlice) return;
    const QRect clip(-2, y, f.w + 4, H);
    const QRect ro = f.s.spanRect(c.start[outer], c.end(outer), y + 1, H - 2).intersected(clip);
    f.p.fillRect(ro, QColor::fromRgb(kFoldFill));
    f.p.fillRect(QRect(ro.left(), ro.bottom(), ro.width(), 1), QColor::fromRgb(kFoldEdge));
    const QRect ri = f.s.spanRect(c.start[inner], c.end(inner), y + 1, H - 3).intersected(clip);
    const QRgb col = f.c.color(c.name[inner], c.kind[inner]);
    f.p.fillRect(ri, QColor::fromRgb(col));
    const QRect vis = ri.intersected(QRect(0, ri.y(), f.w, ri.height())).adjusted(3, 0, -3, 0);
    if (vis.width() < kMinLabelWidth - 6) return;
    const QString text =
        QStringLiteral("%1 levels: %2").arg(fold.count).arg(f.c.label(c.name[inner]));
    f.p.setPen(QColor::fromRgb(textColorOn(col)));
    f.pen = textColorOn(col);
    f.p.drawText(vis, Qt::AlignLeft | Qt::AlignVCenter,
                 f.fm.elidedText(text, Qt::ElideRight, vis.width()));
}

// A lane whose summary the worker is still building (lod/lod_cache.h): its levels hatched over
// the trace's extent, the first saying so; the frame that follows its summary draws it whole.
void paintPending(PainterFrame& f, const Track& track, int y, int levels) {
    constexpr int H = TrackLayout::kDepthHeight;
    const int x0 = std::max(0, f.xTraceStart), x1 = std::min(f.w, f.xTraceEnd);
    if (x1 <= x0) return;
    const QColor muted = themeColors().mutedText;
    const QBrush hatch(muted, Qt::BDiagPattern);
    for (int level = 0; level < levels; ++level) {
        const int ly = y + level * H;
        if (ly + H <= 0 || ly >= f.h) continue;
        f.p.fillRect(QRect(x0, ly + 1, x1 - x0, H - 2), hatch);
    }
    if (y + H <= 0 || y >= f.h) return;
    const QString text = QObject::tr("summarising %L1 slices\u2026").arg(track.slices.size());
    const QRect rc =
        QRect(x0, y + 1, f.fm.horizontalAdvance(text) + 8, H - 2).intersected(QRect(0, y, f.w, H));
    f.p.fillRect(rc, themeColors().background);
    f.p.setPen(muted);
    f.pen = muted.rgba();
    f.p.drawText(rc.adjusted(4, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, text);
}

} // namespace

void paintSliceLevels(PainterFrame& f, const TrackRow& r, int top) {
    constexpr int H = TrackLayout::kDepthHeight;
    const bool folded = r.thread && !r.expanded;
    for (size_t l = 0; l < r.lanes.size(); ++l) {
        const TrackId id = r.lanes[l];
        const Track& track = f.trace.track(id);
        const TrackLod* summary = f.c.lod(id);
        if (!summary) {
            paintPending(f, track, top + r.laneY[l], r.laneDepths[l]);
            continue;
        }
        const TrackLod& lod = *summary;
        const LaneFolds* folds = folded && l < r.folds.size() ? &r.folds[l] : nullptr;
        for (int level = 0; level < r.laneDepths[l]; ++level) {
            const int y = top + r.laneY[l] + level * H;
            if (y + H <= 0 || y >= f.h) continue;
            const DepthFold d = folds ? depthsOfLevel(level, *folds) : DepthFold{uint16_t(level)};
            if (d.count > 1)
                paintFold(f, track, lod, d, y);
            else
                paintDepth(f, track, lod, d.first, y);
        }
    }
}

} // namespace strata
