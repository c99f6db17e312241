#pragma once
// The analyses of the workspace's traces, and the one copy of the GUI's analysis settings (the
// toolbar's gap threshold, the step name: core/analysis/analysis_settings.h). A view asks for
// the analysis of a trace over a range (the whole trace or the selected range) and gets the one
// object every other view asking the same question shares (core/analysis/trace_analysis.h):
// gap causes, statistics, the advisor's findings and call trees are computed once per trace,
// settings and range, on whichever worker thread asks first, and read by all. When the settings
// change, every view hears settingsChanged() and asks again.
#include "analysis/trace_analysis.h"
#include "workspace.h"

#include <QObject>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace strata {

class Analyses : public QObject {
    Q_OBJECT
public:
    explicit Analyses(Workspace* workspace, QObject* parent = nullptr);

    const AnalysisSettings& settings() const { return settings_; }
    void setSettings(const AnalysisSettings& s); // settingsChanged() when they differ
    void setGapThreshold(TimeNs t);
    TimeNs gapThreshold() const { return settings_.gapThreshold; }

    // The analysis of trace `id` over `range` (the whole trace when empty) with the current
    // settings; null when there is no such trace, and while it is what a load has read so far
    // (Workspace::previewing: the docks and the gaps wait for the trace). Nothing is computed
    // here: each result is
    // computed on first use (call it off the GUI thread).
    std::shared_ptr<const TraceAnalysis> of(TraceId id, std::optional<TimeRange> range = {});
    // The same for the workspace's current trace.
    std::shared_ptr<const TraceAnalysis> current(std::optional<TimeRange> range = {});

    // The timeline's picture of a new trace comes first: from the trace shown until its gap
    // causes are drawn (the timeline holds and releases), the docks' preparations and the trace
    // cache's write wait, so the cores go to what the user looks at first.
    void holdForPicture() { held_ = true; }
    void releasePicture();
    bool pictureHeld() const { return held_; }
    // f now, or once the picture is released (dropped if `context` goes first).
    void afterPicture(QObject* context, std::function<void()> f);

signals:
    void settingsChanged();
    void pictureReleased();

private:
    void forget(TraceId id);
    struct Entry {
        TraceId id = kNoTrace;
        std::optional<TimeRange> range;
        std::shared_ptr<const TraceAnalysis> analysis;
    };
    Workspace* workspace_;
    AnalysisSettings settings_;
    // The whole-trace analyses, and the few most recent range analyses (the selected range of
    // the docks; older ones go as the user moves on).
    std::vector<Entry> entries_;
    static constexpr size_t kRangesKept = 4;
    bool held_ = false;
};

} // namespace strata
