#include "main_window.h"
#include "timeline/load_preview_view.h"
#include "trace_cache_controller.h"

#include "analysis_views/call_tree_panel.h"
#include "analysis_views/clock_notice.h"
#include "analysis_views/gaps_panel.h"
#include "analysis_views/stats_panel.h"
#include "dock_table.h"
#include "export_actions.h"
#include "find_bar.h"
#include "load_job.h"
#include "model/names/time_text.h"
#include "panels/details_panel.h"
#include "panels/range_panel.h"
#include "panels/trace_info_panel.h"
#include "panels/warnings_panel.h"
#include "profile_controller.h"
#include "sections/sections_panel.h"
#include "shortcut_help.h"
#include "timeline/layout/track_layout.h"
#include "timeline/timeline_legend.h"
#include "timeline/timeline_view.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <map>

namespace strata {

MainWindow::MainWindow(Options options, QWidget* parent)
    : QMainWindow(parent), options_(options), workspace_(new Workspace(this)),
      nav_(new Navigation(workspace_, this)) {
    setWindowTitle(QStringLiteral("Strata"));
    setWindowIcon(QIcon(QStringLiteral(":/strata/strata.png")));
    setAcceptDrops(true);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);

    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

    // Error banner: a load error stays visible above the (still usable) window.
    banner_ = new QWidget(central);
    banner_->setObjectName(QStringLiteral("errorBanner"));
    banner_->setAutoFillBackground(true);
    QPalette pal = banner_->palette();
    pal.setColor(QPalette::Window, QColor(0xfd, 0xe2, 0xe1));
    pal.setColor(QPalette::WindowText, QColor(0x70, 0x10, 0x10));
    banner_->setPalette(pal);
    auto* bl = new QHBoxLayout(banner_);
    bl->setContentsMargins(8, 6, 8, 6);
    auto* icon = bannerIcon_ = new QLabel(banner_);
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxCritical).pixmap(20, 20));
    bannerText_ = new QLabel(banner_);
    bannerText_->setWordWrap(true);
    bannerText_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* dismiss = new QToolButton(banner_);
    dismiss->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    dismiss->setAutoRaise(true);
    dismiss->setToolTip(tr("Dismiss"));
    connect(dismiss, &QToolButton::clicked, this, &MainWindow::hideError);
    bl->addWidget(icon, 0, Qt::AlignTop);
    bl->addWidget(bannerText_, 1);
    bl->addWidget(dismiss, 0, Qt::AlignTop);
    banner_->hide();

    stack_ = new QStackedWidget(central);
    stack_->addWidget(emptyPage_ = createEmptyPage());
    stack_->addWidget(loadingPage_ = createLoadingPage());
    timeline_ = new TimelineView(workspace_, nav_, stack_);
    stack_->addWidget(timeline_);

    findBar_ = new FindBar(workspace_, nav_, central);
    findBar_->hide();

    layout->addWidget(banner_);
    layout->addWidget(stack_, 1);
    layout->addWidget(findBar_);
    setCentralWidget(central);

    cache_ = new TraceCacheController(this, options_.restoreSettings);
    connect(cache_, &TraceCacheController::message, this,
            [this](const QString& m) { statusBar()->showMessage(m, 8000); });
    createDocks();
    createActions();
    createStatusBar();
    createSetJobs();

    connect(nav_, &Navigation::selectedRangeChanged, this, [this](std::optional<TimeRange> r) {
        rangeLabel_->setText(
            r ? tr("Range %1").arg(QString::fromStdString(formatPreciseDuration(r->duration())))
              : QString());
    });
    // Following a link in Details hands the keyboard back to the timeline (W/A/S/D keep working).
    connect(details_, &DetailsPanel::sliceActivated, this, [this] {
        QTimer::singleShot(0, timeline_, [this] { timeline_->setFocus(Qt::OtherFocusReason); });
    });
    // A match narrower than a pixel is zoomed to, as F does (else it is there but unseen).
    connect(findBar_, &FindBar::currentChanged, this, [this](SliceRef r) {
        const auto t = trace();
        if (!t || !r.valid()) return;
        const TimeRange v = timeline_->visibleRange();
        const double px = double(t->duration(r)) * timeline_->tracksArea()->width() /
                          double(std::max<TimeNs>(1, v.duration()));
        if (px < 1.0) timeline_->zoomToSelection();
    });
    connect(timeline_, &TimelineView::cursorTimeChanged, this, [this](std::optional<TimeNs> t) {
        const std::shared_ptr<const Trace> trace = workspace_->current();
        cursorLabel_->setText(t && trace ? tr("at %1  \u00b7")
                                               .arg(QString::fromStdString(formatPreciseDuration(
                                                   *t - trace->bounds().start)))
                                         : QString());
    });
    connect(timeline_, &TimelineView::findRequested, this, [this](const QString& text) {
        findBar_->show();
        findBar_->edit()->setText(text);
        findBar_->search();
    });
    connect(findBar_, &FindBar::highlightsChanged, this,
            [this](const std::vector<SliceRef>& m) { timeline_->setHighlightedSlices(m); });
    connect(findBar_, &FindBar::instantHighlightsChanged, this,
            [this](const std::vector<InstantRef>& m) { timeline_->setHighlightedInstants(m); });
    connect(findBar_, &FindBar::instantChosen, timeline_, &TimelineView::revealInstant);
    connect(findBar_, &FindBar::closed, this, [this] {
        timeline_->setHighlightedSlices({});
        timeline_->setHighlightedInstants({});
        timeline_->setFocus();
    });

    resize(1400, 860);
    if (options_.restoreSettings) {
        QSettings s;
        recent_ = s.value(QStringLiteral("recentFiles")).toStringList();
        restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray());
        restoreLayout();
    }
    rebuildRecentMenu();
    updateStatus();
}

MainWindow* MainWindow::openWindow(const QString& path) {
    return openWindow(path, Options{});
}

MainWindow* MainWindow::openWindow(const QString& path, Options options) {
    auto* w = new MainWindow(options);
    w->setAttribute(Qt::WA_DeleteOnClose);
    w->show();
    if (!path.isEmpty()) w->openFile(path);
    return w;
}

MainWindow::~MainWindow() {
    if (job_) job_->cancel();
}

QWidget* MainWindow::createEmptyPage() {
    auto* page = new QWidget(this);
    auto* v = new QVBoxLayout(page);
    v->addStretch(2);
    auto* logo = new QLabel(page);
    logo->setPixmap(QPixmap(QStringLiteral(":/strata/strata.png")));
    logo->setAlignment(Qt::AlignCenter);
    auto* title = new QLabel(tr("<h2>Strata</h2><p>A trace viewer for GPU programs: PyTorch "
                                "profiler / Kineto and Chrome JSON (.json, .json.gz), "
                                "Strata traces (.strata).</p><p>Drop a trace here, or:</p>"),
                             page);
    title->setAlignment(Qt::AlignCenter);
    title->setWordWrap(true);
    auto* open = new QPushButton(tr("Open a trace\u2026"), page);
    open->setObjectName(QStringLiteral("openButton"));
    open->setToolTip(tr("Choose a trace file, or several (the ranks of a job) (Ctrl+O)"));
    auto* sample = new QPushButton(tr("Open the sample trace"), page);
    sample->setObjectName(QStringLiteral("sampleButton"));
    sample->setToolTip(tr("A small PyTorch profiler trace that comes with Strata"));
    connect(open, &QPushButton::clicked, this, &MainWindow::showOpenDialog);
    connect(sample, &QPushButton::clicked, this, &MainWindow::openSample);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(open);
    buttons->addWidget(sample);
    buttons->addStretch();
    v->addWidget(logo);
    v->addWidget(title);
    v->addLayout(buttons);
    auto* hint = new QLabel(tr("Press ? for keyboard shortcuts."), page);
    hint->setAlignment(Qt::AlignCenter);
    hint->setEnabled(false);
    v->addWidget(hint);
    v->addStretch(3);
    return page;
}

QWidget* MainWindow::createLoadingPage() {
    auto* page = new QWidget(this);
    page->setObjectName(QStringLiteral("loadingPage"));
    auto* v = new QVBoxLayout(page);
    previewView_ = new LoadPreviewView(page);
    previewView_->hide(); // until the first preview
    v->addWidget(previewView_, 6);
    v->addStretch(2);
    loadingLabel_ = new QLabel(page);
    loadingLabel_->setAlignment(Qt::AlignCenter);
    loadingLabel_->setWordWrap(true);
    loadingBar_ = new QProgressBar(page);
    loadingBar_->setRange(0, 1000);
    loadingBar_->setFormat(QStringLiteral("%p%"));
    loadingBar_->setMaximumWidth(480);
    auto* cancel = new QPushButton(tr("Cancel"), page);
    cancel->setToolTip(tr("Stop loading; the window stays as it was"));
    connect(cancel, &QPushButton::clicked, this, &MainWindow::cancelLoad);
    auto* row = new QHBoxLayout;
    row->addStretch();
    row->addWidget(loadingBar_, 1);
    row->addWidget(cancel);
    row->addStretch();
    v->addWidget(loadingLabel_);
    v->addLayout(row);
    v->addStretch(3);
    return page;
}

QWidget* MainWindow::currentPage() const {
    return stack_->currentWidget();
}

QDockWidget* MainWindow::dockOf(QWidget* panel) {
    return qobject_cast<QDockWidget*>(panel->parentWidget());
}

TraceInfoPanel* MainWindow::traceInfoPanel() const {
    return panel<TraceInfoPanel>();
}
GapsPanel* MainWindow::gapsPanel() const {
    return panel<GapsPanel>();
}
StatsPanel* MainWindow::statsPanel() const {
    return panel<StatsPanel>();
}
CallTreePanel* MainWindow::callTreePanel() const {
    return panel<CallTreePanel>();
}

void MainWindow::createStatusBar() {
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setMaximumWidth(220);
    progress_->setFormat(tr("Loading %p%"));
    progress_->hide();
    cancelButton_ = new QPushButton(tr("Cancel"), this);
    cancelButton_->setObjectName(QStringLiteral("cancelLoad"));
    cancelButton_->setToolTip(tr("Stop loading; the window stays as it was"));
    cancelButton_->hide();
    connect(cancelButton_, &QPushButton::clicked, this, &MainWindow::cancelLoad);
    slicesLabel_ = new QLabel(this);
    slicesLabel_->setToolTip(tr("What the trace holds: slices (CPU and GPU), instants, flows "
                                "(launch \u2192 kernel and others) and counter samples"));
    loadTimeLabel_ = new QLabel(this);
    loadTimeLabel_->setToolTip(tr("How long the trace took to open"));
    spanLabel_ = new QLabel(this);
    spanLabel_->setToolTip(tr("The trace's span: its first timestamp to its last"));
    cursorLabel_ = new QLabel(this);
    cursorLabel_->setObjectName(QStringLiteral("cursorTime"));
    cursorLabel_->setToolTip(tr("The time under the mouse, from the start of the trace"));
    cursorLabel_->setMinimumWidth(
        fontMetrics().horizontalAdvance(QStringLiteral("at 000.000 000 ms")));
    rangeLabel_ = new QLabel(this);
    warningsButton_ = new QToolButton(this);
    warningsButton_->setAutoRaise(true);
    warningsButton_->setObjectName(QStringLiteral("warningsButton"));
    warningsButton_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    warningsButton_->setToolTip(tr("Show the Warnings panel"));
    connect(warningsButton_, &QToolButton::clicked, this, [this] { showDock(warnings_); });
    statusBar()->addWidget(progress_);
    statusBar()->addWidget(cancelButton_);
    statusBar()->addPermanentWidget(new ClockNotice(workspace_, nav_, this));
    statusBar()->addPermanentWidget(rangeLabel_);
    statusBar()->addPermanentWidget(cursorLabel_);
    statusBar()->addPermanentWidget(spanLabel_);
    statusBar()->addPermanentWidget(slicesLabel_);
    statusBar()->addPermanentWidget(loadTimeLabel_);
    statusBar()->addPermanentWidget(warningsButton_);
}

QString MainWindow::currentFile() const {
    const OpenTrace* t = workspace_->currentTrace();
    return t ? t->path : QString();
}

qint64 MainWindow::loadTimeMs() const {
    const OpenTrace* t = workspace_->currentTrace();
    return t ? t->loadMs : 0;
}

QAction* MainWindow::action(const QString& objectName) const {
    return findChild<QAction*>(objectName);
}

QList<ShortcutEntry> MainWindow::shortcuts() const {
    QList<ShortcutEntry> out;
    for (QAction* a : actions()) {
        if (a->shortcuts().isEmpty()) continue;
        QStringList keys;
        for (const QKeySequence& k : a->shortcuts()) keys << k.toString(QKeySequence::NativeText);
        out.push_back(
            {keys.join(QStringLiteral(", ")), a->text().remove(QLatin1Char('&')), tr("Window")});
    }
    out.push_back(
        {QStringLiteral("Enter / Shift+Enter"), tr("Next / previous match"), tr("Find bar")});
    out.push_back({QStringLiteral("Esc"), tr("Close the find bar"), tr("Find bar")});
    out += timelineShortcuts();
    return out;
}

void MainWindow::showShortcutHelp() {
    ShortcutHelpDialog dialog(shortcuts(),
                              timelineLegendHtml(double(timeline_->gapThresholdNs()) / 1000), this);
    dialog.exec();
}

void MainWindow::showError(const QString& message) {
    showBanner(message, true);
}

void MainWindow::showNotice(const QString& message) {
    showBanner(message, false);
}

void MainWindow::showBanner(const QString& message, bool error) {
    QPalette pal = banner_->palette();
    pal.setColor(QPalette::Window, error ? QColor(0xfd, 0xe2, 0xe1) : QColor(0xff, 0xf4, 0xce));
    pal.setColor(QPalette::WindowText, error ? QColor(0x70, 0x10, 0x10) : QColor(0x5c, 0x44, 0x00));
    banner_->setPalette(pal);
    bannerIcon_->setPixmap(
        style()
            ->standardIcon(error ? QStyle::SP_MessageBoxCritical : QStyle::SP_MessageBoxInformation)
            .pixmap(20, 20));
    bannerText_->setText(message);
    banner_->show();
}

void MainWindow::hideError() {
    banner_->hide();
}

QString MainWindow::errorText() const {
    return banner_->isVisible() ? bannerText_->text() : QString();
}

QString MainWindow::statusText() const {
    return QStringList{cursorLabel_->text(), spanLabel_->text(), slicesLabel_->text(),
                       loadTimeLabel_->text(), warningsButton_->text()}
        .join(QStringLiteral(" \u00b7 "));
}

void MainWindow::updateStatus() {
    const std::shared_ptr<const Trace> trace = workspace_->current();
    if (!trace) {
        slicesLabel_->setText(tr("No trace"));
        loadTimeLabel_->clear();
        spanLabel_->clear();
        cursorLabel_->clear();
        warningsButton_->setText(tr("0 warnings"));
        return;
    }
    QStringList held{tr("%L1 slices").arg(trace->sliceCount())};
    if (trace->instantCount()) held << tr("%L1 instants").arg(trace->instantCount());
    if (!trace->flows().empty()) held << tr("%L1 flows").arg(trace->flows().size());
    if (trace->counterSampleCount())
        held << tr("%L1 counter samples").arg(trace->counterSampleCount());
    slicesLabel_->setText(held.join(QStringLiteral(", ")));
    spanLabel_->setText(
        tr("span %1  \u00b7")
            .arg(QString::fromStdString(formatDuration(trace->bounds().duration()))));
    const QString took = QString::fromStdString(formatPreciseDuration(loadTimeMs() * 1'000'000));
    loadTimeLabel_->setText(fromCache_
                                ? tr("\u00b7  loaded in %1 from the trace cache  \u00b7").arg(took)
                                : tr("\u00b7  loaded in %1  \u00b7").arg(took));
    const int n = warnings_->count();
    warningsButton_->setText(n == 1 ? tr("1 warning") : tr("%1 warnings").arg(n));
    warningsButton_->setIcon(n ? style()->standardIcon(QStyle::SP_MessageBoxWarning) : QIcon());
}

void MainWindow::closeEvent(QCloseEvent* e) {
    if (!profile_->allowClose()) { // a program runs: asked, then stopped; closes when it exits
        e->ignore();
        return;
    }
    if (job_) {
        job_->cancel();
        job_->waitForFinished();
    }
    saveLayout();
    QMainWindow::closeEvent(e);
}

} // namespace strata
