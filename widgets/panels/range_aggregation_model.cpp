#include "range_aggregation_model.h"

#include "model/time_text.h"
#include "qt_text.h"

namespace strata {

RangeAggregationModel::RangeAggregationModel(QObject* parent) : QAbstractTableModel(parent) {}

void RangeAggregationModel::setTrace(std::shared_ptr<const Trace> trace) {
    beginResetModel();
    trace_ = std::move(trace);
    range_.reset();
    agg_ = {};
    endResetModel();
}

void RangeAggregationModel::setAggregation(std::optional<TimeRange> r,
                                           RangeAggregation aggregation) {
    beginResetModel();
    range_ = r;
    agg_ = r ? std::move(aggregation) : RangeAggregation{};
    endResetModel();
}

int RangeAggregationModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(agg_.rows.size());
}

int RangeAggregationModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RangeAggregationModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !trace_ || index.row() >= rowCount()) return {};
    const RangeAggregateRow& row = agg_.rows[static_cast<size_t>(index.row())];
    const TimeNs avg = row.count ? row.total / static_cast<TimeNs>(row.count) : 0;
    if (role == Qt::TextAlignmentRole) {
        return index.column() == Name ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                      : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role == Qt::ToolTipRole && index.column() == Name) {
        return toQString(trace_->str(row.name));
    }
    if (role != Qt::DisplayRole && role != SortRole) return {};
    const bool raw = role == SortRole;
    auto time = [&](TimeNs t) -> QVariant {
        return raw ? QVariant(qlonglong(t))
                   : QVariant(QString::fromStdString(formatPreciseDuration(t)));
    };
    switch (index.column()) {
    case Name:
        return toQString(trace_->str(row.name));
    case Count:
        return raw ? QVariant(qulonglong(row.count)) : QVariant(QString::number(row.count));
    case Total:
        return time(row.total);
    case Self:
        return time(row.self);
    case Average:
        return time(avg);
    case Max:
        return time(row.maxDuration);
    default:
        return {};
    }
}

QVariant RangeAggregationModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* const kNames[] = {"Name", "Count", "Total", "Self", "Average", "Max"};
    return section >= 0 && section < ColumnCount ? QString::fromLatin1(kNames[section])
                                                 : QVariant();
}

} // namespace strata
