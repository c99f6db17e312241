#pragma once
// The "Range" dock: the selected time range (start, end, duration) and a sortable table of the
// slices in it by name. Updates are coalesced (a range being dragged recomputes at most every
// few tens of milliseconds).
#include "range_aggregation_model.h"

#include <QWidget>

class QLabel;
class QTableView;
class QSortFilterProxyModel;
class QTimer;

namespace strata {

class RangePanel : public QWidget {
    Q_OBJECT
public:
    explicit RangePanel(QWidget* parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace);
    // Schedules an update (coalesced); flush() applies a pending one now (tests, screenshots).
    void setRange(std::optional<TimeRange> r);
    void flush();

    RangeAggregationModel* model() const { return model_; }
    QSortFilterProxyModel* proxy() const { return proxy_; }
    QTableView* view() const { return view_; }
    QString summaryText() const;

private:
    void apply();
    std::shared_ptr<const Trace> trace_;
    std::optional<TimeRange> pending_;
    RangeAggregationModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* view_;
    QLabel* summary_;
    QTimer* timer_;
};

} // namespace strata
