#include "range_aggregation_model.h"

#include "model/time_text.h"
#include "style/qt_text.h"

namespace strata {

namespace {
QString time(TimeNs t) {
    return QString::fromStdString(formatPreciseDuration(t));
}
TimeNs average(const RangeAggregateRow& r) {
    return r.count ? r.total / static_cast<TimeNs>(r.count) : 0;
}
using Row = RangeAggregateRow;

// The names are read from the model's trace when a cell is asked for.
std::vector<RowColumn<Row>> rangeColumns(const RangeAggregationModel* self) {
    std::vector<RowColumn<Row>> cols;
    cols.push_back({QObject::tr("Name"),
                    [self](const Row& r) { return toQString(self->trace()->str(r.name)); },
                    {},
                    [self](const Row& r) { return toQString(self->trace()->str(r.name)); }});
    cols.insert(cols.end(),
                {
                    {QObject::tr("Count"), [](const Row& r) { return QString::number(r.count); },
                     [](const Row& r) { return double(r.count); }},
                    {QObject::tr("Total"), [](const Row& r) { return time(r.total); },
                     [](const Row& r) { return double(r.total); }},
                    {QObject::tr("Self"), [](const Row& r) { return time(r.self); },
                     [](const Row& r) { return double(r.self); }},
                    {QObject::tr("Average"), [](const Row& r) { return time(average(r)); },
                     [](const Row& r) { return double(average(r)); }},
                    {QObject::tr("Max"), [](const Row& r) { return time(r.maxDuration); },
                     [](const Row& r) { return double(r.maxDuration); }},
                });
    return cols;
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
