#include "sample_lanes.h"

#include "model/names/time_text.h"
#include "render_cache.h"
#include "style/frame_text.h"
#include "style/qt_text.h"
#include "timeline/timeline_state.h"

#include <algorithm>
#include <cmath>

namespace strata {

namespace {

constexpr int kHitPixels = 2;

// Rows [first, last) of the samples columns of `thread`.
struct Rows {
    std::vector<TimeNs>::const_iterator begin, end;
};
Rows rowsOf(const StackSamples& ss, const SampleThread& t) {
    return {ss.ts.begin() + std::ptrdiff_t(t.first), ss.ts.begin() + std::ptrdiff_t(t.end())};
}

// Where the tick of the sample at `it` ends: a period later, or at the next sample of its kind
// when that comes sooner.
TimeNs tickEnd(const StackSamples& ss, const Rows& rows, std::vector<TimeNs>::const_iterator it,
               uint8_t kind, TimeNs period) {
    const auto next = it + 1;
    if (next == rows.end || ss.kind[size_t(next - ss.ts.begin())] != kind) return *it + period;
    return std::min(*it + period, *next);
}

} // namespace

void paintSampleLane(QPainter& p, const TimelineState& s, TimelineRenderCache& c,
                     const SampleThread& thread, int y, int height, int width) {
    const StackSamples& ss = s.trace->stackSamples();
    const Rows rows = rowsOf(ss, thread);
    const uint8_t kind = c.sampleTimeKind(thread);
    const TimeNs period = c.samplePeriod(kind);
    const double npp = s.axis.nsPerPixel();
    const TimeNs pad = TimeNs(std::ceil(2 * npp)) + 1;
    const TimeRange v = s.axis.visible();
    const int h = height - 2;
    auto it = std::lower_bound(rows.begin, rows.end, v.start - period - pad);
    while (it != rows.end && *it < v.end + pad) {
        const auto row = size_t(it - ss.ts.begin());
        if (ss.kind[row] != kind) { // the other kind of the same time, or a CUDA call's stack
            ++it;
            continue;
        }
        const int x = int(std::floor(s.axis.xForTime(*it)));
        if (x > width) break;
        const TimeNs end = tickEnd(ss, rows, it, kind, period);
        const int x1 = std::max(x + 1, int(std::floor(s.axis.xForTime(end))));
        // A gap of a pixel between ticks wide enough to tell apart.
        const int w = x1 - x >= 4 ? x1 - x - 1 : x1 - x;
        if (const CallsiteId site = ss.callsite[row]; site != kNoCallsite) {
            const QRgb col = c.color(ss.callsiteFrame[site], SliceKind::PythonFunction);
            p.fillRect(QRect(std::max(x, -1), y + 1, std::min(w, width + 2), h),
                       QColor::fromRgb(col));
        }
        // The next sample drawn starts in the next pixel column.
        const TimeNs next = s.axis.timeForX(x + 1);
        it = std::max(it + 1, std::lower_bound(it, rows.end, next));
    }
}

SampleHit sampleAt(const TimelineState& s, QPoint pos, const TimelineRenderCache& c) {
    if (!s.trace) return {};
    const int y = pos.y() + s.scrollY;
    const int row = s.layout.rowAt(y);
    int height = 0;
    const int top = s.layout.samplesY(row, &height);
    if (top < 0 || y < top || y >= top + height) return {};
    const StackSamples& ss = s.trace->stackSamples();
    const SampleThread& thread = ss.threads[size_t(s.layout.rows()[size_t(row)].sampleThread)];
    const Rows rows = rowsOf(ss, thread);
    const uint8_t kind = c.sampleTimeKind(thread);
    const TimeNs period = c.samplePeriod(kind);
    // The last sample of the lane's kind starting at or before the mouse (two pixels of
    // slack), if its tick (at least a pixel wide) reaches the mouse within two pixels.
    const TimeNs t = s.axis.timeForX(pos.x() + kHitPixels + 1);
    auto it = std::upper_bound(rows.begin, rows.end, t);
    do {
        if (it == rows.begin) return {};
        --it;
    } while (ss.kind[size_t(it - ss.ts.begin())] != kind);
    const TimeNs end = tickEnd(ss, rows, it, kind, period);
    const double x = s.axis.xForTime(*it);
    const double x1 = std::max(x + 1, s.axis.xForTime(end));
    if (pos.x() >= x1 + kHitPixels) return {};
    return {&thread, uint64_t(it - rows.begin)};
}

QString sampleTooltip(const Trace& t, const SampleThread& thread, uint64_t index) {
    const StackSamples& ss = t.stackSamples();
    const size_t row = thread.first + index;
    QString tip =
        QStringLiteral("%1 sample at %2")
            .arg(toQString(stackKindName(ss.kind[row])),
                 QString::fromStdString(formatPreciseDuration(ss.ts[row] - t.bounds().start)));
    const std::vector<StringId> stack = ss.stackAt(thread, index);
    if (stack.empty()) return tip + QStringLiteral("\n(no frame)");
    for (auto it = stack.rbegin(); it != stack.rend(); ++it)
        tip += QStringLiteral("\n") + sampleFrameText(t.str(*it));
    return tip;
}

} // namespace strata
