#pragma once
// A read-only table over a vector of rows, its columns given as (header, text, number) functions:
// every table of the docks (gaps, kernels, categories, CPU ops, copies, steps, findings, the
// Range table) without a model class each. Qt::DisplayRole is the text, Qt::UserRole the number
// (sorting, CSV; empty when the function gives none) or, when a column has no number function,
// its exact text (the full name behind a short one) or the text, Qt::ToolTipRole an optional
// tooltip, Qt::DecorationRole an optional colour or icon. row_columns.h makes the usual columns
// (a time: 4 significant digits, exact on hover; a name: short, full on hover and in CSV).
#include <QAbstractTableModel>

#include <functional>
#include <optional>
#include <vector>

namespace strata {

template <typename Row> struct RowColumn {
    QString header;
    std::function<QString(const Row&)> text;
    std::function<std::optional<double>(const Row&)> number; // empty: by the text
    std::function<QString(const Row&)> tooltip = {};
    std::function<QVariant(const Row&)> decoration = {};
    std::function<QString(const Row&)> exact = {}; // the text in full (sorting, CSV)
    bool numeric() const { return bool(number); }
};

class RowTableModelBase : public QAbstractTableModel {
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;
};

template <typename Row> class RowTableModel : public RowTableModelBase {
public:
    explicit RowTableModel(std::vector<RowColumn<Row>> columns, QObject* parent = nullptr)
        : RowTableModelBase(parent), columns_(std::move(columns)) {}

    void setRows(std::vector<Row> rows) {
        beginResetModel();
        rows_ = std::move(rows);
        endResetModel();
    }
    const std::vector<Row>& rows() const { return rows_; }
    const Row* rowAt(int r) const {
        return r >= 0 && size_t(r) < rows_.size() ? &rows_[size_t(r)] : nullptr;
    }

    int rowCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : int(rows_.size());
    }
    int columnCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : int(columns_.size());
    }
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override {
        const Row* row = rowAt(index.row());
        if (!row || index.column() < 0 || size_t(index.column()) >= columns_.size()) return {};
        const RowColumn<Row>& c = columns_[size_t(index.column())];
        switch (role) {
        case Qt::DisplayRole:
            return c.text(*row);
        case Qt::UserRole: {
            if (!c.numeric()) return c.exact ? c.exact(*row) : c.text(*row);
            const std::optional<double> v = c.number(*row);
            return v ? QVariant(*v) : QVariant();
        }
        case Qt::ToolTipRole:
            return c.tooltip ? QVariant(c.tooltip(*row)) : QVariant();
        case Qt::DecorationRole:
            return c.decoration ? c.decoration(*row) : QVariant();
        case Qt::TextAlignmentRole:
            return c.numeric() ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
        default:
            return {};
        }
    }
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override {
        if (o != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
            size_t(section) >= columns_.size())
            return {};
        return columns_[size_t(section)].header;
    }

private:
    std::vector<RowColumn<Row>> columns_;
    std::vector<Row> rows_;
};

} // namespace strata
