#include "section_lanes.h"

#include "style/slice_palette.h"

#include "analysis/sections/section_lanes.h"
#include "analysis/sections/section_stats.h"

#include <QImage>

#include <algorithm>
#include <set>

namespace strata {

namespace {

constexpr size_t kSummarySections = 6; // the strip names the largest; the rest are counted

// "§ matmul — load tile 41% · compute 52% · store 7%", sections in id order.
QString launchSummary(const SectionSet& set) {
    const std::vector<const SectionSet*> one{&set};
    const SectionStats st = sectionStats(one);
    std::vector<size_t> largest(st.sections.size());
    for (size_t i = 0; i < largest.size(); ++i) largest[i] = i;
    const size_t shown = std::min(largest.size(), kSummarySections);
    std::partial_sort(
        largest.begin(), largest.begin() + ptrdiff_t(shown), largest.end(),
        [&](size_t a, size_t b) { return st.sections[a].share > st.sections[b].share; });
    largest.resize(shown);
    std::sort(largest.begin(), largest.end());
    QString text = QStringLiteral("§ ") + QString::fromStdString(set.kernel) + QStringLiteral(" —");
    for (size_t k = 0; k < largest.size(); ++k)
        text += (k ? QStringLiteral(" ·") : QString()) +
                QStringLiteral(" %1 %2%")
                    .arg(QString::fromStdString(st.sections[largest[k]].name))
                    .arg(100.0 * st.sections[largest[k]].share, 0, 'f', 0);
    if (st.sections.size() > shown)
        text += QStringLiteral(" · %1 more").arg(st.sections.size() - shown);
    return text;
}

} // namespace

void SectionLanesCache::reset(const Trace* trace) {
    launches_.clear();
    sms_.clear();
    if (!trace) return;
    std::map<int32_t, std::set<uint16_t>> sms;
    for (const SectionSet& set : trace->sections()) {
        const SliceRef k = kernelOfSections(*trace, set);
        if (!k.valid() || !set.hasTimes) continue;
        Launch l;
        l.set = &set;
        l.kernel = k;
        l.start = trace->start(k);
        l.end = l.start + trace->duration(k);
        l.shift = sectionTimeShift(*trace, set);
        const GpuActivity* g = trace->gpu(k);
        l.device = g ? g->device : set.device;
        l.summary = launchSummary(set);
        for (const SectionSample& x : set.samples) sms[l.device].insert(x.sm);
        launches_.push_back(std::move(l));
    }
    std::sort(launches_.begin(), launches_.end(),
              [](const Launch& a, const Launch& b) { return a.start < b.start; });
    for (auto& [d, s] : sms) sms_[d] = std::vector<uint16_t>(s.begin(), s.end());
    for (Launch& l : launches_) buildDetail(l);
}

void SectionLanesCache::buildDetail(Launch& l) const {
    const auto& samples = l.set->samples;
    const std::vector<uint16_t>& sms = smsOf(l.device);
    l.byStart.resize(samples.size());
    for (uint32_t i = 0; i < samples.size(); ++i) l.byStart[i] = i;
    std::sort(l.byStart.begin(), l.byStart.end(),
              [&](uint32_t a, uint32_t b) { return samples[a].startNs < samples[b].startNs; });
    int64_t first = INT64_MAX, last = INT64_MIN;
    std::vector<uint32_t> lanes; // the device lane of each sample
    lanes.reserve(samples.size());
    for (const SectionSample& x : samples) {
        l.maxDuration = std::max(l.maxDuration, x.endNs - x.startNs);
        first = std::min(first, x.startNs);
        last = std::max(last, x.endNs);
        lanes.push_back(uint32_t(std::lower_bound(sms.begin(), sms.end(), x.sm) - sms.begin()));
    }
    if (samples.empty() || sms.empty() || last <= first) return;
    // Raster rows for this launch's own SMs only.
    l.summaryLanes = lanes;
    std::sort(l.summaryLanes.begin(), l.summaryLanes.end());
    l.summaryLanes.erase(std::unique(l.summaryLanes.begin(), l.summaryLanes.end()),
                         l.summaryLanes.end());
    l.buckets = int(std::clamp<size_t>(samples.size() / l.summaryLanes.size(), 1, 4096));
    l.summary_.assign(l.summaryLanes.size() * size_t(l.buckets), 0);
    l.summaryStart = first;
    l.summaryEnd = last;
    const double scale = double(l.buckets) / double(last - first);
    for (uint32_t i : l.byStart) { // in start order: a later sample is drawn over
        const SectionSample& x = samples[i];
        const size_t row =
            size_t(std::lower_bound(l.summaryLanes.begin(), l.summaryLanes.end(), lanes[i]) -
                   l.summaryLanes.begin());
        const int b0 = std::clamp(int(double(x.startNs - first) * scale), 0, l.buckets - 1);
        const int b1 = std::clamp(int(double(x.endNs - first) * scale), b0, l.buckets - 1);
        std::fill(l.summary_.begin() + ptrdiff_t(row * size_t(l.buckets) + size_t(b0)),
                  l.summary_.begin() + ptrdiff_t(row * size_t(l.buckets) + size_t(b1) + 1),
                  uint16_t(std::min<int>(x.section + 1, UINT16_MAX)));
    }
}

const std::vector<uint16_t>& SectionLanesCache::smsOf(int32_t device) const {
    static const std::vector<uint16_t> none;
    const auto it = sms_.find(device);
    return it == sms_.end() ? none : it->second;
}

void paintSectionLanes(QPainter& p, const TimelineState& s, const SectionLanesCache& c,
                       const TrackRow& r, int top, int width) {
    const TimeRange v = s.axis.visible();
    const int header = TrackLayout::kSectionsHeader;
    const std::vector<uint16_t>& sms = c.smsOf(r.device);
    const int laneH = TrackLayout::kSmLaneHeight;
    // The lanes on screen only (a device may have thousands): [firstLane, firstLane + lanes).
    const int lanesTop = top + header;
    const int deviceHeight = p.device() ? p.device()->height() : lanesTop + int(sms.size()) * laneH;
    const int firstLane = r.expanded ? std::clamp(-lanesTop / laneH, 0, int(sms.size())) : 0;
    const int endLane =
        r.expanded ? std::clamp((deviceHeight - lanesTop) / laneH + 1, firstLane, int(sms.size()))
                   : 0;
    const int lanes = endLane - firstLane;
    QImage raster;
    if (lanes > 0) {
        raster = QImage(width, lanes * laneH, QImage::Format_ARGB32_Premultiplied);
        raster.fill(Qt::transparent);
    }
    p.save(); // the smaller font stays in this row
    QFont small = p.font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    p.setFont(small);
    for (const SectionLanesCache::Launch& l : c.launches()) {
        if (l.device != r.device || l.end <= v.start || l.start >= v.end) continue;
        const QRect strip = s.spanRect(l.start, l.end, top + 1, header - 2);
        const QRect clipped = strip.intersected(QRect(0, top, width, header));
        if (clipped.width() <= 0) continue;
        p.fillRect(clipped, QColor(0xe6, 0xea, 0xf2));
        p.fillRect(QRect(clipped.x(), clipped.y(), std::max(1, std::min(2, clipped.width())),
                         clipped.height()),
                   QColor(0x55, 0x60, 0x78));
        if (clipped.width() > 24) {
            p.setPen(QColor(0x30, 0x38, 0x48));
            p.drawText(clipped.adjusted(4, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft,
                       p.fontMetrics().elidedText(l.summary, Qt::ElideRight, clipped.width() - 6));
        }
        if (lanes == 0) continue;
        QRgb* pixels = reinterpret_cast<QRgb*>(raster.bits());
        const qsizetype stride = raster.bytesPerLine() / 4;
        const QRect span = s.spanRect(l.summaryStart + l.shift, l.summaryEnd + l.shift, 0, 1);
        if (l.buckets > 0 && span.width() <= l.buckets) {
            // Narrower than its buckets: each pixel column shows the bucket under its centre.
            const int x0 = std::max(0, span.x()), x1 = std::min(width, span.x() + span.width());
            for (size_t k = 0; k < l.summaryLanes.size(); ++k) {
                const int lane = int(l.summaryLanes[k]) - firstLane;
                if (lane < 0 || lane >= lanes) continue;
                const uint16_t* row = l.summary_.data() + k * size_t(l.buckets);
                for (int x = x0; x < x1; ++x) {
                    const int b = std::min(l.buckets - 1, int((double(x - span.x()) + 0.5) *
                                                              l.buckets / span.width()));
                    if (!row[b]) continue;
                    const QRgb color = sectionColorRgb(size_t(row[b] - 1));
                    for (int y = lane * laneH; y < lane * laneH + laneH - 1; ++y)
                        pixels[y * stride + x] = color;
                }
            }
            continue;
        }
        // Zoomed in: the samples that start before the view's end and may reach into it.
        const auto& samples = l.set->samples;
        const int64_t from = v.start - l.shift - l.maxDuration, to = v.end - l.shift;
        auto it = std::lower_bound(l.byStart.begin(), l.byStart.end(), from,
                                   [&](uint32_t i, int64_t t) { return samples[i].startNs < t; });
        for (; it != l.byStart.end() && samples[*it].startNs < to; ++it) {
            const SectionSample& x = samples[*it];
            const QRect rc = s.spanRect(x.startNs + l.shift, x.endNs + l.shift, 0, 1);
            const int x0 = std::max(0, rc.x()),
                      x1 = std::min(width, rc.x() + std::max(1, rc.width()));
            if (x1 <= x0) continue;
            const int lane =
                int(std::lower_bound(sms.begin(), sms.end(), x.sm) - sms.begin()) - firstLane;
            if (lane < 0 || lane >= lanes) continue;
            const QRgb color = sectionColorRgb(x.section);
            for (int y = lane * laneH; y < lane * laneH + laneH - 1; ++y)
                std::fill(pixels + y * stride + x0, pixels + y * stride + x1, color);
        }
    }
    if (lanes > 0) {
        p.drawImage(QPoint(0, lanesTop + firstLane * laneH), raster);
        // SM labels every few lanes, at the left edge.
        p.setPen(QColor(0x40, 0x40, 0x48));
        const int every = std::max(1, 14 / laneH) * 4;
        for (int k = (firstLane + every - 1) / every * every; k < endLane; k += every)
            p.drawText(QRect(2, lanesTop + k * laneH - 2, 60, 12), Qt::AlignLeft | Qt::AlignTop,
                       QStringLiteral("SM %1").arg(sms[size_t(k)]));
    }
    p.restore();
}

void paintSectionMarkers(QPainter& p, const TimelineState& s, const SectionLanesCache& c, int width,
                         int height) {
    const TimeRange v = s.axis.visible();
    p.save(); // the marker's font and pen stay here
    QFont tabFont = p.font();
    tabFont.setPixelSize(9);
    tabFont.setBold(true);
    p.setFont(tabFont);
    p.setPen(Qt::white);
    for (const SectionLanesCache::Launch& l : c.launches()) {
        if (l.end <= v.start || l.start >= v.end) continue;
        const QRect rc = s.sliceRect(l.kernel);
        if (rc.isNull() || rc.bottom() < 0 || rc.top() > height || rc.right() < 0 ||
            rc.left() > width)
            continue;
        // A dark corner tab with §: the launch has in-kernel sections (open the Sections dock).
        // At the slice's right end (its label starts at the left), inside the view.
        const int x = std::clamp(rc.right() - 10, std::max(0, rc.left()), width - 11);
        const QRect tab(x, rc.top(), 11, std::min(11, rc.height()));
        p.fillRect(tab, QColor(0x2a, 0x32, 0x48));
        p.drawText(tab, Qt::AlignCenter, QStringLiteral("§"));
    }
    p.restore();
}

} // namespace strata
