#include "sortable_table.h"

#include <QHeaderView>
#include <QSortFilterProxyModel>

namespace strata {

namespace {
constexpr int kFitRows = 100;
}

QTableView* makeSortableTable(QAbstractItemModel* model, QWidget* parent, bool stretchLastColumn,
                              bool alternatingRows) {
    auto* proxy = new QSortFilterProxyModel(parent);
    proxy->setSourceModel(model);
    proxy->setSortRole(Qt::UserRole);
    auto* view = new QTableView(parent);
    view->setModel(proxy);
    view->setSortingEnabled(true);
    view->sortByColumn(-1, Qt::AscendingOrder); // the model's order until a header is clicked
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setStretchLastSection(stretchLastColumn);
    // Fitting columns to their contents measures the rows in view and this many more, not all
    // (a table of thousands of rows is filled in a few ms on the GUI thread).
    view->horizontalHeader()->setResizeContentsPrecision(kFitRows);
    view->setAlternatingRowColors(alternatingRows);
    return view;
}

int sourceRow(const QTableView* table, const QModelIndex& index) {
    const auto* proxy = qobject_cast<const QSortFilterProxyModel*>(table->model());
    return proxy ? proxy->mapToSource(index).row() : index.row();
}

} // namespace strata
