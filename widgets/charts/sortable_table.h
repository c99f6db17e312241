#pragma once
// The analysis docks' tables: a QTableView over a sorting proxy (by Qt::UserRole: the models give
// numbers there), whole rows selected one at a time, compact rows, no row numbers.
#include <QTableView>

class QAbstractItemModel;

namespace strata {

QTableView* makeSortableTable(QAbstractItemModel* model, QWidget* parent, bool stretchLastColumn,
                              bool alternatingRows = true);

} // namespace strata
