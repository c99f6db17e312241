#pragma once
// The dock template: a TracePanel that shows something computed from the analysis of the current
// trace (workspace/analyses.h) over the selected range, or over the whole trace when none is
// selected. It owns the cycle every analysis dock needs: when the trace, the selected range, the
// analysis settings or the panel's own options change, it asks off the GUI thread for what the
// panel shows (preparation(): the first view to ask computes it, the others share it) and then
// calls present() on the GUI thread; a result for a trace or range that has moved on is dropped.
// Range changes are coalesced (a range being dragged recomputes at most every few tens of ms).
//
// A new analysis dock is one subclass (preparation() and present()) plus one line in the
// window's dock table (app/gui/dock_table.cpp).
#include "analyses.h"
#include "trace_panel.h"

#include <functional>
#include <memory>
#include <optional>

class QTimer;

namespace strata {

class JobRunner;

class AnalysisPanel : public TracePanel {
    Q_OBJECT
public:
    AnalysisPanel(Workspace* workspace, Navigation* navigation, QWidget* parent = nullptr);
    ~AnalysisPanel() override;

    Analyses* analyses() const;
    // Applies a pending update now and waits until it is shown (screenshots, tests, benches).
    void waitForJobs();
    // The analysis the panel shows (null when nothing is shown) and the selected range it follows
    // (empty: the whole trace).
    const std::shared_ptr<const TraceAnalysis>& analysis() const { return shown_; }
    std::optional<TimeRange> range() const { return range_; }

protected:
    using Preparation = std::function<void(const TraceAnalysis&)>;
    // Called on the GUI thread; what it returns runs off it, asking the analysis for what the
    // panel will show (capture the panel's options by value).
    virtual Preparation preparation() const = 0;
    // On the GUI thread once the preparation has run; null when there is nothing to show (no
    // trace, or no range for a panel that does not follow the whole trace).
    virtual void present(const std::shared_ptr<const TraceAnalysis>& analysis) = 0;
    // Without a selected range: the whole trace (true), or nothing (the Range dock).
    virtual bool followsWholeTrace() const { return true; }
    // The panel's own options changed (a grouping, a thread): prepare and present again.
    void refresh();

    // A subclass that overrides these calls them too.
    void traceChanged(const std::shared_ptr<const Trace>& trace) override;
    void selectedRangeChanged(std::optional<TimeRange> r) override;

private:
    void prepare(); // refresh() past the picture's hold
    JobRunner* jobs_;
    bool afterPicture_ = false; // a refresh waits for the timeline's picture
    bool stale_ = false;        // a live run's trace moved on since what is shown
    QTimer* coalesce_;
    std::optional<TimeRange> range_;
    std::shared_ptr<const TraceAnalysis> shown_;
};

} // namespace strata
