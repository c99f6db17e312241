// MainWindow: two runs compared (workspace/trace_comparison.h): File > Compare With… (the trace
// open is the baseline), `strata --compare BASELINE CANDIDATE`. The files load on both cores off
// the GUI thread; the window then shows the candidate's tracks under the baseline's and the
// Compare dock.
#include "main_window.h"

#include "compare/compare_panel.h"
#include "io/set/trace_set_loader.h"
#include "timeline/timeline_view.h"
#include "workspace/job_runner.h"
#include "workspace/rank_set.h"
#include "workspace/trace_comparison.h"

#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QProgressBar>
#include <QPushButton>
#include <QStackedWidget>
#include <QStatusBar>

namespace strata {

namespace {

struct LoadedPair {
    std::vector<LoadResult> results;
    qint64 ms = 0;
};

LoadedPair loadPair(const QString& a, const QString& b) {
    QElapsedTimer clock;
    clock.start();
    LoadedPair p{loadTraces({a.toStdString(), b.toStdString()})};
    p.ms = clock.elapsed();
    return p;
}

QString pairError(const LoadedPair& p, const QStringList& paths) {
    QStringList errors;
    for (size_t i = 0; i < p.results.size(); ++i)
        if (!p.results[i].ok())
            errors << (p.results[i].error ? QString::fromStdString(p.results[i].error->toString())
                                          : paths[qsizetype(i)] + QObject::tr(": cannot load"));
    return errors.join('\n');
}

} // namespace

void MainWindow::showCompareDialog() {
    if (!trace()) {
        showError(tr("Open the baseline first: File ▸ Compare With… compares the trace open with "
                     "another."));
        return;
    }
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Compare With"), QFileInfo(currentFile()).absolutePath(),
        tr("Traces (*.json *.json.gz *.gz *.strata);;All files (*)"));
    if (!path.isEmpty()) openComparison(currentFile(), path);
}

void MainWindow::openComparison(const QString& baseline, const QString& candidate) {
    hideError();
    progress_->setRange(0, 0);
    progress_->show();
    statusBar()->showMessage(
        tr("Loading %1 and %2\u2026")
            .arg(QFileInfo(baseline).fileName(), QFileInfo(candidate).fileName()));
    const QStringList paths{QFileInfo(baseline).absoluteFilePath(),
                            QFileInfo(candidate).absoluteFilePath()};
    compareJob_->run([paths](JobControl&) { return loadPair(paths[0], paths[1]); },
                     [this, paths](LoadedPair p) {
                         progress_->hide();
                         progress_->setRange(0, 1000);
                         statusBar()->clearMessage();
                         installComparison(p.results, paths, p.ms);
                     });
}

bool MainWindow::openComparisonSync(const QString& baseline, const QString& candidate,
                                    QString* error) {
    const QStringList paths{QFileInfo(baseline).absoluteFilePath(),
                            QFileInfo(candidate).absoluteFilePath()};
    LoadedPair p = loadPair(paths[0], paths[1]);
    const QString problem = pairError(p, paths);
    if (!problem.isEmpty()) {
        showError(problem);
        if (error) *error = problem;
        return false;
    }
    installComparison(p.results, paths, p.ms);
    workspace_->comparison()->waitForFinished();
    return true;
}

void MainWindow::installComparison(const std::vector<LoadResult>& results, const QStringList& paths,
                                   qint64 ms) {
    const LoadedPair p{results, ms};
    const QString problem = pairError(p, paths);
    if (!problem.isEmpty()) {
        showError(tr("Could not compare:\n%1").arg(problem));
        return;
    }
    workspace_->ranks()->clear();
    workspace_->comparison()->set({paths[0], results[0].trace, {}, std::nullopt},
                                  {paths[1], results[1].trace, {}, std::nullopt}, ms);
    showDock(findChild<ComparePanel*>());
}

void MainWindow::compareRanges(TimeRange baseline, TimeRange candidate) {
    const std::shared_ptr<const Trace> t = trace();
    if (!t || !workspace_->ranks()->isEmpty() || !workspace_->comparison()->isEmpty()) {
        showError(tr("Two ranges are compared within one trace: open it alone first."));
        return;
    }
    const QString path = currentFile();
    workspace_->comparison()->set({path, t, {}, baseline}, {path, t, {}, candidate}, loadTimeMs());
    showDock(findChild<ComparePanel*>());
}

void MainWindow::onComparisonMerged() {
    TraceComparison* c = workspace_->comparison();
    if (c->isEmpty()) return;
    closeEmptyDocks();
    stack_->setCurrentWidget(timeline_);
    setWindowTitle(tr("%1 vs %2 \u2014 Strata")
                       .arg(QFileInfo(c->baseline().path).fileName(),
                            QFileInfo(c->candidate().path).fileName()));
    setWindowFilePath(c->candidate().path);
    showDock(findChild<ComparePanel*>());
    updateStatus();
}

} // namespace strata
