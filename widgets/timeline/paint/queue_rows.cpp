#include "queue_rows.h"

#include "model/names/time_text.h"
#include "timeline/timeline_state.h"

#include <algorithm>

namespace strata {

void QueueRows::build(LaunchQueue queue) {
    streams_.clear();
    for (StreamQueue& q : queue.streams) streams_[{q.device, q.stream}] = std::move(q);
}

const StreamQueue* QueueRows::stream(int32_t device, int64_t stream) const {
    const auto it = streams_.find({device, stream});
    return it == streams_.end() ? nullptr : &it->second;
}

int64_t QueueRows::lengthAt(const StreamQueue& q, TimeNs t) {
    const auto it = std::upper_bound(q.series.begin(), q.series.end(), t,
                                     [](TimeNs v, const QueuePoint& p) { return v < p.time; });
    return it == q.series.begin() ? 0 : std::prev(it)->length;
}

void paintQueue(QPainter& p, const TimelineState& s, const TrackRow& r, int top, int width) {
    const StreamQueue* q = s.queues.stream(r.device, r.stream);
    if (!q || q->maxLength <= 0) return;
    const int h = TrackLayout::kQueueHeight;
    const QColor fill(0x9c, 0x75, 0x5f);
    // Each pixel column as high as the longest the queue was in it.
    const TimeNs first = s.axis.timeForX(0);
    auto it = std::upper_bound(q->series.begin(), q->series.end(), first,
                               [](TimeNs v, const QueuePoint& pt) { return v < pt.time; });
    int64_t current = it == q->series.begin() ? 0 : std::prev(it)->length;
    for (int x = 0; x < width; ++x) {
        const TimeNs t1 = s.axis.timeForX(x + 1);
        int64_t most = current;
        for (; it != q->series.end() && it->time < t1; ++it) {
            current = it->length;
            most = std::max(most, current);
        }
        if (most <= 0) continue;
        const int hp = std::max(1, int(double(most) / double(q->maxLength) * (h - 1) + 0.5));
        p.fillRect(QRect(x, top + h - hp, 1, hp), fill);
    }
    // The scale, on a light ground so that it reads over the bars.
    const QString label = QStringLiteral("max %1").arg(q->maxLength);
    const QRect box(2, top, p.fontMetrics().horizontalAdvance(label) + 6, p.fontMetrics().height());
    p.fillRect(box, QColor(255, 255, 255, 200));
    p.setPen(QColor(0x55, 0x55, 0x55));
    p.drawText(box, Qt::AlignCenter, label);
}

QString queueTooltip(const StreamQueue& q, TimeNs t) {
    return QStringLiteral("launch queue of stream %1: %2 launched, not started\n"
                          "most %3, for %4 in all; %5 ops launched (HTA's queue length)")
        .arg(q.stream)
        .arg(QueueRows::lengthAt(q, t))
        .arg(q.maxLength)
        .arg(QString::fromStdString(formatDuration(q.timeAtMax)))
        .arg(q.launches);
}

} // namespace strata
