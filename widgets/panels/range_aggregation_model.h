#pragma once
// The Range table: the slices in a time range grouped by name (core/analysis/range_aggregation.h)
// with Name, Count, Total, Self, Average and Max; a RowTableModel whose Qt::DisplayRole is text
// (short names, times in 4 significant digits) and Qt::UserRole (SortRole) the full name, or the
// number in ns or a count; the tooltips give the full name and the exact times.
#include "analysis/range_aggregation.h"
#include "charts/row_table_model.h"

#include <memory>
#include <optional>

namespace strata {

class RangeAggregationModel : public RowTableModel<RangeAggregateRow> {
public:
    enum Column { Name, Count, Total, Self, Average, Max, ColumnCount };
    static constexpr int SortRole = Qt::UserRole;

    explicit RangeAggregationModel(QObject* parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace); // clears the table
    // The aggregation of the trace over r (computed elsewhere: off the GUI thread); nullopt
    // clears the table.
    void setAggregation(std::optional<TimeRange> r, RangeAggregation aggregation);
    std::optional<TimeRange> range() const { return range_; }
    const RangeAggregation& aggregation() const { return agg_; }

    const Trace* trace() const { return trace_.get(); }

private:
    std::shared_ptr<const Trace> trace_;
    std::optional<TimeRange> range_;
    RangeAggregation agg_;
};

} // namespace strata
