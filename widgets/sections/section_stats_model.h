#pragma once
// The Sections view's table: one row per section of the chosen launches: the samples (closed
// sections), the blocks that ran it and, over those blocks' totals in it, the mean, median, p95
// and max, and its share of all sections' time. For an imported timer array (no blocks) the same
// columns are over its iterations, as strata-cli sections prints them: iterations, total, mean,
// median, p95, max, share (core/analysis/section_stats.h, the one implementation). Times shown
// through the clock rate, the exact value and raw cycles on hover; Qt::UserRole gives the number
// (sorting, CSV).
#include "section_view_data.h"

#include <QAbstractTableModel>

namespace strata {

class SectionStatsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // Per iteration (an array), Samples is the iteration count and Blocks the total.
    enum Column { Name, Samples, Blocks, Mean, Median, P95, Max, Share, ColumnCount };
    using QAbstractTableModel::QAbstractTableModel;

    void setData(const SectionViewData* data); // null: empty; the data outlives the model's use
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

    bool perIteration() const; // the figures are over iterations (an imported array)

private:
    double number(const SectionStat& s, int column) const;
    bool isTime(int column) const;
    const SectionViewData* data_ = nullptr;
};

} // namespace strata
