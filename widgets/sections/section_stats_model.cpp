#include "section_stats_model.h"

namespace strata {

void SectionStatsModel::setData(const SectionViewData* data) {
    beginResetModel();
    data_ = data;
    endResetModel();
}

int SectionStatsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !data_ ? 0 : int(data_->stats.sections.size());
}

int SectionStatsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

bool SectionStatsModel::perIteration() const {
    return data_ && data_->perIteration;
}

double SectionStatsModel::number(const SectionStat& s, int column) const {
    // An array's figures are over its iterations (the samples), as strata-cli sections prints
    // them; a recording's over its blocks' totals.
    const ValueStats& v = perIteration() ? s.samples : s.blocks;
    switch (column) {
    case Samples:
        return double(s.samples.count);
    case Blocks:
        return perIteration() ? s.samples.total : double(s.blocks.count);
    case Mean:
        return v.mean;
    case Median:
        return v.median;
    case P95:
        return v.p95;
    case Max:
        return v.max;
    case Share:
        return s.share;
    default:
        return 0;
    }
}

bool SectionStatsModel::isTime(int column) const {
    return (column >= Mean && column <= Max) || (column == Blocks && perIteration());
}

QVariant SectionStatsModel::data(const QModelIndex& index, int role) const {
    if (!data_ || !index.isValid() || index.row() >= rowCount()) return {};
    const SectionStat& s = data_->stats.sections[size_t(index.row())];
    const int c = index.column();
    switch (role) {
    case Qt::DisplayRole:
        if (c == Name) return QString::fromStdString(s.name);
        if (c == Share) return QString::number(100.0 * s.share, 'f', 1) + " %";
        if (isTime(c)) return sectionValueText(number(s, c), data_->ns);
        return QString::number(qlonglong(number(s, c)));
    case Qt::UserRole:
        if (c == Name) return QString::fromStdString(s.name);
        return number(s, c);
    case Qt::ToolTipRole: {
        if (!isTime(c)) return {};
        // The exact value, and the cycles behind a time.
        QString tip = QString::number(number(s, c), 'g', 15) + (data_->ns ? " ns" : " cycles");
        if (data_->ns && data_->stats.clockHz > 0)
            tip += QString(" = %1 cycles at %2 GHz")
                       .arg(number(s, c) * data_->stats.clockHz / 1e9, 0, 'g', 15)
                       .arg(data_->stats.clockHz / 1e9, 0, 'g', 4);
        return tip;
    }
    case Qt::TextAlignmentRole:
        return c == Name ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                         : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant SectionStatsModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal) return {};
    const bool it = perIteration();
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Samples:
            return it ? tr("Iterations: the array's values of the section")
                      : tr("Closed sections recorded (every block, every iteration)");
        case Blocks:
            return it ? tr("The section's time over all iterations")
                      : tr("Blocks that ran the section");
        case Mean:
        case Median:
        case P95:
        case Max:
            return it ? tr("Over iterations (median: the middle value, the mean of the two "
                           "middle ones for an even count; p95: nearest rank), as strata-cli "
                           "sections gives them")
                      : tr("Over blocks: each block's total time in the section");
        case Share:
            return tr("The section's time over all sections' time");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole) return {};
    static const char* perBlock[] = {"Section", "Samples", "Blocks", "Mean / block",
                                     "Median",  "P95",     "Max",    "Share"};
    static const char* perIter[] = {"Section", "Iterations", "Total", "Mean",
                                    "Median",  "P95",        "Max",   "Share"};
    if (section < 0 || section >= ColumnCount) return {};
    return tr(it ? perIter[section] : perBlock[section]);
}

} // namespace strata
