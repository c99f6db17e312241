#include "call_tree_model.h"

#include "model/names/time_text.h"
#include "style/frame_text.h"
#include "style/qt_text.h"

namespace strata {

void CallTreeModel::setTree(std::shared_ptr<const Trace> trace,
                            std::shared_ptr<const CallTree> tree) {
    beginResetModel();
    trace_ = std::move(trace);
    tree_ = std::move(tree);
    rowInParent_.assign(tree_ ? tree_->nodes.size() : 0, 0);
    if (tree_)
        for (const CallNode& n : tree_->nodes)
            for (size_t r = 0; r < n.children.size(); ++r)
                rowInParent_[n.children[r]] = uint32_t(r);
    endResetModel();
}

uint32_t CallTreeModel::nodeOf(const QModelIndex& i) const {
    return i.isValid() ? uint32_t(i.internalId()) : 0;
}

QModelIndex CallTreeModel::indexOf(uint32_t node) const {
    if (!tree_ || node == 0 || node >= tree_->nodes.size()) return {};
    return createIndex(int(rowInParent_[node]), 0, quintptr(node));
}

QModelIndex CallTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (!tree_ || row < 0 || column < 0 || column >= ColumnCount) return {};
    const CallNode& p = tree_->nodes[nodeOf(parent)];
    if (size_t(row) >= p.children.size()) return {};
    return createIndex(row, column, quintptr(p.children[size_t(row)]));
}

QModelIndex CallTreeModel::parent(const QModelIndex& child) const {
    if (!tree_ || !child.isValid()) return {};
    const uint32_t p = tree_->nodes[nodeOf(child)].parent;
    return p == 0 || p == UINT32_MAX ? QModelIndex() : indexOf(p);
}

int CallTreeModel::rowCount(const QModelIndex& parent) const {
    if (!tree_ || (parent.isValid() && parent.column() != 0)) return 0;
    return int(tree_->nodes[nodeOf(parent)].children.size());
}

int CallTreeModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant CallTreeModel::data(const QModelIndex& index, int role) const {
    if (!tree_ || !trace_ || !index.isValid()) return {};
    const CallNode& n = tree_->nodes[nodeOf(index)];
    auto d = [](TimeNs ns) { return QString::fromStdString(formatDuration(ns)); };
    auto exact = [](TimeNs ns) { return QString::fromStdString(formatPreciseDuration(ns)); };
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Name: // short; in full on hover, for sorting and in CSV
            return samples_ ? sampleFrameText(trace_->str(n.name))
                            : toQString(trace_->displayName(n.name));
        case Total:
            return d(n.total);
        case Self:
            return d(n.self);
        case Count:
            return QString::number(n.count);
        case Gpu:
            return n.gpu ? d(n.gpu) : QString();
        }
    } else if (role == Qt::UserRole) {
        switch (index.column()) {
        case Name:
            return toQString(trace_->str(n.name));
        case Total:
            return qlonglong(n.total);
        case Self:
            return qlonglong(n.self);
        case Count:
            return qulonglong(n.count);
        case Gpu:
            return qlonglong(n.gpu);
        }
    } else if (role == Qt::ToolTipRole) {
        switch (index.column()) {
        case Name:
            return wrappedText(trace_->str(n.name));
        case Total:
            return exact(n.total);
        case Self:
            return exact(n.self);
        case Gpu:
            return n.gpu ? exact(n.gpu) : QString();
        }
    } else if (role == Qt::TextAlignmentRole && index.column() != Name) {
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant CallTreeModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* names[] = {"Name", "Total", "Self", "Count", "GPU launched"};
    if (section == Count && samples_) return tr("Samples");
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

void CallTreeModel::setSamples(bool on) {
    if (samples_ == on) return;
    samples_ = on;
    emit headerDataChanged(Qt::Horizontal, Count, Count);
}

} // namespace strata
