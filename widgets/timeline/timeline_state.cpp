#include "timeline_state.h"

#include "qt_text.h"

#include <QRect>

#include <algorithm>
#include <cmath>

namespace strata {

void TimelineState::reset(std::shared_ptr<const Trace> t) {
    trace = std::move(t);
    lods_.reset(trace);
    gaps.clear();
    flows.clear();
    selected = {};
    correlated = {};
    range.reset();
    highlights.clear();
    hoveredGap.reset();
    scrollY = 0;
    counterMax.clear();
    if (!trace) {
        layout.clear();
        axis.setBounds({0, 1000});
        colors.reset(0);
        labels_.clear();
        labelDone_.clear();
        labelWidth_.clear();
        fullLabel_.clear();
        elided_.clear();
        return;
    }
    counterMax.assign(trace->tracks().size(), std::nan(""));
    layout.build(*trace);
    axis.setBounds(trace->bounds());
    colors.reset(trace->strings().size());
    for (const auto& [name, argb] : trace->nameColors()) colors.setColor(name, argb);
    labels_.assign(trace->strings().size(), QString());
    labelDone_.assign(trace->strings().size(), 0);
    labelWidth_.assign(trace->strings().size(), -1);
    fullLabel_.assign(trace->strings().size(), QStaticText());
    elided_.clear();
    gaps.compute(*trace, gapThreshold);
}

const TrackLod& TimelineState::lod(TrackId id) {
    return lods_.get(id);
}

void TimelineState::prebuildLods() {
    lods_.prebuildInBackground();
}

size_t TimelineState::memoryBytes() const {
    size_t b = sizeof(*this) + lods_.memoryBytes() + gaps.memoryBytes() + flows.memoryBytes();
    b += spans.capacity() * sizeof(LodSpan) + cells.capacity() * sizeof(LodCounterCell) +
         busy.capacity();
    b += highlights.capacity() * sizeof(SliceRef) + correlated.slices.capacity() * sizeof(SliceRef);
    b += layout.rows().size() * 256 +
         (trace ? trace->strings().size() *
                      (3 * sizeof(QRgb) + sizeof(QString) + sizeof(QStaticText) + sizeof(int) + 1)
                : 0);
    return b;
}

QRect TimelineState::spanRect(TimeNs start, TimeNs end, int y, int h) const {
    const double lim = 1e7;
    const double x0 = std::clamp(axis.xForTime(start), -lim, lim);
    const double x1 = std::clamp(axis.xForTime(end), -lim, lim);
    const int ix0 = static_cast<int>(std::floor(x0));
    const int ix1 = std::max(ix0 + 1, static_cast<int>(std::lround(x1)));
    return QRect(ix0, y, ix1 - ix0, h);
}

QRect TimelineState::sliceRect(SliceRef r) const {
    if (!trace || !r.valid() || r.track >= trace->tracks().size()) return {};
    const Track& t = trace->track(r.track);
    if (r.index >= t.slices.size()) return {};
    const int y = layout.sliceY(r.track, t.slices.depth[r.index]);
    if (y < 0) return {};
    return spanRect(t.slices.start[r.index], t.slices.end(r.index), y - scrollY + 1,
                    TrackLayout::kDepthHeight - 2);
}

const QString& TimelineState::label(StringId id) {
    static const QString kEmpty;
    if (id >= labels_.size()) return kEmpty;
    if (!labelDone_[id]) {
        const std::string_view v = trace->str(id);
        labels_[id] = toQString(v);
        labelDone_[id] = 1;
    }
    return labels_[id];
}

const QStaticText* TimelineState::fittedLabel(StringId id, int width, const QFontMetrics& fm) {
    if (id >= labelWidth_.size()) return nullptr;
    int& w = labelWidth_[id];
    if (w < 0) w = fm.horizontalAdvance(label(id));
    if (w <= width) {
        QStaticText& st = fullLabel_[id];
        if (st.text().isEmpty() && !label(id).isEmpty()) {
            st.setTextFormat(Qt::PlainText);
            st.setText(label(id));
        }
        return &st;
    }
    constexpr int kQuantum = 12;
    const int q = width / kQuantum * kQuantum;
    if (q < kQuantum) return nullptr;
    const quint64 key = (quint64(id) << 20) | quint64(std::min(q, (1 << 20) - 1));
    auto it = elided_.find(key);
    if (it == elided_.end()) {
        if (elided_.size() > 8192) elided_.clear(); // bounded cache
        QStaticText st(fm.elidedText(label(id), Qt::ElideRight, q));
        st.setTextFormat(Qt::PlainText);
        it = elided_.insert(key, st);
    }
    return it->text().size() <= 3 ? nullptr : &*it; // at least three characters and the ellipsis
}

} // namespace strata
