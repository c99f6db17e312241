#include "sample_profile_model.h"

#include "charts/row_columns.h"
#include "style/frame_text.h"
#include "style/qt_text.h"

namespace strata {

namespace {

using Row = SampleFunctionRow;

RowColumn<Row> countColumn(const QString& header, uint64_t Row::*count) {
    return {header, [count](const Row& r) { return QString::number(r.*count); },
            [count](const Row& r) { return std::optional<double>(double(r.*count)); }};
}

RowColumn<Row> shareColumn(const QString& header, double Row::*share) {
    return {
        header,
        [share](const Row& r) { return QStringLiteral("%1 %").arg(100.0 * r.*share, 0, 'f', 2); },
        [share](const Row& r) { return std::optional<double>(r.*share); }};
}

} // namespace

SampleProfileModel::SampleProfileModel(QObject* parent)
    : RowTableModel<Row>({nameColumn<Row>(
                              QObject::tr("Function"), [](const Row& r) { return r.name; },
                              [](const Row& r) { return r.full; }),
                          countColumn(QObject::tr("Self"), &Row::self),
                          shareColumn(QObject::tr("Self %"), &Row::selfShare),
                          countColumn(QObject::tr("Total"), &Row::total),
                          shareColumn(QObject::tr("Total %"), &Row::totalShare)},
                         parent) {}

void SampleProfileModel::setProfile(const Trace* trace, const SampleProfile* profile) {
    std::vector<Row> rows;
    if (trace && profile)
        for (const SampleFunction& f : profile->functions)
            rows.push_back({sampleFrameText(trace->str(f.frame)), toQString(trace->str(f.frame)),
                            f.self, f.total, f.selfShare, f.totalShare});
    setRows(std::move(rows));
}

} // namespace strata
