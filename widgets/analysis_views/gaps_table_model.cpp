#include "gaps_table_model.h"

#include "analysis/gaps/gap_text.h"
#include "model/names/time_text.h"
#include "style/gap_style.h"
#include "style/qt_text.h"

#include <QColor>

namespace strata {

namespace {

// Names in a cell are cut here; the tooltip has the gap's whole description.
constexpr size_t kMaxName = 80;

QString because(const Trace& t, const ExplainedGap& e) {
    return QString::fromStdString(gapReason(t, e, kMaxName));
}

// Where the gap's time went on the launching thread, largest part first.
QString breakdown(const Trace& t, const ExplainedGap& e) {
    QStringList parts;
    for (const GapPart& p : e.breakdown.parts)
        parts << QStringLiteral("%1 %2").arg(QString::fromStdString(gapPartText(t, p, kMaxName)),
                                             QString::fromStdString(formatDuration(p.time)));
    return parts.join(QStringLiteral("; "));
}

// The threads of the launching process blocked while the gap lasted, longest first.
QString otherThreads(const Trace& t, const ExplainedGap& e) {
    QStringList waits;
    for (const ThreadWait& w : e.otherThreads)
        waits << QString::fromStdString(threadWaitText(t, w, e.gap.duration(), kMaxName));
    return waits.join(QStringLiteral("; "));
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
             return QString::fromStdString(formatDuration(e->gap.start - origin()));
         },
         [origin](Row e) { return double(e->gap.start - origin()); }},
        {QObject::tr("Length"),
         [](Row e) { return QString::fromStdString(formatDuration(e->gap.duration())); },
         [](Row e) { return double(e->gap.duration()); }},
        {QObject::tr("Cause"),
         [](Row e) { return gapCauseText(e->cause); },
         {},
         {},
         [](Row e) { return QVariant(QColor::fromRgb(gapCauseColor(int(e->cause)))); }},
        {QObject::tr("Launched late"),
         [](Row e) {
             return e->launchedLate ? QString::fromStdString(formatDuration(e->late))
                                    : QString("—");
         },
         [](Row e) {
             return e->launchedLate ? std::optional<double>(double(e->late)) : std::nullopt;
         }},
        {QObject::tr("GPU"), [](Row e) { return QString::number(e->gap.device); },
         [](Row e) { return double(e->gap.device); }},
        {QObject::tr("Because"), [self](Row e) { return because(*self->trace_, *e); }, {}},
        {QObject::tr("Where the time went on the launching thread"),
         [self](Row e) { return breakdown(*self->trace_, *e); },
         {}},
        {QObject::tr("Meanwhile blocked"),
         [self](Row e) { return otherThreads(*self->trace_, *e); },
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
