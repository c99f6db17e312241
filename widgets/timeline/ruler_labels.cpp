#include "ruler_labels.h"

#include "model/names/time_text.h"

#include <cmath>
#include <cstdlib>

namespace strata {

namespace {

// The labels of ticks `step` apart (text and tick x), first tick at or after the visible start.
std::vector<RulerTicks::Label> labelsFor(const TimeAxis& axis, TimeNs origin, TimeNs step,
                                         const QFontMetrics& fm, int height, int* widest) {
    std::vector<RulerTicks::Label> out;
    const TimeRange v = axis.visible();
    const TimeNs rel0 = v.start - origin, rel1 = v.end - origin;
    const TimeNs unitOf = std::max<TimeNs>(std::llabs(rel1), step);
    TimeNs t = (rel0 / step) * step;
    if (t < rel0) t += step;
    *widest = 0;
    for (; t <= rel1; t += step) {
        const int x = int(std::lround(axis.xForTime(origin + t)));
        const QString text = QString::fromStdString(formatTick(t, step, unitOf));
        const int w = fm.horizontalAdvance(text);
        *widest = std::max(*widest, w);
        out.push_back({x, QRect(x + 3, 0, w + 1, height - 6), text});
    }
    return out;
}

} // namespace

RulerTicks rulerTicks(const TimeAxis& axis, TimeNs origin, const QFontMetrics& fm, int width,
                      int height) {
    RulerTicks r;
    double minPixels = kMinTickPixels;
    int widest = 0;
    // Widen the step until the widest label (its decimals depend on the step) fits between two
    // ticks with room to spare; three rounds settle it.
    for (int round = 0; round < 4; ++round) {
        r.step = chooseTickStep(axis.nsPerPixel(), minPixels);
        r.labels = labelsFor(axis, origin, r.step, fm, height, &widest);
        const double px = double(r.step) / axis.nsPerPixel();
        if (widest + 3 + kLabelGap <= px) break;
        minPixels = widest + 3 + kLabelGap + 1;
    }
    r.minor = r.step % 5 == 0 ? r.step / 5 : (r.step % 2 == 0 ? r.step / 2 : 0);
    // The last label left of its tick where the right edge would cut it; a label that would
    // still touch the one before it is left out.
    std::vector<RulerTicks::Label> kept;
    for (RulerTicks::Label& l : r.labels) {
        if (l.rect.right() >= width) l.rect.moveRight(l.tickX - 3);
        if (l.rect.left() < 0 || l.rect.right() >= width) continue;
        if (!kept.empty() && l.rect.left() < kept.back().rect.right() + 1 + kLabelGap) continue;
        kept.push_back(std::move(l));
    }
    r.labels = std::move(kept);
    return r;
}

} // namespace strata
