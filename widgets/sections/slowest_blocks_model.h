#pragma once
// The slowest blocks of the launch the Sections view shows: block, SM, total time and its time in
// each section, slowest first (at most kMaxRows). Selecting one marks it on the charts.
#include "section_view_data.h"

#include <QAbstractTableModel>

namespace strata {

class SlowestBlocksModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int kMaxRows = 200;
    using QAbstractTableModel::QAbstractTableModel;

    void setData(const SectionViewData* data);
    // Index into SectionViewData::blocks of row `row`.
    size_t blockAt(int row) const { return order_[size_t(row)]; }
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    const SectionViewData* data_ = nullptr;
    std::vector<size_t> order_; // slowest first
};

} // namespace strata
