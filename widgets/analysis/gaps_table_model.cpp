#include "gaps_table_model.h"

#include "model/time_text.h"
#include "qt_text.h"
#include "timeline/gap_index.h"

#include <QColor>

namespace strata {

void GapsTableModel::setGaps(std::shared_ptr<const Trace> trace,
                             std::shared_ptr<const GapCauses> gaps) {
    beginResetModel();
    trace_ = std::move(trace);
    gaps_ = std::move(gaps);
    endResetModel();
}

const ExplainedGap* GapsTableModel::gapAt(int row) const {
    return gaps_ && row >= 0 && size_t(row) < gaps_->deviceGaps.size()
               ? &gaps_->deviceGaps[size_t(row)]
               : nullptr;
}

int GapsTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !gaps_ ? 0 : int(gaps_->deviceGaps.size());
}

int GapsTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant GapsTableModel::data(const QModelIndex& index, int role) const {
    const ExplainedGap* e = gapAt(index.row());
    if (!e || !trace_) return {};
    const Trace& t = *trace_;
    const TimeNs origin = t.bounds().start;
    const bool late = e->cause == GapCause::LaunchBound || e->cause == GapCause::Synchronization;
    auto because = [&]() -> QString {
        if (e->blockingCall.valid())
            return QObject::tr("after %1").arg(toQString(t.name(e->blockingCall)));
        if (e->waitedOn.valid())
            return QObject::tr("waited on %1").arg(toQString(t.name(e->waitedOn)));
        if (e->waitCall.valid()) return QObject::tr("after %1").arg(toQString(t.name(e->waitCall)));
        return {};
    };
    auto cpu = [&]() {
        QStringList parts;
        for (const CpuOverlap& c : e->cpu)
            parts << QStringLiteral("%1 (%2)").arg(
                toQString(t.str(c.name)), QString::fromStdString(formatDuration(c.overlap)));
        return parts.join(QStringLiteral(", "));
    };
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Start:
            return QString::fromStdString(formatPreciseDuration(e->gap.start - origin));
        case Length:
            return QString::fromStdString(formatDuration(e->gap.duration()));
        case Cause:
            return QString(gapCauseName(e->cause));
        case Late:
            return late ? QString::fromStdString(formatDuration(e->late)) : QString("—");
        case Device:
            return e->gap.device;
        case Because:
            return because();
        case CpuWork:
            return cpu();
        }
        return {};
    case Qt::UserRole:
        switch (index.column()) {
        case Start:
            return qlonglong(e->gap.start - origin);
        case Length:
            return qlonglong(e->gap.duration());
        case Cause:
            return QString(gapCauseName(e->cause));
        case Late:
            return late ? QVariant(qlonglong(e->late)) : QVariant();
        case Device:
            return e->gap.device;
        case Because:
            return because();
        case CpuWork:
            return cpu();
        }
        return {};
    case Qt::ToolTipRole:
        return gapDescription(t, *e);
    case Qt::DecorationRole:
        if (index.column() == Cause) return QColor::fromRgb(gapCauseColor(int(e->cause)));
        return {};
    case Qt::TextAlignmentRole:
        return index.column() <= Late ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    default:
        return {};
    }
}

QVariant GapsTableModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* names[] = {"Start",
                                  "Length",
                                  "Cause",
                                  "Launched late",
                                  "GPU",
                                  "Because",
                                  "CPU work on the launching thread"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace strata
