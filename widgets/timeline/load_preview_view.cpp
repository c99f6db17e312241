#include "timeline/load_preview_view.h"

#include "model/names/time_text.h"
#include "style/theme.h"

#include <QPaintEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace strata {
namespace {

constexpr int kLabelWidth = 170; // the track names' column
constexpr int kRulerHeight = 22;
constexpr int kRowHeight = 16;
constexpr int kRowGap = 3;

QString laneName(const PreviewLane& l) {
    if (l.gpu) return QStringLiteral("GPU %1  stream %2").arg(l.device).arg(l.stream);
    // A pid or tid given as text gets a made-up id of 2^48 and up (io/json): not shown.
    constexpr int64_t kNamed = int64_t(1) << 48;
    const QString pid = l.pid >= kNamed ? QStringLiteral("named") : QString::number(l.pid);
    const QString tid = l.tid >= kNamed ? QStringLiteral("named") : QString::number(l.tid);
    return QStringLiteral("pid %1  tid %2").arg(pid, tid);
}

// A tick step of 1, 2 or 5 x 10^k ns giving about `target` ticks over `span`.
TimeNs tickStep(TimeNs span, int target) {
    const double raw = double(std::max<TimeNs>(span, 1)) / std::max(target, 1);
    const double p = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * p >= raw) return std::max<TimeNs>(1, TimeNs(m * p));
    return TimeNs(10 * p);
}

} // namespace

LoadPreviewView::LoadPreviewView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("loadPreview"));
    setToolTip(tr("What has been read so far: each GPU stream's busy share and each CPU "
                  "thread's activity over time; the timeline replaces it when the trace is "
                  "loaded"));
    setMinimumHeight(120);
}

void LoadPreviewView::setPreview(std::shared_ptr<const LoadPreview> preview) {
    preview_ = std::move(preview);
    update();
}

void LoadPreviewView::clear() {
    preview_.reset();
    update();
}

void LoadPreviewView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const ThemeColors c = themeColors();
    p.fillRect(rect(), c.background);
    if (!preview_ || preview_->empty()) return;
    const LoadPreview& v = *preview_;
    // The time read so far, [first, last), across the width right of the names.
    const TimeNs first = v.first, span = std::max<TimeNs>(v.last - v.first, 1);
    const int x0 = kLabelWidth, w = std::max(1, width() - kLabelWidth - 8);
    const auto xOf = [&](TimeNs t) { return x0 + double(t - first) / double(span) * w; };

    p.fillRect(QRect(0, 0, width(), kRulerHeight), c.ruler);
    p.setPen(c.rulerText);
    p.drawText(QRect(8, 0, kLabelWidth - 12, kRulerHeight), Qt::AlignVCenter | Qt::AlignLeft,
               tr("Read so far (%1 %)").arg(qRound(v.fraction * 100)));
    const TimeNs step = tickStep(span, std::max(2, w / 120));
    for (TimeNs t = 0; t <= span; t += step) {
        const int x = int(xOf(first + t));
        p.setPen(c.rulerTick);
        p.drawLine(x, kRulerHeight - 6, x, kRulerHeight);
        const QString label = QString::fromStdString(formatTick(t, step, span));
        if (x + 3 + p.fontMetrics().horizontalAdvance(label) > width()) break; // cut at the edge
        p.setPen(c.rulerText);
        p.drawText(x + 3, kRulerHeight - 8, label);
    }

    const QColor gpu(64, 140, 214), cpu = c.dark ? QColor(150, 150, 160) : QColor(110, 118, 130);
    int y = kRulerHeight + 4;
    const size_t bins = v.lanes.empty() ? 0 : v.lanes.front().busy.size();
    for (const PreviewLane& lane : v.lanes) {
        if (y > height()) break;
        p.setPen(c.treeText);
        p.drawText(QRect(8, y, kLabelWidth - 12, kRowHeight), Qt::AlignVCenter | Qt::AlignLeft,
                   laneName(lane));
        const QColor base = lane.gpu ? gpu : cpu;
        for (size_t b = 0; b < bins; ++b) {
            const float busy = lane.busy[b];
            if (busy <= 0) continue;
            const TimeNs t0 = v.start + TimeNs(b) * v.binWidth;
            const double xa = std::max(xOf(t0), double(x0)),
                         xb = std::min(xOf(t0 + v.binWidth), double(x0 + w));
            if (xb <= xa) continue;
            // Busy share as height for GPU lanes (utilisation), as shade for threads.
            QColor col = base;
            if (lane.gpu) {
                const double h = std::max(2.0, double(kRowHeight) * double(busy));
                p.fillRect(QRectF(xa, y + kRowHeight - h, std::max(1.0, xb - xa), h), col);
            } else {
                col.setAlphaF(0.35f + 0.65f * busy);
                p.fillRect(QRectF(xa, y + 2, std::max(1.0, xb - xa), kRowHeight - 4), col);
            }
        }
        p.setPen(c.separator);
        p.drawLine(0, y + kRowHeight + kRowGap / 2, width(), y + kRowHeight + kRowGap / 2);
        y += kRowHeight + kRowGap;
    }
}

} // namespace strata
