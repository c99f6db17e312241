#include "range_aggregation_model.h"

#include "charts/row_columns.h"
#include "style/qt_text.h"

namespace strata {

namespace {
using Row = RangeAggregateRow;
double average(const Row& r) {
    return r.count ? double(r.total) / double(r.count) : 0;
}

// The names are read from the model's trace when a cell is asked for: short, in full on hover
// and in CSV. Times in 4 significant digits, exact on hover and in CSV.
std::vector<RowColumn<Row>> rangeColumns(const RangeAggregationModel* self) {
    return {
        nameColumn<Row>(
            QObject::tr("Name"),
            [self](const Row& r) { return toQString(self->trace()->displayName(r.name)); },
            [self](const Row& r) { return toQString(self->trace()->str(r.name)); }),
        {QObject::tr("Count"), [](const Row& r) { return QString::number(r.count); },
         [](const Row& r) { return double(r.count); }},
        timeColumn<Row>(QObject::tr("Total"), [](const Row& r) { return double(r.total); }),
        timeColumn<Row>(QObject::tr("Self"), [](const Row& r) { return double(r.self); }),
        timeColumn<Row>(QObject::tr("Average"), average),
        timeColumn<Row>(QObject::tr("Max"), [](const Row& r) { return double(r.maxDuration); }),
    };
}

} // namespace

RangeAggregationModel::RangeAggregationModel(QObject* parent)
    : RowTableModel<RangeAggregateRow>(rangeColumns(this), parent) {}

void RangeAggregationModel::setTrace(std::shared_ptr<const Trace> trace) {
    setRows({}); // emptied while the names still come from the old trace
    trace_ = std::move(trace);
    range_.reset();
    agg_ = {};
}

void RangeAggregationModel::setAggregation(std::optional<TimeRange> r,
                                           RangeAggregation aggregation) {
    range_ = r;
    agg_ = r && trace_ ? std::move(aggregation) : RangeAggregation{};
    setRows(agg_.rows);
}

} // namespace strata
