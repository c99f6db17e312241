#pragma once
// The Gaps dock's table: every device gap over the threshold (core/analysis/gap_causes.h) with its
// start (from the trace start), length, cause, how late its launch was, the blocking call or what
// a dependency waited on, and the CPU work on the launching thread. Qt::UserRole gives numbers
// (sorting, CSV); Qt::ToolTipRole the gap's whole description.
#include "analysis/gap_causes.h"

#include <QAbstractTableModel>

#include <memory>

namespace strata {

class GapsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Start, Length, Cause, Late, Device, Because, CpuWork, ColumnCount };
    using QAbstractTableModel::QAbstractTableModel;

    void setGaps(std::shared_ptr<const Trace> trace, std::shared_ptr<const GapCauses> gaps);
    const ExplainedGap* gapAt(int row) const;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const Trace> trace_;
    std::shared_ptr<const GapCauses> gaps_;
};

} // namespace strata
