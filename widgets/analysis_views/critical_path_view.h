#pragma once
// The Statistics dock's "Critical Path" tab (issue 46): the chain of CPU ops, launches, GPU ops
// and synchronisations that bounds a step's length, under HTA's rule
// (core/analysis/critical_path/critical_path.h). The window is a step of the trace (the first by
// default, as HTA's "ProfilerStep" instance 0), the whole trace, or the timeline's selected range.
// The path is computed off the GUI thread when the tab is shown (or compute() is called), then
// shown as its length, HTA's summary (the path's time per bound: cpu_bound, gpu_compute_bound,
// gpu_kernel_launch_overhead, ...) and the table of its edges in order (from, to, edge type,
// delay, bound). A click on a row selects its event on the timeline, a double-click zooms to the
// edge; a slice of the path selected on the timeline selects its first row. The path is offered
// to the timeline (highlightChanged: its events drawn, the rest dimmed,
// its edges as arrows) while "Highlight on the timeline" is on.
#include "workspace/trace_panel.h"

#include "analysis/critical_path/critical_path.h"
#include "analysis/trace_steps.h"

#include <memory>
#include <optional>
#include <vector>

class QAbstractItemModel;
class QCheckBox;
class QComboBox;
class QLabel;
class QSplitter;
class QTableView;
class QTimer;

namespace strata {

class JobRunner;

class CriticalPathView : public TracePanel {
    Q_OBJECT
public:
    // The window choices after the steps: the whole trace, the selected range.
    static constexpr int kWholeTrace = -1;
    static constexpr int kSelectedRange = -2;

    CriticalPathView(Workspace* workspace, Navigation* navigation, QWidget* parent = nullptr);
    ~CriticalPathView() override;

    const std::vector<TraceStep>& steps() const { return steps_; }
    // A step (its index in steps()), kWholeTrace or kSelectedRange; computed if shown.
    void setWindow(int choice);
    int window() const;
    QComboBox* windowChoice() const { return choice_; }
    // Computes the path of the chosen window now (off the GUI thread), shown or not.
    void compute();
    void waitForJobs(); // a pending computation started and shown (screenshots, tests)
    // The path shown (null: none computed, or the computation is under way).
    const std::shared_ptr<const CriticalPath>& path() const { return path_; }
    QString summaryText() const;

    void setHighlightShown(bool on);
    bool highlightShown() const;
    QCheckBox* highlightBox() const { return highlight_; }

    QAbstractItemModel* edgesModel() const;
    QAbstractItemModel* boundsModel() const;
    QTableView* edgesTable() const { return edges_; }
    // Row `row` of the edges table (sorted view) clicked: its event selected on the timeline;
    // double-clicked (`zoom`): the timeline zoomed to the edge too.
    void activateRow(int row, bool zoom);
    void exportMenu();

signals:
    // The path to show on the timeline, or null (none, or the highlight is off).
    void highlightChanged(std::shared_ptr<const strata::CriticalPath> path);

protected:
    void traceChanged(const std::shared_ptr<const Trace>& trace) override;
    void selectedRangeChanged(std::optional<TimeRange> r) override;
    void selectedSliceChanged(const TraceSliceRef& r) override;
    void showEvent(QShowEvent* e) override;

private:
    struct Models;
    void fillChoices();
    std::optional<TimeRange> chosenWindow(QString* label) const;
    void show(std::shared_ptr<const CriticalPath> path, qint64 ms, const QString& label);
    void offerHighlight();

    std::vector<TraceStep> steps_;
    bool stale_ = true;      // the path shown is not that of the window chosen
    bool following_ = false; // a row selected for the timeline's selection: not sent back
    std::shared_ptr<const CriticalPath> path_;
    QComboBox* choice_;
    QCheckBox* highlight_;
    QLabel* summary_;
    QTableView* bounds_;
    QTableView* edges_;
    QSplitter* split_;
    std::unique_ptr<Models> m_;
    JobRunner* jobs_;
    QTimer* coalesce_; // a range being dragged recomputes at most so often
};

} // namespace strata
