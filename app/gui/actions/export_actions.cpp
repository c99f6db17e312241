#include "actions/export_actions.h"

#include "timeline/timeline_view.h"
#include "window/window_context.h"
#include "workspace/job_runner.h"
#include "workspace/navigation.h"
#include "workspace/workspace.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QProgressDialog>
#include <QSettings>
#include <QStatusBar>

namespace strata {

ExportActions::ExportActions(WindowContext* window, QMenu* fileMenu)
    : QObject(window->window()), window_(window), jobs_(new JobRunner(this)) {
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
    // Not what a load has read so far (Workspace::showPreview).
    const bool trace = window_->workspace()->current() && !window_->workspace()->previewing();
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
        window_->window(), tr("Export Perfetto JSON"),
        QDir(dir.isEmpty() ? QDir::homePath() : dir).filePath(suggested),
        tr("Perfetto JSON (*.json *.json.gz);;All files (*)"));
    if (path.isEmpty()) return;
    settings.setValue(QStringLiteral("export/lastFolder"), QFileInfo(path).path());
    interactive_ = true; // a failure is said in a message box
    start(path, selectedRange);
}

void ExportActions::start(const QString& path, bool selectedRange) {
    const std::shared_ptr<const Trace> trace = window_->workspace()->current();
    if (!trace) {
        PerfettoExportResult r;
        r.error = "no trace is open";
        finished(std::move(r), path);
        return;
    }
    PerfettoExportOptions o;
    o.gzip = path.endsWith(QStringLiteral(".gz"));
    o.sourceFile = window_->currentFile().toStdString();
    if (selectedRange) o.range = window_->navigation()->selectedRange();
    // The user's notes and flags on the timeline, as "strata.note" / "strata.flag" events.
    if (const auto* timeline = window_->window()->findChild<TimelineView*>())
        o.notes = timeline->notes();
    delete dialog_;
    dialog_ = new QProgressDialog(tr("Exporting %1\u2026").arg(QFileInfo(path).fileName()),
                                  tr("Cancel"), 0, 1000, window_->window());
    dialog_->setObjectName(QStringLiteral("exportProgress"));
    dialog_->setWindowModality(Qt::WindowModal);
    dialog_->setMinimumDuration(300);
    dialog_->setAutoClose(false);
    dialog_->setAutoReset(false);
    QProgressDialog* dialog = dialog_;
    connect(jobs_, &JobRunner::progress, dialog,
            [dialog](double f) { dialog->setValue(int(f * 1000)); });
    // Cancel: the writer sees it at its next progress call and removes what it wrote.
    connect(dialog, &QProgressDialog::canceled, jobs_, &JobRunner::cancel);
    disconnect(jobs_, &JobRunner::finished, this, nullptr);
    connect(jobs_, &JobRunner::finished, this, [this, path](bool delivered) {
        if (delivered) return; // finished() has it
        PerfettoExportResult r;
        r.cancelled = true;
        finished(std::move(r), path);
    });
    jobs_->run(
        [trace, out = path.toStdString(), o](JobControl& control) mutable {
            o.progress = [&control](double f) {
                control.setProgress(f);
                return !control.cancelled();
            };
            return exportPerfettoJson(*trace, out, o);
        },
        [this, path](PerfettoExportResult r) { finished(std::move(r), path); });
}

void ExportActions::finished(PerfettoExportResult r, const QString& path) {
    if (dialog_) {
        dialog_->deleteLater();
        dialog_ = nullptr;
    }
    if (r.ok) {
        QString text = tr("Exported %L1 events (%2 MB) to %3")
                           .arg(r.events)
                           .arg(double(r.bytes) / 1e6, 0, 'f', 1)
                           .arg(path);
        if (r.sectionSamplesDropped)
            text += tr("; %L1 in-kernel section records not written (no kernel or no times to "
                       "place them)")
                        .arg(r.sectionSamplesDropped);
        window_->say(text, 10000);
    } else if (r.cancelled)
        window_->say(tr("Export cancelled: no file was written"), 8000);
    else if (interactive_)
        QMessageBox::warning(window_->window(), tr("Export Failed"),
                             QString::fromStdString(r.error));
    interactive_ = false;
    last_ = r;
    emit exported(r, path);
}

void ExportActions::waitForFinished() {
    jobs_->waitForFinished();
}

PerfettoExportResult ExportActions::exportTo(const QString& path, bool selectedRange) {
    start(path, selectedRange);
    waitForFinished();
    return last_;
}

} // namespace strata
