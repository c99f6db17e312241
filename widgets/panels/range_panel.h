#pragma once
// The "Range" dock: the selected time range (start, end, duration) and a sortable table of the
// slices in it by name. Updates are coalesced (a range being dragged recomputes at most every
// few tens of milliseconds) and computed off the GUI thread; a result for a range that has
// moved on is dropped.
#include "range_aggregation_model.h"
#include "workspace/job_runner.h"
#include "workspace/trace_panel.h"

class QLabel;
class QTableView;
class QSortFilterProxyModel;
class QTimer;

namespace strata {

class RangePanel : public TracePanel {
    Q_OBJECT
public:
    RangePanel(Workspace* workspace, Navigation* navigation, QWidget* parent = nullptr);

    // Schedules an update (coalesced); flush() applies a pending one now and waits for its
    // result (tests, screenshots).
    void setRange(std::optional<TimeRange> r);
    void flush();

    RangeAggregationModel* model() const { return model_; }
    QSortFilterProxyModel* proxy() const { return proxy_; }
    QTableView* view() const { return view_; }
    QString summaryText() const;

protected:
    void traceChanged(const std::shared_ptr<const Trace>& trace) override;
    void selectedRangeChanged(std::optional<TimeRange> r) override { setRange(r); }

private:
    void apply();
    void showSummary();
    std::shared_ptr<const Trace> trace_;
    std::optional<TimeRange> pending_;
    JobRunner* jobs_;
    RangeAggregationModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* view_;
    QLabel* summary_;
    QTimer* timer_;
};

} // namespace strata
