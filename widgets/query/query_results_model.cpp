#include "query_results_model.h"

#include <QApplication>
#include <QPalette>
#include <QRegularExpression>

namespace strata {

int sliceIdColumn(const QStringList& columns, const QString& sql) {
    static const QStringList kSliceColumns{
        "slice_id", "launch_id", "cpu_op_id", "parent_id",        "prev_id",
        "next_id",  "from_id",   "to_id",     "blocking_call_id", "waited_on_id"};
    static const QRegularExpression kSliceTables(QStringLiteral("\\b(slices|gpu_ops|api_calls)\\b"),
                                                 QRegularExpression::CaseInsensitiveOption);
    const bool readsSlices = kSliceTables.match(sql).hasMatch();
    for (int c = 0; c < columns.size(); ++c) {
        const QString name = columns[c].toLower();
        if (kSliceColumns.contains(name) || (readsSlices && name == QStringLiteral("id"))) return c;
    }
    return -1;
}

QueryResultsModel::QueryResultsModel(QObject* parent) : QAbstractTableModel(parent) {}

void QueryResultsModel::reset(const QStringList& columns, int sliceColumn) {
    beginResetModel();
    columns_ = columns;
    sliceColumn_ = sliceColumn;
    cells_.clear();
    cells_.shrink_to_fit();
    endResetModel();
}

void QueryResultsModel::append(std::vector<QVariant> cells) {
    const qsizetype width = columns_.size();
    if (width == 0 || cells.empty()) return;
    const int first = rowCount();
    const int added = int(qsizetype(cells.size()) / width);
    beginInsertRows({}, first, first + added - 1);
    cells_.insert(cells_.end(), std::make_move_iterator(cells.begin()),
                  std::make_move_iterator(cells.end()));
    endInsertRows();
}

QVariant QueryResultsModel::cell(int row, int column) const {
    if (row < 0 || row >= rowCount() || column < 0 || column >= columnCount()) return {};
    return cells_[size_t(row) * size_t(columns_.size()) + size_t(column)];
}

int64_t QueryResultsModel::sliceId(int row) const {
    const QVariant v = cell(row, sliceColumn_);
    return v.typeId() == QMetaType::LongLong ? v.toLongLong() : -1;
}

int QueryResultsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || columns_.isEmpty() ? 0
                                                  : int(cells_.size() / size_t(columns_.size()));
}

int QueryResultsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(columns_.size());
}

QVariant QueryResultsModel::data(const QModelIndex& index, int role) const {
    const QVariant v = cell(index.row(), index.column());
    switch (role) {
    case Qt::DisplayRole:
        if (!v.isValid()) return QStringLiteral("NULL");
        if (v.typeId() == QMetaType::Double) return QString::number(v.toDouble(), 'g', 10);
        if (v.typeId() == QMetaType::QString && v.toString().contains(QLatin1Char('\n')))
            return v.toString().simplified();
        return v.toString();
    case Qt::ToolTipRole:
        if (v.typeId() == QMetaType::QString && v.toString().size() > 40) return v;
        if (index.column() == sliceColumn_ && v.isValid())
            return tr("Click: select this slice on the timeline; double-click: zoom to it");
        return {};
    case Qt::UserRole:
        return v;
    case Qt::ForegroundRole:
        if (!v.isValid()) return QApplication::palette().color(QPalette::PlaceholderText);
        return {};
    case Qt::TextAlignmentRole:
        if (v.typeId() == QMetaType::LongLong || v.typeId() == QMetaType::Double)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    default:
        return {};
    }
}

QVariant QueryResultsModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || section < 0 || section >= columns_.size()) return {};
    if (role == Qt::DisplayRole) return columns_[section];
    if (role == Qt::ToolTipRole && section == sliceColumn_)
        return tr("%1: a slice's id; a row's slice is selected on the timeline")
            .arg(columns_[section]);
    return {};
}

} // namespace strata
