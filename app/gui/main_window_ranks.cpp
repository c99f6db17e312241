// MainWindow: several traces at once as the ranks of one job (workspace/rank_set.h): the command
// line's, the Open dialog's and a drop's files, a folder, File > Add Ranks. Loaded on all cores
// off the GUI thread with progress and Cancel; the set is shown as one timeline and the Ranks dock.
#include "main_window.h"

#include "io/digest_reader.h"
#include "io/trace_reader.h"
#include "model/names/time_text.h"
#include "ranks/ranks_panel.h"
#include "timeline/timeline_view.h"
#include "workspace/analyses.h"
#include "workspace/job_runner.h"
#include "workspace/rank_set.h"
#include "workspace/trace_comparison.h"

#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QStackedWidget>
#include <QStatusBar>

namespace strata {

namespace {

// The files a folder holds that a reader of whole traces recognises by name, by name.
QStringList traceFilesIn(const QString& folder) {
    QStringList globs;
    for (const TraceReader* r : traceReaders()) {
        if (r->kind == ReaderKind::Sections) continue;
        for (std::string_view e : r->extensions)
            globs << "*" + QString::fromUtf8(e.data(), qsizetype(e.size()));
    }
    QStringList out;
    const QDir dir(folder);
    for (const QString& name : dir.entryList(globs, QDir::Files, QDir::Name))
        out << dir.absoluteFilePath(name);
    return out;
}

QStringList expandFolders(const QStringList& paths) {
    QStringList files;
    for (const QString& p : paths) {
        if (QFileInfo(p).isDir())
            files << traceFilesIn(p);
        else
            files << QFileInfo(p).absoluteFilePath();
    }
    files.removeDuplicates();
    return files;
}

// A digest `strata-cli digest` wrote opens as a set of ranks even alone (told by its first bytes,
// as the CLI tells it: io/digest_reader.h).
bool isDigest(const QString& path) {
    return isDigestFile(path.toStdString());
}

QString loadErrors(const QStringList& errors) {
    return (errors.size() == 1
                ? QObject::tr("1 file of the set could not be opened and was left out:\n")
                : QObject::tr("%1 files of the set could not be opened and were left out:\n")
                      .arg(errors.size())) +
           errors.join('\n');
}

} // namespace

void MainWindow::createSetJobs() {
    setJob_ = new JobRunner(this);
    compareJob_ = new JobRunner(this);
    connect(setJob_, &JobRunner::progress, this, [this](double f) {
        progress_->setValue(int(f * 1000));
        loadingBar_->setValue(int(f * 1000));
    });
    connect(workspace_->ranks(), &RankSet::merged, this, &MainWindow::onRanksMerged);
    connect(workspace_->ranks(), &RankSet::mergeFailed, this, &MainWindow::showError);
    connect(findChild<RanksPanel*>(), &RanksPanel::rankTraceRequested, this,
            &MainWindow::openRankTrace);
    digestPage_ = new QLabel(this);
    digestPage_->setObjectName(QStringLiteral("digestPage"));
    digestPage_->setAlignment(Qt::AlignCenter);
    digestPage_->setWordWrap(true);
    digestPage_->setTextFormat(Qt::RichText);
    stack_->addWidget(digestPage_);
    connect(workspace_->comparison(), &TraceComparison::merged, this,
            &MainWindow::onComparisonMerged);
}

void MainWindow::showOpenRanksDialog(bool add) {
    const QStringList files = QFileDialog::getOpenFileNames(
        this, add ? tr("Add Ranks") : tr("Open Ranks"), QFileInfo(currentFile()).absolutePath(),
        tr("Traces (*.json *.json.gz *.gz *.strata);;All files (*)"));
    if (!files.isEmpty()) openFiles(files, add);
}

void MainWindow::openFiles(const QStringList& paths, bool add) {
    const QStringList files = expandFolders(paths);
    if (files.isEmpty()) {
        showError(tr("No trace file in %1").arg(paths.join(QStringLiteral(", "))));
        return;
    }
    if (files.size() == 1 && !add && !isDigest(files.front())) {
        openFile(files.front());
        return;
    }
    hideError();
    progress_->setValue(0);
    progress_->show();
    cancelButton_->show();
    statusBar()->showMessage(tr("Loading %1\u2026").arg(rankCount(size_t(files.size()))));
    if (stack_->currentWidget() == emptyPage_ || stack_->currentWidget() == loadingPage_) {
        loadingLabel_->setText(tr("<h3>Loading %1\u2026</h3><p>%2</p>")
                                   .arg(rankCount(size_t(files.size())),
                                        QFileInfo(files.front()).absolutePath().toHtmlEscaped()));
        loadingBar_->setValue(0);
        stack_->setCurrentWidget(loadingPage_);
    }
    const AnalysisSettings settings = workspace_->analyses()->settings();
    setJob_->run([files, settings](JobControl& c) { return loadRankSet(files, settings, c); },
                 [this, add](RankSetLoad loaded) { installRanks(std::move(loaded), add); });
}

bool MainWindow::openFilesSync(const QStringList& paths, QString* error) {
    const QStringList files = expandFolders(paths);
    if (files.size() == 1 && !isDigest(files.front())) return openFileSync(files.front(), error);
    JobControl control;
    RankSetLoad loaded = loadRankSet(files, workspace_->analyses()->settings(), control);
    if (loaded.ranks.empty()) {
        const QString msg = files.isEmpty() ? tr("No trace file in %1").arg(paths.join(", "))
                                            : loadErrors(loaded.errors);
        showError(msg);
        if (error) *error = msg;
        return false;
    }
    installRanks(std::move(loaded), false);
    workspace_->ranks()->waitForMerge();
    timeline_->waitForGaps();
    return true;
}

void MainWindow::installRanks(RankSetLoad loaded, bool add) {
    progress_->hide();
    cancelButton_->hide();
    statusBar()->clearMessage();
    if (loaded.ranks.empty()) {
        if (stack_->currentWidget() == loadingPage_) stack_->setCurrentWidget(emptyPage_);
        showError(loadErrors(loaded.errors));
        return;
    }
    if (!loaded.errors.isEmpty())
        showError(loadErrors(loaded.errors));
    else
        hideError();
    RankSet* ranks = workspace_->ranks();
    workspace_->comparison()->clear();
    if (add && !ranks->isEmpty())
        ranks->addRanks(std::move(loaded.ranks));
    else
        ranks->setRanks(std::move(loaded.ranks), loaded.ms);
    showDock(findChild<RanksPanel*>());
    if (ranks->fromDigests()) showDigestSet();
}

void MainWindow::showDigestSet() {
    RankSet* ranks = workspace_->ranks();
    const QString name = rankCount(ranks->ranks().size());
    size_t reachable = 0;
    for (const SetRank& r : ranks->ranks()) reachable += QFileInfo::exists(r.path) ? 1 : 0;
    QString stragglers;
    for (const CrossRankStep& s : ranks->report().steps)
        if (s.straggler)
            stragglers += tr("<br>%1: %2, %3 late")
                              .arg(QString::fromStdString(s.name).toHtmlEscaped(),
                                   ranks->label(*s.straggler).toHtmlEscaped(),
                                   QString::fromStdString(formatDuration(s.delay)));
    digestPage_->setText(
        tr("<h3>%1 from their digests</h3><p>The job's ranks as <i>strata-cli digest</i> reduced "
           "them where they ran: the Ranks dock shows their alignment, the rank × step map with "
           "the stragglers marked and the collectives the others waited at.</p>"
           "<p><b>Stragglers</b>%2</p><p>Double-click a rank (or its cell of the map) to open its "
           "trace in a new window: %3 of the %4 traces the digests name are reachable from "
           "here.</p>")
            .arg(name, stragglers.isEmpty() ? tr(": none") : stragglers)
            .arg(reachable)
            .arg(ranks->ranks().size()));
    if (workspace_->current()) workspace_->remove(workspace_->currentId()); // nothing stale
    if (auto* panel = findChild<RanksPanel*>()) {
        panel->tabs()->setCurrentIndex(1); // Steps
        // No timeline to share the window with: the map gets most of it.
        if (QDockWidget* dock = dockOf(panel))
            resizeDocks({dock}, {height() * 2 / 3}, Qt::Vertical);
    }
    stack_->setCurrentWidget(digestPage_);
    const QString folder = QFileInfo(ranks->ranks().front().path).absolutePath();
    setWindowTitle(tr("%1 (digests) of %2 \u2014 Strata").arg(name, QFileInfo(folder).fileName()));
    updateStatus();
}

void MainWindow::openRankTrace(size_t index) {
    RankSet* ranks = workspace_->ranks();
    if (index >= ranks->ranks().size()) return;
    const QString path = ranks->ranks()[index].path;
    if (!QFileInfo::exists(path)) {
        showError(tr("The trace of %1 is not reachable from here: %2. Copy it here (or mount its "
                     "folder) and try again, or open it where it lies.")
                      .arg(ranks->label(index), path));
        return;
    }
    openWindow(path, options_);
}

void MainWindow::onRanksMerged() {
    RankSet* ranks = workspace_->ranks();
    if (ranks->isEmpty()) return;
    const QString name = rankCount(ranks->ranks().size());
    const QString folder = QFileInfo(ranks->ranks().front().path).absolutePath();
    if (stack_->currentWidget() != timeline_) {
        closeEmptyDocks();
        stack_->setCurrentWidget(timeline_);
        timeline_->setFocus();
    }
    setWindowTitle(tr("%1 of %2 \u2014 Strata").arg(name, QFileInfo(folder).fileName()));
    setWindowFilePath(folder);
    updateStatus();
}

} // namespace strata
