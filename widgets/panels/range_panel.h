#pragma once
// The "Range" dock: the selected time range (start, end, duration) and a sortable table of the
// slices in it by name, each clipped to the range (core/analysis/range_aggregation.h; the trace
// analysis of that range computes it once). Without a selected range it shows nothing. Range
// changes are coalesced and computed off the GUI thread (workspace/analysis_panel.h).
#include "range_aggregation_model.h"
#include "workspace/analysis_panel.h"

class QLabel;
class QTableView;
class QSortFilterProxyModel;

namespace strata {

class RangePanel : public AnalysisPanel {
    Q_OBJECT
public:
    RangePanel(Workspace* workspace, Navigation* navigation, QWidget* parent = nullptr);

    RangeAggregationModel* model() const { return model_; }
    QSortFilterProxyModel* proxy() const { return proxy_; }
    QTableView* view() const { return view_; }
    QString summaryText() const;

protected:
    void traceChanged(const std::shared_ptr<const Trace>& trace) override;
    bool followsWholeTrace() const override { return false; }
    Preparation preparation() const override;
    void present(const std::shared_ptr<const TraceAnalysis>& a) override;

private:
    void showSummary();
    RangeAggregationModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* view_;
    QLabel* summary_;
};

} // namespace strata
