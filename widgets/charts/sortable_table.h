#pragma once
// The analysis docks' tables: a QTableView over a sorting proxy (by Qt::UserRole: the models give
// numbers there), whole rows selected one at a time, compact rows, no row numbers.
#include <QTableView>

class QAbstractItemModel;
class QModelIndex;

namespace strata {

QTableView* makeSortableTable(QAbstractItemModel* model, QWidget* parent, bool stretchLastColumn,
                              bool alternatingRows = true);
// The row in the table's own model of `index`, an index of the view (through its sorting proxy
// when it has one).
int sourceRow(const QTableView* table, const QModelIndex& index);

} // namespace strata
