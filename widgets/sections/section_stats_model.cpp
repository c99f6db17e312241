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

QVariant SectionStatsModel::data(const QModelIndex& index, int role) const {
    if (!data_ || !index.isValid() || index.row() >= rowCount()) return {};
    const SectionStat& s = data_->stats.sections[size_t(index.row())];
    auto number = [&]() -> double {
        switch (index.column()) {
        case Samples:
            return double(s.samples.count);
        case Blocks:
            return double(s.blocks.count);
        case Mean:
            return s.blocks.mean;
        case Median:
            return s.blocks.median;
        case P95:
            return s.blocks.p95;
        case Max:
            return s.blocks.max;
        case Share:
            return s.share;
        default:
            return 0;
        }
    };
    const bool time = index.column() >= Mean && index.column() <= Max;
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == Name) return QString::fromStdString(s.name);
        if (index.column() == Share) return QString::number(100.0 * s.share, 'f', 1) + " %";
        if (time) return sectionValueText(number(), data_->ns);
        return QString::number(qlonglong(number()));
    case Qt::UserRole:
        if (index.column() == Name) return QString::fromStdString(s.name);
        return number();
    case Qt::ToolTipRole:
        if (time && data_->ns && data_->stats.clockHz > 0)
            return QString("%1 cycles at %2 GHz")
                .arg(number() * data_->stats.clockHz / 1e9, 0, 'f', 0)
                .arg(data_->stats.clockHz / 1e9, 0, 'g', 4);
        return {};
    case Qt::TextAlignmentRole:
        return index.column() == Name ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                      : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant SectionStatsModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal) return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Samples:
            return tr("Closed sections recorded (every block, every iteration)");
        case Blocks:
            return tr("Blocks that ran the section");
        case Mean:
        case Median:
        case P95:
        case Max:
            return tr("Over blocks: each block's total time in the section");
        case Share:
            return tr("The section's time over all sections' time");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole) return {};
    static const char* names[] = {"Section", "Samples", "Blocks", "Mean / block",
                                  "Median",  "P95",     "Max",    "Share"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace strata
