#include "render_cache.h"

#include "analysis/samples/sample_period.h"

#include "counter_scale.h"

#include "style/qt_text.h"

#include <algorithm>

namespace strata {

void TimelineRenderCache::reset(std::shared_ptr<const Trace> trace, bool withFlows) {
    trace_ = std::move(trace);
    lods_.reset(trace_);
    flows_.clear();
    elided_.clear();
    const size_t strings = trace_ ? trace_->strings().size() : 0;
    colors_.reset(strings);
    labels_.assign(strings, QString());
    labelDone_.assign(strings, 0);
    labelWidth_.assign(strings, -1);
    fullLabel_.assign(strings, QStaticText());
    counterMax_.clear();
    sections_.reset(trace_.get());
    for (const uint8_t kind : {uint8_t(StackKind::Python), uint8_t(StackKind::Native)})
        samplePeriods_[kind] = trace_ ? strata::samplePeriod(*trace_, kind) : 0;
    sampleKinds_.clear();
    if (trace_)
        for (const SampleThread& t : trace_->stackSamples().threads)
            sampleKinds_.push_back(trace_->stackSamples().timeKind(t));
    if (!trace_) return;
    for (const auto& [name, argb] : trace_->nameColors()) colors_.setColor(name, argb);
    counterMax_.assign(trace_->tracks().size(), 0.0);
    for (TrackId id = 0; id < trace_->tracks().size(); ++id)
        counterMax_[id] = counterScaleMax(trace_->track(id).counter.value);
    if (withFlows) buildFlows();
}

uint8_t TimelineRenderCache::sampleTimeKind(const SampleThread& t) const {
    const size_t i = size_t(&t - trace_->stackSamples().threads.data());
    return i < sampleKinds_.size() ? sampleKinds_[i] : trace_->stackSamples().timeKind(t);
}

void TimelineRenderCache::buildFlows() {
    if (trace_ && !flows_.built()) flows_.build(*trace_);
}

QRgb TimelineRenderCache::color(StringId name, SliceKind kind) {
    return colors_.get(name, trace_->str(name), kind);
}

size_t TimelineRenderCache::memoryBytes() const {
    size_t b = sizeof(*this) + lods_.memoryBytes() + flows_.memoryBytes() +
               counterMax_.capacity() * sizeof(double);
    b += labels_.size() *
         (3 * sizeof(QRgb) + sizeof(QString) + sizeof(QStaticText) + sizeof(int) + 1);
    return b;
}

const QString& TimelineRenderCache::label(StringId id) {
    static const QString kEmpty;
    if (id >= labels_.size()) return kEmpty;
    if (!labelDone_[id]) {
        labels_[id] = toQString(trace_->displayName(id)); // short; the tooltip has it whole
        labelDone_[id] = 1;
    }
    return labels_[id];
}

const QStaticText* TimelineRenderCache::fittedLabel(StringId id, int width,
                                                    const QFontMetrics& fm) {
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
