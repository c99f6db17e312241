#include "slowest_blocks_model.h"

#include <algorithm>
#include <numeric>

namespace strata {

namespace {
constexpr int kFixedColumns = 3; // block, SM, total
}

void SlowestBlocksModel::setData(const SectionViewData* data) {
    beginResetModel();
    data_ = data;
    order_.clear();
    if (data_) {
        order_.resize(data_->blocks.size());
        std::iota(order_.begin(), order_.end(), size_t(0));
        const size_t n = std::min<size_t>(order_.size(), kMaxRows);
        std::partial_sort(order_.begin(), order_.begin() + ptrdiff_t(n), order_.end(),
                          [&](size_t a, size_t b) {
                              if (data_->blocks[a].total != data_->blocks[b].total)
                                  return data_->blocks[a].total > data_->blocks[b].total;
                              return data_->blocks[a].block < data_->blocks[b].block;
                          });
        order_.resize(n);
    }
    endResetModel();
}

int SlowestBlocksModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(order_.size());
}

int SlowestBlocksModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() || !data_ ? 0 : kFixedColumns + int(data_->names.size());
}

QVariant SlowestBlocksModel::data(const QModelIndex& index, int role) const {
    if (!data_ || !index.isValid() || index.row() >= rowCount()) return {};
    const BlockSections& b = data_->blocks[order_[size_t(index.row())]];
    const int c = index.column();
    double value = 0;
    if (c == 0)
        value = b.block;
    else if (c == 1)
        value = b.sm;
    else if (c == 2)
        value = b.total;
    else if (size_t(c - kFixedColumns) < b.bySection.size())
        value = b.bySection[size_t(c - kFixedColumns)];
    switch (role) {
    case Qt::DisplayRole:
        if (c < 2)
            return c == 1 && !data_->launch->hasTimes ? QString("—")
                                                      : QString::number(qlonglong(value));
        return sectionValueText(value, data_->ns);
    case Qt::UserRole:
        return value;
    case Qt::ToolTipRole:
        if (c >= 2 && data_->ns && data_->clockHz > 0)
            return QString("%1 cycles").arg(value * data_->clockHz / 1e9, 0, 'f', 0);
        return {};
    case Qt::TextAlignmentRole:
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant SlowestBlocksModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole || !data_) return {};
    if (section == 0) return tr("Block");
    if (section == 1) return tr("SM");
    if (section == 2) return tr("Total");
    const size_t s = size_t(section - kFixedColumns);
    return s < data_->names.size() ? QString::fromStdString(data_->names[s]) : QVariant();
}

} // namespace strata
