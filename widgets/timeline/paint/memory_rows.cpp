#include "memory_rows.h"

#include "analysis/trace_analysis.h"
#include "model/counter_units.h"
#include "model/names/time_text.h"
#include "timeline/timeline_state.h"

#include <algorithm>
#include <cmath>

namespace strata {

namespace {

constexpr QRgb kReserved = 0xffc6d9ee;
constexpr QRgb kAllocated = 0xff3f79b5;
constexpr QRgb kPeak = 0xffd6453a;

QString bytes(int64_t b) {
    return QString::fromStdString(formatCounterValue(double(b), CounterUnit::Bytes));
}

QString at(const TimelineState& s, TimeNs t) {
    return QString::fromStdString(formatPreciseDuration(t - s.trace->bounds().start));
}

// Fills columns [x0, x) as high as `v` of `scale`, in `col`.
struct Runs {
    QPainter& p;
    int bottom, h;
    double scale;
    QRgb col;
    int runX = 0, runH = 0;
    void add(int x, int64_t v) {
        const int hp = v <= 0 ? 0 : std::max(1, int(std::lround(double(v) / scale * h)));
        if (hp == runH) return;
        flush(x);
        runX = x;
        runH = hp;
    }
    void flush(int x) {
        if (runH > 0) p.fillRect(QRect(runX, bottom - runH, x - runX, runH), QColor::fromRgb(col));
    }
};

constexpr int kLabelHeight = 14;
constexpr int kLabelGap = 6; // between the peak's line and its label, and the legend and it

QString legendText(const MemorySeries& m) {
    return m.hasReserved ? QStringLiteral("allocated · reserved (max %1)")
                               .arg(bytes(m.samples[m.reservedPeak].reserved))
                         : QStringLiteral("allocated");
}

// The peak's line, its mark and its label (where memoryLabelRects puts it).
void drawPeak(QPainter& p, const TimelineState& s, const MemorySeries& m, int top, int h,
              int width) {
    const MemorySample& peak = m.samples[m.peak];
    const int x = int(std::floor(s.axis.xForTime(peak.ts)));
    if (x < -1 || x > width) return;
    p.fillRect(QRect(x, top + 1, 1, h), QColor::fromRgb(kPeak));
    QPolygon tri;
    tri << QPoint(x - 4, top + 1) << QPoint(x + 5, top + 1) << QPoint(x, top + 6);
    p.setPen(Qt::NoPen);
    p.setBrush(QColor::fromRgb(kPeak));
    p.drawPolygon(tri);
    const QString text = QStringLiteral("peak %1").arg(bytes(peak.allocated));
    const QRect box = memoryLabelRects(p.fontMetrics(), legendText(m), text, x, top, width).peak;
    if (box.top() > top + 1) // on the second line, over the bands: on a light ground
        p.fillRect(box.adjusted(-2, 0, 2, 0), QColor(255, 255, 255, 210));
    p.setPen(QColor::fromRgb(kPeak));
    p.drawText(box, Qt::AlignVCenter | Qt::AlignLeft, text);
}

} // namespace

void MemoryRows::build(std::shared_ptr<const TraceAnalysis> analysis) {
    analysis_ = std::move(analysis);
}

const MemorySeries* MemoryRows::series(int32_t device) const {
    return analysis_ ? analysis_->memory().of(device) : nullptr;
}

std::vector<int32_t> MemoryRows::gpuDevices() const {
    std::vector<int32_t> out;
    if (analysis_)
        for (const MemorySeries& m : analysis_->memory().series)
            if (m.device >= 0 && !m.samples.empty()) out.push_back(m.device);
    return out;
}

void paintMemory(QPainter& p, const TimelineState& s, const TrackRow& r, int top, int width) {
    const MemorySeries* m = s.memory.series(r.device);
    if (!m || m->samples.empty()) return;
    const int h = TrackLayout::kMemoryHeight - 2, bottom = top + 1 + h;
    const auto& v = m->samples;
    const double scale = double(std::max<int64_t>(
        1, std::max(v[m->peak].allocated, m->hasReserved ? v[m->reservedPeak].reserved : 0)));
    const int xEnd = std::min(width, int(std::ceil(s.axis.xForTime(s.trace->bounds().end))));
    // The most held in each column (what was held at its start, and every event in it).
    std::vector<int64_t> held(size_t(std::max(0, xEnd)), 0), kept(held.size(), 0);
    ptrdiff_t j = sampleAt(*m, s.axis.timeForX(0));
    for (int x = 0; x < xEnd; ++x) {
        const TimeNs t1 = std::max(s.axis.timeForX(x + 1), s.axis.timeForX(x) + 1);
        int64_t a = j >= 0 ? v[size_t(j)].allocated : 0, rs = j >= 0 ? v[size_t(j)].reserved : 0;
        while (j + 1 < ptrdiff_t(v.size()) && v[size_t(j + 1)].ts < t1) {
            ++j;
            a = std::max(a, v[size_t(j)].allocated);
            rs = std::max(rs, v[size_t(j)].reserved);
        }
        held[size_t(x)] = a;
        kept[size_t(x)] = rs;
    }
    // Reserved first: the allocated band (never above it) is drawn over it.
    for (const auto& [values, col] : {std::pair{&kept, kReserved}, std::pair{&held, kAllocated}}) {
        Runs runs{p, bottom, h, scale, col};
        for (int x = 0; x < xEnd; ++x) runs.add(x, (*values)[size_t(x)]);
        runs.flush(std::max(0, xEnd));
    }
    drawPeak(p, s, *m, top, h, width);
    const QString legend = legendText(*m);
    p.setPen(QColor(90, 90, 90));
    p.drawText(memoryLabelRects(p.fontMetrics(), legend, QString(), -1, top, width).legend,
               Qt::AlignLeft | Qt::AlignVCenter, legend);
}

MemoryLabelRects memoryLabelRects(const QFontMetrics& fm, const QString& legend,
                                  const QString& peak, int peakX, int top, int width) {
    MemoryLabelRects out;
    out.legend = QRect(4, top + 1, fm.horizontalAdvance(legend), kLabelHeight);
    const int tw = fm.horizontalAdvance(peak);
    const QRect right(peakX + kLabelGap, top + 1, tw, kLabelHeight);
    const QRect left(peakX - kLabelGap - tw, top + 1, tw, kLabelHeight);
    const QRect clear = out.legend.adjusted(0, 0, kLabelGap, 0); // the legend and a gap after it
    if (right.right() < width && !right.intersects(clear)) {
        out.peak = right;
    } else if (left.left() >= 0 && !left.intersects(clear)) {
        out.peak = left;
    } else { // the second line, beside the line where it fits, inside the row
        const int x = peakX + kLabelGap + tw <= width ? peakX + kLabelGap : peakX - kLabelGap - tw;
        out.peak = QRect(std::clamp(x, 0, std::max(0, width - tw)), top + 1 + kLabelHeight + 2, tw,
                         kLabelHeight);
    }
    return out;
}

QString memoryTooltip(const TimelineState& s, const TrackRow& r, TimeNs t) {
    const MemorySeries* m = s.memory.series(r.device);
    if (!m) return {};
    const ptrdiff_t i = sampleAt(*m, t);
    const MemorySample& peak = m->samples[m->peak];
    QString tip = QStringLiteral("GPU %1 memory\npeak %2 allocated at %3")
                      .arg(r.device)
                      .arg(bytes(peak.allocated), at(s, peak.ts));
    if (i < 0) return tip + QStringLiteral("\n(no allocation before this time)");
    const MemorySample& x = m->samples[size_t(i)];
    tip += QStringLiteral("\nat %1: %2 allocated").arg(at(s, t), bytes(x.allocated));
    if (x.reserved >= 0) tip += QStringLiteral(", %1 reserved").arg(bytes(x.reserved));
    if (x.bytes != 0)
        tip += QStringLiteral("\nlast event: %1 %2%3 at %4")
                   .arg(x.bytes > 0 ? QStringLiteral("allocated") : QStringLiteral("freed"))
                   .arg(bytes(std::abs(x.bytes)))
                   .arg(x.addr ? QStringLiteral(" at 0x%1").arg(x.addr, 0, 16) : QString())
                   .arg(at(s, x.ts));
    return tip;
}

} // namespace strata
