#include "gaps_table_model.h"

#include "model/time_text.h"
#include "style/gap_style.h"
#include "style/qt_text.h"

#include <QColor>

namespace strata {

namespace {

bool launchedLate(const ExplainedGap& e) {
    return e.cause == GapCause::LaunchBound || e.cause == GapCause::Synchronization;
}

QString because(const Trace& t, const ExplainedGap& e) {
    if (e.blockingCall.valid())
        return QObject::tr("after %1").arg(toQString(t.name(e.blockingCall)));
    if (e.waitedOn.valid()) return QObject::tr("waited on %1").arg(toQString(t.name(e.waitedOn)));
    if (e.waitCall.valid()) return QObject::tr("after %1").arg(toQString(t.name(e.waitCall)));
    return {};
}

QString cpuWork(const Trace& t, const ExplainedGap& e) {
    QStringList parts;
    for (const CpuOverlap& c : e.cpu)
        parts << QStringLiteral("%1 (%2)").arg(toQString(t.str(c.name)),
                                               QString::fromStdString(formatDuration(c.overlap)));
    return parts.join(QStringLiteral(", "));
}

} // namespace

GapsTableModel::GapsTableModel(QObject* parent)
    : RowTableModel<const ExplainedGap*>(columns(this), parent) {}

// The cells read the model's trace when they are asked (never during construction).
std::vector<RowColumn<const ExplainedGap*>> GapsTableModel::columns(const GapsTableModel* self) {
    using Row = const ExplainedGap*;
    auto origin = [self] { return self->trace_ ? self->trace_->bounds().start : 0; };
    std::vector<RowColumn<Row>> cols{
        {QObject::tr("Start"),
         [origin](Row e) {
             return QString::fromStdString(formatPreciseDuration(e->gap.start - origin()));
         },
         [origin](Row e) { return double(e->gap.start - origin()); }},
        {QObject::tr("Length"),
         [](Row e) { return QString::fromStdString(formatDuration(e->gap.duration())); },
         [](Row e) { return double(e->gap.duration()); }},
        {QObject::tr("Cause"),
         [](Row e) { return QString(gapCauseName(e->cause)); },
         {},
         {},
         [](Row e) { return QVariant(QColor::fromRgb(gapCauseColor(int(e->cause)))); }},
        {QObject::tr("Launched late"),
         [](Row e) {
             return launchedLate(*e) ? QString::fromStdString(formatDuration(e->late))
                                     : QString("—");
         },
         [](Row e) {
             return launchedLate(*e) ? std::optional<double>(double(e->late)) : std::nullopt;
         }},
        {QObject::tr("GPU"), [](Row e) { return QString::number(e->gap.device); },
         [](Row e) { return double(e->gap.device); }},
        {QObject::tr("Because"), [self](Row e) { return because(*self->trace_, *e); }, {}},
        {QObject::tr("CPU work on the launching thread"),
         [self](Row e) { return cpuWork(*self->trace_, *e); },
         {}},
    };
    for (RowColumn<Row>& c : cols) // every cell's tooltip: the gap's whole description
        c.tooltip = [self](Row e) { return gapDescription(*self->trace_, *e); };
    return cols;
}

void GapsTableModel::setGaps(std::shared_ptr<const Trace> trace,
                             std::shared_ptr<const GapCauses> gaps) {
    setRows({}); // emptied while the rows still point into the gaps they came from
    trace_ = std::move(trace);
    gaps_ = std::move(gaps);
    std::vector<const ExplainedGap*> rows;
    if (gaps_ && trace_)
        for (const ExplainedGap& e : gaps_->deviceGaps) rows.push_back(&e);
    setRows(std::move(rows));
}

const ExplainedGap* GapsTableModel::gapAt(int row) const {
    const ExplainedGap* const* e = rowAt(row);
    return e ? *e : nullptr;
}

} // namespace strata
