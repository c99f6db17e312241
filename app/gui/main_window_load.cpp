// MainWindow: opening traces (dialog, recent files, drag and drop, sample), the worker-thread
// load with progress and Cancel, and installing a loaded trace into the views.
#include "main_window.h"

#include "find_bar.h"
#include "io/trace_reader.h"
#include "load_job.h"
#include "panels/details_panel.h"
#include "panels/range_panel.h"
#include "panels/warnings_panel.h"
#include "sections/sections_panel.h"
#include "sections_import_dialog.h"
#include "strata_resources.h"
#include "timeline/load_preview_view.h"
#include "timeline/timeline_view.h"
#include "trace_cache_controller.h"
#include "workspace/job_runner.h"
#include "workspace/rank_set.h"
#include "workspace/trace_comparison.h"

#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>

namespace strata {

namespace {
constexpr int kMaxRecent = 10;

QString errorMessage(const LoadError& e) {
    return QStringLiteral("Could not open %1\n%2")
        .arg(QFileInfo(QString::fromStdString(e.file)).fileName(),
             QString::fromStdString(e.toString()));
}
} // namespace

void MainWindow::showOpenDialog() {
    const QString file = currentFile();
    QString dir = file.isEmpty() ? QString() : QFileInfo(file).absolutePath();
    if (dir.isEmpty() && !recent_.isEmpty()) dir = QFileInfo(recent_.front()).absolutePath();
    // What the readers read (io/trace_reader.h), all of it first.
    QStringList all, filters;
    for (const TraceReader* r : traceReaders()) {
        QStringList globs;
        for (std::string_view e : r->extensions)
            globs << "*" + QString::fromUtf8(e.data(), qsizetype(e.size()));
        all << globs;
        filters << QStringLiteral("%1 (%2)").arg(
            QString::fromUtf8(r->description.data(), qsizetype(r->description.size())),
            globs.join(' '));
    }
    all.removeDuplicates();
    filters.prepend(tr("Traces and timer sections (%1)").arg(all.join(' ')));
    filters << tr("All files (*)");
    // Several files chosen at once open as the ranks of one job (main_window_ranks.cpp).
    const QStringList paths = QFileDialog::getOpenFileNames(this, tr("Open Trace"), dir,
                                                            filters.join(QStringLiteral(";;")));
    if (!paths.isEmpty()) openFiles(paths);
}

void MainWindow::openSample() {
    QString error;
    const QString path = sampleTracePath(&error);
    if (path.isEmpty())
        showError(error);
    else
        openFile(path);
}

// True from openFile() until the load's result is handled (the worker may be done already).
bool MainWindow::isLoading() const {
    return !job_.isNull() || setJob_->isRunning();
}

void MainWindow::cancelLoad() {
    if (job_) job_->cancel();
    if (setJob_->isRunning()) {
        setJob_->cancel();
        progress_->hide();
        cancelButton_->hide();
        if (stack_->currentWidget() == loadingPage_) stack_->setCurrentWidget(emptyPage_);
        statusBar()->showMessage(tr("Loading the ranks cancelled"), 8000);
        return;
    }
    statusBar()->showMessage(tr("Cancelling\u2026"));
}

bool MainWindow::importSectionsFile(const QString& path, QString* error,
                                    const LoadOptions& options) {
    QString message;
    const bool ok = openFileSync(path, &message, options);
    if (error) *error = message;
    return ok;
}

void MainWindow::importSectionsInteractively() {
    QStringList filters;
    for (const TraceReader* r : traceReaders()) {
        if (r->kind != ReaderKind::Sections) continue;
        QStringList globs;
        for (std::string_view e : r->extensions)
            globs << "*" + QString::fromUtf8(e.data(), qsizetype(e.size()));
        filters << QStringLiteral("%1 (%2)").arg(
            QString::fromUtf8(r->description.data(), qsizetype(r->description.size())),
            globs.join(' '));
    }
    filters << tr("All files (*)");
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Import Timer Sections"), {}, filters.join(";;"));
    if (path.isEmpty()) return;
    SectionsImportDialog ask(path, this, options_.restoreSettings);
    if (ask.exec() == QDialog::Accepted) openFile(path, ask.options());
}

void MainWindow::openFile(const QString& path, const LoadOptions& options) {
    if (job_) {
        // The old job finishes on its own (its result is dropped) and deletes itself.
        job_->cancel();
        job_ = nullptr;
    }
    hideError();
    // A sections file (a timer array) is attached to the trace open, if any.
    auto* job = new LoadJob(QFileInfo(path).absoluteFilePath(), options, trace(), this);
    job->setCache(cache_->cache());
    job_ = job;
    previewView_->clear();
    previewView_->hide();
    progress_->setValue(0);
    progress_->show();
    cancelButton_->show();
    statusBar()->showMessage(tr("Loading %1\u2026").arg(QFileInfo(path).fileName()));
    // No trace yet: the welcome page gives way to the load's progress at once.
    if (stack_->currentWidget() == emptyPage_ || stack_->currentWidget() == loadingPage_) {
        loadingLabel_->setText(tr("<h3>Loading %1\u2026</h3><p>%2</p>")
                                   .arg(QFileInfo(path).fileName().toHtmlEscaped(),
                                        QFileInfo(path).absolutePath().toHtmlEscaped()));
        loadingBar_->setValue(0);
        stack_->setCurrentWidget(loadingPage_);
    }
    connect(job, &LoadJob::progress, progress_, [this, job](double f) {
        if (job_ != job) return;
        progress_->setValue(static_cast<int>(f * 1000));
        loadingBar_->setValue(static_cast<int>(f * 1000));
    });
    // What has been read so far, while nothing else is on screen.
    connect(job, &LoadJob::previewReady, this, [this, job](std::shared_ptr<const LoadPreview> p) {
        if (job_ != job || stack_->currentWidget() != loadingPage_ || p->empty()) return;
        previewView_->setPreview(std::move(p));
        previewView_->show();
    });
    connect(job, &LoadJob::finished, this,
            [this, job](const LoadOutcome& o, bool cancelled, qint64 ms) {
                onLoadFinished(job, o, cancelled, ms);
            });
    job->start();
}

void MainWindow::onLoadFinished(LoadJob* job, const LoadOutcome& outcome, bool cancelled,
                                qint64 ms) {
    const LoadResult& result = outcome.result;
    job->deleteLater();
    if (job != job_) return; // superseded by a newer load
    job_ = nullptr;
    previewView_->clear();
    previewView_->hide();
    progress_->hide();
    cancelButton_->hide();
    if (stack_->currentWidget() == loadingPage_ && (cancelled || !result.ok()))
        stack_->setCurrentWidget(emptyPage_); // nothing loaded: welcome again
    if (cancelled) {
        statusBar()->showMessage(tr("Loading %1 cancelled").arg(QFileInfo(job->path()).fileName()),
                                 8000);
        emit loadFinished(false, true);
        return;
    }
    if (!result.ok()) {
        statusBar()->clearMessage();
        showError(result.error ? errorMessage(*result.error)
                               : tr("Could not open %1: unknown error").arg(job->path()));
        emit loadFinished(false, false);
        return;
    }
    statusBar()->clearMessage();
    install(outcome, job->path(), ms);
    emit loadFinished(true, false);
}

void MainWindow::install(const LoadOutcome& outcome, const QString& path, qint64 ms) {
    const TraceReader* reader = readerNamed(outcome.result.format);
    const bool sections = reader && reader->kind == ReaderKind::Sections;
    if (outcome.attached) {
        hideError();
        workspace_->amendCurrent(outcome.result.trace); // where the user is stays
        statusBar()->showMessage(tr("Imported the timer sections of %1").arg(path), 8000);
        updateStatus();
    } else {
        fromCache_ = !outcome.result.cacheFile.empty();
        setTrace(outcome.result.trace, path, ms, QString::fromStdString(outcome.result.format));
        cache_->traceShown(path, outcome.result); // kept for next time, in the background
    }
    if (sections) showDock(sections_); // what the file held is in the Sections dock
}

bool MainWindow::openFileSync(const QString& path, QString* error, const LoadOptions& options) {
    QElapsedTimer clock;
    clock.start();
    const QString abs = QFileInfo(path).absoluteFilePath();
    const TraceCache cache = cache_->cache();
    const LoadOutcome o = loadForWorkspace(abs.toStdString(), options, trace(), &cache);
    if (!o.result.ok()) {
        const QString msg =
            o.result.error ? errorMessage(*o.result.error) : tr("Could not open %1").arg(abs);
        showError(msg);
        if (error) *error = msg;
        return false;
    }
    install(o, abs, clock.elapsed());
    timeline_->waitForGaps(); // the picture whole, as when the user looks
    warnings_->waitForJobs();
    return true;
}

void MainWindow::setTrace(std::shared_ptr<const Trace> trace, const QString& path, qint64 loadMs,
                          const QString& format) {
    hideError();
    workspace_->ranks()->clear(); // one trace: no longer a set of ranks or a comparison
    workspace_->comparison()->clear();
    const QFileInfo info(path);
    workspace_->replaceCurrent(std::move(trace), info.fileName(), path, loadMs,
                               format); // views follow
    closeEmptyDocks();
    stack_->setCurrentWidget(timeline_);
    timeline_->setFocus();
    setWindowTitle(tr("%1 \u2014 Strata").arg(info.fileName()));
    setWindowFilePath(path);
    // The bundled sample lives in the cache dir; recent files are the user's own traces.
    if (path != sampleTracePath()) addRecent(path);
    updateStatus();
}

QStringList MainWindow::recentFiles() const {
    return recent_;
}

void MainWindow::addRecent(const QString& path) {
    recent_.removeAll(path);
    recent_.prepend(path);
    while (recent_.size() > kMaxRecent) recent_.removeLast();
    if (options_.restoreSettings) QSettings().setValue(QStringLiteral("recentFiles"), recent_);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    recentMenu_->clear();
    for (const QString& path : recent_) {
        QAction* a = recentMenu_->addAction(QFileInfo(path).fileName());
        a->setToolTip(path);
        a->setStatusTip(path);
        connect(a, &QAction::triggered, this, [this, path] { openFile(path); });
    }
    if (!recent_.isEmpty()) {
        recentMenu_->addSeparator();
        recentMenu_->addAction(tr("Clear List"), this, [this] {
            recent_.clear();
            if (options_.restoreSettings) QSettings().remove(QStringLiteral("recentFiles"));
            rebuildRecentMenu();
        });
    }
    recentMenu_->setEnabled(!recent_.isEmpty());
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (!e->mimeData()->hasUrls()) return;
    for (const QUrl& u : e->mimeData()->urls()) {
        if (u.isLocalFile()) {
            e->acceptProposedAction();
            return;
        }
    }
}

void MainWindow::dropEvent(QDropEvent* e) {
    QStringList files;
    for (const QUrl& u : e->mimeData()->urls()) {
        if (u.isLocalFile()) files << u.toLocalFile();
    }
    if (files.isEmpty()) return;
    e->acceptProposedAction();
    // One file replaces this window's trace; several (or a folder) open as the ranks of a job.
    openFiles(files);
}

} // namespace strata
