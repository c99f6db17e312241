#pragma once
// Table model over a core/analysis/range_aggregation result: the slices in a time range grouped by
// name (Name, Count, Total, Self, Average, Max). Qt::DisplayRole is text with units; Qt::UserRole
// is the raw number (ns or count) that sorting uses (see sortRole()).
#include "analysis/range_aggregation.h"

#include <QAbstractTableModel>
#include <memory>
#include <optional>

namespace strata {

class RangeAggregationModel : public QAbstractTableModel {
    Q_OBJECT
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

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const Trace> trace_;
    std::optional<TimeRange> range_;
    RangeAggregation agg_;
};

} // namespace strata
