#pragma once
// File > Export: Perfetto JSON of the whole trace or of the selected range (.json, or .json.gz
// gzip'd, chosen by the name), written off the GUI thread through a JobRunner (the one way Strata
// works off it) with a progress dialog and Cancel (io/export/perfetto_json_export.h; an error or
// a cancel leaves no file).
#include "io/export/perfetto_json_export.h"

#include <QObject>
#include <QString>

class QAction;
class QMenu;
class QProgressDialog;

namespace strata {

class JobRunner;
class WindowContext;

class ExportActions : public QObject {
    Q_OBJECT
public:
    ExportActions(WindowContext* window, QMenu* fileMenu);

    // Starts exporting the current trace to `path` (the selected range when `selectedRange`),
    // showing progress; exported() says how it went. An export in progress is cancelled first.
    void start(const QString& path, bool selectedRange);
    void waitForFinished();
    // start() and waitForFinished(): the result (tests).
    PerfettoExportResult exportTo(const QString& path, bool selectedRange);

signals:
    void exported(const strata::PerfettoExportResult& result, const QString& path);

private:
    void chooseAndExport(bool selectedRange);
    void update();
    void finished(PerfettoExportResult result, const QString& path);

    WindowContext* window_;
    QAction* whole_;
    QAction* range_;
    JobRunner* jobs_;
    QProgressDialog* dialog_ = nullptr;
    PerfettoExportResult last_;
    bool interactive_ = false; // started from the menu: a failure gets a message box
};

} // namespace strata
