#include "analyses.h"

#include <algorithm>

namespace strata {

Analyses::Analyses(Workspace* workspace, QObject* parent) : QObject(parent), workspace_(workspace) {
    // A replaced or removed trace's analyses go with it (they hold the trace).
    connect(workspace_, &Workspace::currentReplaced, this, &Analyses::forget);
}

void Analyses::setSettings(const AnalysisSettings& s) {
    if (s == settings_) return;
    settings_ = s;
    entries_.clear(); // views holding an analysis keep it until they ask again
    emit settingsChanged();
}

void Analyses::setGapThreshold(TimeNs t) {
    AnalysisSettings s = settings_;
    s.gapThreshold = std::max<TimeNs>(0, t);
    setSettings(s);
}

void Analyses::releasePicture() {
    if (!held_) return;
    held_ = false;
    emit pictureReleased();
}

void Analyses::afterPicture(QObject* context, std::function<void()> f) {
    if (!held_) {
        f();
        return;
    }
    connect(this, &Analyses::pictureReleased, context, std::move(f), Qt::SingleShotConnection);
}

void Analyses::forget(TraceId id) {
    std::erase_if(entries_, [id](const Entry& e) { return e.id == id; });
}

std::shared_ptr<const TraceAnalysis> Analyses::of(TraceId id, std::optional<TimeRange> range) {
    const OpenTrace* t = workspace_->currentTrace(); // the one trace a workspace shows
    // What a load has read so far (Workspace::showPreview) is not analysed.
    if (!t || t->id != id || workspace_->previewing()) return nullptr;
    for (const Entry& e : entries_)
        if (e.id == id && e.range == range && e.analysis->tracePtr() == t->trace) return e.analysis;
    auto a =
        std::make_shared<const TraceAnalysis>(t->trace, settings_, range.value_or(wholeTrace()));
    if (range) {
        // Keep the few most recent ranges: drop the oldest range entry past the limit.
        const auto ranged = std::count_if(entries_.begin(), entries_.end(),
                                          [](const Entry& e) { return e.range.has_value(); });
        if (size_t(ranged) >= kRangesKept) {
            auto oldest = std::find_if(entries_.begin(), entries_.end(),
                                       [](const Entry& e) { return e.range.has_value(); });
            entries_.erase(oldest);
        }
    }
    entries_.push_back({id, range, a});
    return a;
}

std::shared_ptr<const TraceAnalysis> Analyses::current(std::optional<TimeRange> range) {
    return of(workspace_->currentId(), range);
}

} // namespace strata
