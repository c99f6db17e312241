#pragma once
// Saving what a view shows: a QCustomPlot chart as PNG, SVG or PDF (by the file's suffix), and a
// table model as CSV (its header, then every row; numbers and exact texts, such as the full name
// behind a short one, from Qt::UserRole when a model gives them, else the displayed text, "—" as
// an empty cell). One implementation for every chart and
// table of every view.
#include <QString>

class QAbstractItemModel;
class QCustomPlot;
class QWidget;

namespace strata {

// The file dialog's filters for each.
QString chartFileFilter(); // "PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"
QString tableFileFilter(); // "CSV table (*.csv)"

// `path`'s suffix picks the format; false and *error when it cannot be written.
bool saveChart(QCustomPlot* plot, const QString& path, QString* error);
bool saveTableCsv(const QAbstractItemModel* model, const QString& path, QString* error);
// A widget drawn by itself (the flame graph) as PNG, SVG or PDF, by the file's suffix.
bool saveWidget(QWidget* widget, const QString& path, QString* error);
// A tree model as CSV: every row, depth first, its depth in a first column.
bool saveTreeCsv(const QAbstractItemModel* model, const QString& path, QString* error);

// Asks for a file (in `parent`) and saves; a failure is shown in a message box.
void exportChartInteractively(QWidget* parent, QCustomPlot* plot, const QString& baseName);
void exportTableInteractively(QWidget* parent, const QAbstractItemModel* model,
                              const QString& baseName);
void exportWidgetInteractively(QWidget* parent, QWidget* widget, const QString& baseName);
void exportTreeInteractively(QWidget* parent, const QAbstractItemModel* model,
                             const QString& baseName);

} // namespace strata
