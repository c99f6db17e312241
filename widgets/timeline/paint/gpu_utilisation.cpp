#include "gpu_utilisation.h"

#include "analysis/ops/gpu_ops.h"
#include "model/names/time_text.h"
#include "timeline/timeline_state.h"

#include <algorithm>

namespace strata {

void GpuUtilisation::build(const GpuOpList& ops) {
    devices_.clear();
    for (const BusySegment& s : deviceBusySegments(ops.ops)) {
        Device& d = devices_[s.device];
        d.before.push_back(d.before.empty() ? 0
                                            : d.before.back() + (d.end.back() - d.start.back()));
        d.start.push_back(s.start);
        d.end.push_back(s.end);
    }
}

TimeNs GpuUtilisation::busyBefore(const Device& d, TimeNs t) const {
    // Segments ending at or before t count whole; one containing t counts up to t.
    const size_t i = size_t(std::upper_bound(d.start.begin(), d.start.end(), t) - d.start.begin());
    if (i == 0) return 0;
    return d.before[i - 1] + std::min(t, d.end[i - 1]) - d.start[i - 1];
}

TimeNs GpuUtilisation::busyBetween(int32_t device, TimeNs t0, TimeNs t1) const {
    const auto it = devices_.find(device);
    if (it == devices_.end() || t1 <= t0) return 0;
    return busyBefore(it->second, t1) - busyBefore(it->second, t0);
}

void paintUtilisation(QPainter& p, const TimelineState& s, const GpuUtilisation& u,
                      const TrackRow& r, int top, int width) {
    const int h = TrackLayout::kUtilisationHeight;
    const QColor fill(0x3b, 0x8e, 0x9e), grid(0xe4, 0xe7, 0xeb);
    p.fillRect(QRect(0, top + h / 2, width, 1), grid); // the 50 % line
    int runX = 0, runH = -1;
    for (int x = 0; x <= width; ++x) {
        int hp = 0;
        if (x < width) {
            const TimeNs t0 = s.axis.timeForX(x), t1 = std::max(s.axis.timeForX(x + 1), t0 + 1);
            const double share = double(u.busyBetween(r.device, t0, t1)) / double(t1 - t0);
            hp = int(std::clamp(share, 0.0, 1.0) * (h - 1) + 0.5);
        }
        if (hp != runH || x == width) {
            if (runH > 0) p.fillRect(QRect(runX, top + h - runH, x - runX, runH), fill);
            runX = x;
            runH = hp;
        }
    }
}

void GpuUtilisation::setBreakdown(const GpuTimeBreakdown& b) {
    splits_.clear();
    for (const DeviceTimeBreakdown& d : b.devices) splits_[d.device] = d.split;
}

const GpuTimeSplit* GpuUtilisation::split(int32_t device) const {
    const auto it = splits_.find(device);
    return it == splits_.end() ? nullptr : &it->second;
}

QString deviceTimeTooltip(int32_t device, const GpuTimeSplit& s) {
    auto line = [&](const char* what, TimeNs t) {
        return QStringLiteral("\n  %1 %2 (%3 %)")
            .arg(what, QString::fromStdString(formatDuration(t)))
            .arg(s.total > 0 ? 100.0 * double(t) / double(s.total) : 0.0, 0, 'f', 1);
    };
    return QStringLiteral("GPU %1: %2 from its first op to its last")
               .arg(device)
               .arg(QString::fromStdString(formatDuration(s.total))) +
           line("computation", s.computation) + line("exposed communication", s.exposedComm) +
           line("exposed memcpy", s.exposedMemcpy) + line("idle", s.idle) +
           QStringLiteral("\ncommunication %1 in all, memcpy %2 (Statistics, GPU Time)")
               .arg(QString::fromStdString(formatDuration(s.communication)),
                    QString::fromStdString(formatDuration(s.memcpy)));
}

} // namespace strata
