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

} // namespace

void paintSampleLane(QPainter& p, const TimelineState& s, TimelineRenderCache& c,
                     const SampleThread& thread, TimeNs period, int y, int height, int width) {
    const StackSamples& ss = s.trace->stackSamples();
    const Rows rows = rowsOf(ss, thread);
    const double npp = s.axis.nsPerPixel();
    const TimeNs pad = TimeNs(std::ceil(2 * npp)) + 1;
    const TimeRange v = s.axis.visible();
    const int h = height - 2;
    auto it = std::lower_bound(rows.begin, rows.end, v.start - period - pad);
    while (it != rows.end && *it < v.end + pad) {
        const auto row = size_t(it - ss.ts.begin());
        const int x = int(std::floor(s.axis.xForTime(*it)));
        if (x > width) break;
        const TimeNs end = it + 1 != rows.end ? std::min(*it + period, *(it + 1)) : *it + period;
        const int x1 = std::max(x + 1, int(std::floor(s.axis.xForTime(end))));
        // A gap of a pixel between ticks wide enough to tell apart.
        const int w = x1 - x >= 4 ? x1 - x - 1 : x1 - x;
        // A stack taken at a CUDA call says where the call came from, not where time went.
        if (const CallsiteId site = ss.callsite[row];
            site != kNoCallsite && ss.kind[row] != uint8_t(StackKind::ApiCall)) {
            const QRgb col = c.color(ss.callsiteFrame[site], SliceKind::PythonFunction);
            p.fillRect(QRect(std::max(x, -1), y + 1, std::min(w, width + 2), h),
                       QColor::fromRgb(col));
        }
        // The next sample drawn starts in the next pixel column.
        const TimeNs next = s.axis.timeForX(x + 1);
        it = std::max(it + 1, std::lower_bound(it, rows.end, next));
    }
}

SampleHit sampleAt(const TimelineState& s, QPoint pos, TimeNs period) {
    if (!s.trace) return {};
    const int y = pos.y() + s.scrollY;
    const int row = s.layout.rowAt(y);
    int height = 0;
    const int top = s.layout.samplesY(row, &height);
    if (top < 0 || y < top || y >= top + height) return {};
    const StackSamples& ss = s.trace->stackSamples();
    const SampleThread& thread = ss.threads[size_t(s.layout.rows()[size_t(row)].sampleThread)];
    const Rows rows = rowsOf(ss, thread);
    // The last sample starting at or before the mouse (two pixels of slack), if its tick (at
    // least a pixel wide) reaches the mouse within two pixels.
    const TimeNs t = s.axis.timeForX(pos.x() + kHitPixels + 1);
    auto it = std::upper_bound(rows.begin, rows.end, t);
    if (it == rows.begin) return {};
    --it;
    const TimeNs end = it + 1 != rows.end ? std::min(*it + period, *(it + 1)) : *it + period;
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
