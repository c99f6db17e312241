#pragma once
// File > Export: Perfetto JSON of the whole trace or of the selected range (.json, or .json.gz
// gzip'd, chosen by the name), written on a worker thread with a progress dialog and Cancel
// (io/export/perfetto_json_export.h; an error or a cancel leaves no file).
#include "io/export/perfetto_json_export.h"

#include <QObject>
#include <QString>

class QAction;
class QMenu;

namespace strata {

class MainWindow;

class ExportActions : public QObject {
    Q_OBJECT
public:
    ExportActions(MainWindow* window, QMenu* fileMenu);

    // Exports the current trace to `path` (the selected range when `selectedRange`), showing
    // progress; returns when it is done. For the actions and for tests.
    PerfettoExportResult exportTo(const QString& path, bool selectedRange);

private:
    void chooseAndExport(bool selectedRange);
    void update();

    MainWindow* window_;
    QAction* whole_;
    QAction* range_;
};

} // namespace strata
