#pragma once
// A call tree (core/analysis/call_tree.h) as a Qt tree model: name, total, self, count and the GPU
// time launched under each node; Qt::UserRole gives numbers for sorting.
#include "analysis/call_tree.h"

#include <QAbstractItemModel>

#include <memory>

namespace strata {

class CallTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { Name, Total, Self, Count, Gpu, ColumnCount };
    using QAbstractItemModel::QAbstractItemModel;

    void setTree(std::shared_ptr<const Trace> trace, std::shared_ptr<const CallTree> tree);
    // A tree of stack samples (analysis/samples/sample_call_tree.h): Count reads "Samples", names
    // read "file:line function" (style/frame_text.h; in full for sorting and on hover).
    void setSamples(bool on);
    uint32_t nodeOf(const QModelIndex& i) const;
    QModelIndex indexOf(uint32_t node) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const Trace> trace_;
    std::shared_ptr<const CallTree> tree_;
    std::vector<uint32_t> rowInParent_;
    bool samples_ = false;
};

} // namespace strata
