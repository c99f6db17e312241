#include "export_actions.h"

#include "main_window.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QMenu>
#include <QMessageBox>
#include <QProgressDialog>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>

namespace strata {

ExportActions::ExportActions(MainWindow* window, QMenu* fileMenu)
    : QObject(window), window_(window) {
    QMenu* menu = fileMenu->addMenu(tr("&Export"));
    menu->setObjectName(QStringLiteral("exportMenu"));
    whole_ = menu->addAction(tr("&Perfetto JSON\u2026"), this, [this] { chooseAndExport(false); });
    whole_->setObjectName(QStringLiteral("actionExportPerfetto"));
    whole_->setToolTip(tr("The whole trace as Perfetto / Chrome JSON (.json, or .json.gz)"));
    range_ = menu->addAction(tr("Perfetto JSON, &Selected Range\u2026"), this,
                             [this] { chooseAndExport(true); });
    range_->setObjectName(QStringLiteral("actionExportPerfettoRange"));
    range_->setToolTip(tr("Every event that overlaps the selected range (slices kept whole)"));
    connect(window->workspace(), &Workspace::currentChanged, this, &ExportActions::update);
    connect(window->navigation(), &Navigation::selectedRangeChanged, this, &ExportActions::update);
    update();
}

void ExportActions::update() {
    const bool trace = window_->trace() != nullptr;
    whole_->setEnabled(trace);
    range_->setEnabled(trace && window_->navigation()->selectedRange().has_value());
}

void ExportActions::chooseAndExport(bool selectedRange) {
    QSettings settings;
    const QString dir = settings.value(QStringLiteral("export/lastFolder")).toString();
    QString suggested = QFileInfo(window_->currentFile()).completeBaseName();
    if (suggested.endsWith(QStringLiteral(".json"))) suggested.chop(5);
    suggested +=
        selectedRange ? QStringLiteral("-range.perfetto.json") : QStringLiteral(".perfetto.json");
    const QString path = QFileDialog::getSaveFileName(
        window_, tr("Export Perfetto JSON"),
        QDir(dir.isEmpty() ? QDir::homePath() : dir).filePath(suggested),
        tr("Perfetto JSON (*.json *.json.gz);;All files (*)"));
    if (path.isEmpty()) return;
    settings.setValue(QStringLiteral("export/lastFolder"), QFileInfo(path).path());
    const PerfettoExportResult r = exportTo(path, selectedRange);
    if (r.cancelled) {
        window_->statusBar()->showMessage(tr("Export cancelled: no file was written"), 8000);
    } else if (!r.ok) {
        QMessageBox::warning(window_, tr("Export Failed"), QString::fromStdString(r.error));
    }
}

PerfettoExportResult ExportActions::exportTo(const QString& path, bool selectedRange) {
    const std::shared_ptr<const Trace> trace = window_->trace();
    PerfettoExportResult result;
    if (!trace) {
        result.error = "no trace is open";
        return result;
    }
    PerfettoExportOptions o;
    o.gzip = path.endsWith(QStringLiteral(".gz"));
    o.sourceFile = window_->currentFile().toStdString();
    if (selectedRange) o.range = window_->navigation()->selectedRange();
    auto progress = std::make_shared<std::atomic<int>>(0);
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    o.progress = [progress, cancel](double f) {
        progress->store(int(f * 1000));
        return !cancel->load();
    };
    QProgressDialog dialog(tr("Exporting %1\u2026").arg(QFileInfo(path).fileName()), tr("Cancel"),
                           0, 1000, window_);
    dialog.setObjectName(QStringLiteral("exportProgress"));
    dialog.setWindowModality(Qt::WindowModal);
    dialog.setMinimumDuration(300);
    connect(&dialog, &QProgressDialog::canceled, this, [cancel] { cancel->store(true); });
    QFutureWatcher<PerfettoExportResult> watcher;
    QEventLoop loop;
    connect(&watcher, &QFutureWatcher<PerfettoExportResult>::finished, &loop, &QEventLoop::quit);
    QTimer tick;
    connect(&tick, &QTimer::timeout, &dialog, [&] { dialog.setValue(progress->load()); });
    tick.start(100);
    const std::string out = path.toStdString();
    watcher.setFuture(
        QtConcurrent::run([trace, out, o] { return exportPerfettoJson(*trace, out, o); }));
    loop.exec();
    tick.stop();
    dialog.reset();
    result = watcher.result();
    if (result.ok) {
        QString text = tr("Exported %L1 events (%2 MB) to %3")
                           .arg(result.events)
                           .arg(double(result.bytes) / 1e6, 0, 'f', 1)
                           .arg(path);
        if (result.sectionSamplesDropped)
            text += tr("; %L1 in-kernel section records not written (no kernel or no times to "
                       "place them)")
                        .arg(result.sectionSamplesDropped);
        window_->statusBar()->showMessage(text, 10000);
    }
    return result;
}

} // namespace strata
