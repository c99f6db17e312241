#include "instant_marks.h"

#include "model/counter_units.h"
#include "model/names/time_text.h"
#include "style/qt_text.h"
#include "timeline/timeline_state.h"

#include <algorithm>
#include <cmath>

namespace strata {

namespace {

constexpr int kHitPixels = 2;

TrackId stripTrack(const TimelineState& s, int row) {
    const TrackRow& r = s.layout.rows()[size_t(row)];
    return r.lanes.empty() ? UINT32_MAX : r.lanes.front();
}

// Args that count bytes (PyTorch's [memory]: Bytes, Total Allocated, Total Reserved).
bool isByteCount(std::string_view key) {
    return key == "Bytes" || key.find("Allocated") != std::string_view::npos ||
           key.find("Reserved") != std::string_view::npos;
}

} // namespace

void paintInstantMarks(QPainter& p, const TimelineState& s, const Track& track, int y, int width,
                       QColor col) {
    const auto& ts = track.instants.ts;
    const double npp = s.axis.nsPerPixel();
    const TimeNs pad = TimeNs(std::ceil(2 * npp)) + 1;
    const TimeRange v = s.axis.visible();
    size_t i = size_t(std::lower_bound(ts.begin(), ts.end(), v.start - pad) - ts.begin());
    while (i < ts.size() && ts[i] < v.end + pad) {
        const int x = int(std::floor(s.axis.xForTime(ts[i])));
        if (x > width) break;
        p.fillRect(QRect(x, y + 2, 2, TrackLayout::kInstantHeight - 4), col);
        const TimeNs next = s.axis.timeForX(x + 2);
        i = std::max(i + 1, size_t(std::lower_bound(ts.begin(), ts.end(), next) - ts.begin()));
    }
}

InstantRef instantAt(const TimelineState& s, QPoint pos) {
    if (!s.trace) return {};
    const int y = pos.y() + s.scrollY;
    const int row = s.layout.rowAt(y);
    const int top = s.layout.instantsY(row);
    if (top < 0 || y < top || y >= top + TrackLayout::kInstantHeight) return {};
    const TrackId id = stripTrack(s, row);
    if (id == UINT32_MAX) return {};
    const auto& ts = s.trace->track(id).instants.ts;
    const TimeNs t0 = s.axis.timeForX(pos.x() - kHitPixels - 1);
    const TimeNs t1 = s.axis.timeForX(pos.x() + kHitPixels);
    size_t best = ts.size();
    double bestDist = kHitPixels + 1;
    for (size_t i = size_t(std::lower_bound(ts.begin(), ts.end(), t0) - ts.begin());
         i < ts.size() && ts[i] <= t1; ++i) {
        const double d = std::fabs(std::floor(s.axis.xForTime(ts[i])) + 0.5 - pos.x());
        if (d < bestDist) bestDist = d, best = i;
    }
    return best < ts.size() ? InstantRef{id, uint32_t(best)} : InstantRef{};
}

QRect instantRect(const TimelineState& s, InstantRef r) {
    if (!s.trace || !r.valid() || r.track >= s.trace->tracks().size()) return {};
    const Track& t = s.trace->track(r.track);
    if (r.index >= t.instants.size()) return {};
    const int top = s.layout.instantsY(s.layout.rowOfTrack(r.track));
    if (top < 0) return {};
    const int x = int(std::floor(s.axis.xForTime(t.instants.ts[r.index])));
    return QRect(x - 1, top - s.scrollY + 1, 4, TrackLayout::kInstantHeight - 2);
}

QString instantTooltip(const Trace& t, InstantRef r) {
    const InstantColumns& in = t.track(r.track).instants;
    QString tip =
        QStringLiteral("%1\nat %2")
            .arg(toQString(t.str(in.name[r.index])),
                 QString::fromStdString(formatPreciseDuration(in.ts[r.index] - t.bounds().start)));
    for (const Arg& a : t.args(in.args[r.index])) {
        const std::string_view key = t.str(a.key);
        QString value = QString::fromStdString(a.value.toString());
        if (a.value.isNumber() && isByteCount(key))
            value =
                QString::fromStdString(formatCounterValue(a.value.toDouble(), CounterUnit::Bytes));
        else if (key == "Addr" &&
                 (a.value.type == ArgValue::Type::Int || a.value.type == ArgValue::Type::UInt))
            value = QStringLiteral("0x%1").arg(
                a.value.type == ArgValue::Type::Int ? quint64(a.value.i) : quint64(a.value.u), 0,
                16);
        tip += QStringLiteral("\n%1: %2").arg(toQString(key), value);
    }
    return tip;
}

} // namespace strata
