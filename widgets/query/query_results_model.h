#pragma once
// The Query dock's results: the columns of the last statement and up to its first rows, held as
// cells (an integer, a real, a text or NULL), appended in batches as they stream in. Qt::UserRole
// gives the raw value (the sorting proxy of charts/sortable_table.h sorts by it: numbers as
// numbers, NULL last); the display shows NULL greyed and a multi-line text (a JSON array) on one
// line, in full on hover.
//
// The slice column: the first column that holds a slice's id (core/query: slices.id, gpu_ops.id and
// api_calls.id are one global id), by its name — slice_id, launch_id, cpu_op_id, parent_id,
// prev_id, next_id, from_id, to_id, blocking_call_id, waited_on_id, or id when the SQL reads
// slices, gpu_ops or api_calls (the id of instants, flows or devices is not a slice's). A row's
// value there selects its slice on the timeline.
#include <QAbstractTableModel>
#include <QStringList>
#include <QVariant>

#include <vector>

namespace strata {

// The slice column of a result with these columns, made by `sql` (-1: none).
int sliceIdColumn(const QStringList& columns, const QString& sql);

class QueryResultsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit QueryResultsModel(QObject* parent = nullptr);

    void reset(const QStringList& columns, int sliceColumn);
    void clear() { reset({}, -1); }
    // Whole rows, flat (columnCount() cells each).
    void append(std::vector<QVariant> cells);

    const QStringList& columns() const { return columns_; }
    int sliceColumn() const { return sliceColumn_; }
    // The slice id of row `row` (the model's own order); -1 when it has none.
    int64_t sliceId(int row) const;
    QVariant cell(int row, int column) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    QStringList columns_;
    int sliceColumn_ = -1;
    std::vector<QVariant> cells_;
};

} // namespace strata
