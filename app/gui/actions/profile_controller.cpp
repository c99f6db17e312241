#include "actions/profile_controller.h"

#include "actions/live_feed.h"
#include "analysis/trace_info.h"
#include "launch/attach_dialog.h"
#include "launch/launch_dialog.h"
#include "launch/run_controller.h"
#include "open/load_controller.h"
#include "panels/console_panel.h"
#include "panels/trace_info_panel.h"
#include "record/record_summary.h"
#include "util/shell_words.h"
#include "window/window_context.h"
#include "workspace/workspace.h"

#include <QAction>
#include <QApplication>
#include <QDateTime>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

namespace strata {
namespace {

const QString kNewWindowKey = QStringLiteral("launch/openInNewWindow");

QString seconds(qint64 ms) {
    return QString::number(double(ms) / 1000.0, 'f', 1) + QStringLiteral(" s");
}

// The list offered when a run wrote several traces (exec'd children, ranks).
QStringList chooseFromList(QWidget* parent, const QStringList& files) {
    QDialog d(parent);
    d.setWindowTitle(QObject::tr("Open Traces"));
    auto* v = new QVBoxLayout(&d);
    v->addWidget(new QLabel(QObject::tr("The run wrote %1 traces. Open:").arg(files.size()), &d));
    auto* list = new QListWidget(&d);
    list->setSelectionMode(QAbstractItemView::ExtendedSelection);
    list->addItems(files);
    list->selectAll();
    v->addWidget(list);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, &d);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &d, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &d, &QDialog::reject);
    v->addWidget(buttons);
    if (d.exec() != QDialog::Accepted) return {};
    QStringList out;
    for (QListWidgetItem* i : list->selectedItems()) out << i->text();
    out.sort();
    return out;
}

} // namespace

ProfileController::ProfileController(WindowContext* context)
    : QObject(context->window()), context_(context), window_(context->window()),
      runner_(new RunController(this)),
      live_(new LiveFeed(context->workspace(), context->navigation(), this)),
      console_(new ConsolePanel(window_)), dock_(new QDockWidget(tr("Console"), window_)) {
    dock_->setObjectName(QStringLiteral("consoleDock"));
    dock_->setWidget(console_);
    window_->addDockWidget(Qt::BottomDockWidgetArea, dock_);
    confirmQuit = [this] {
        return QMessageBox::question(
                   window_, tr("A Program Is Running"),
                   tr("%1 is still running. Stop it (as Stop does, keeping what was captured) "
                      "and close the window?")
                       .arg(commandLine_)) == QMessageBox::Yes;
    };
    askRemoteClose = [this] {
        QMessageBox box(QMessageBox::Question, tr("A Program Is Running There"),
                        tr("%1 is still running. Leave it running there: it goes on and keeps its "
                           "files, and its trace, once it has ended, comes back with\n\n"
                           "strata-cli record --remote %2 --fetch %3 -o OUT\n\nOr stop it as "
                           "Stop does, keeping what was captured.")
                            .arg(commandLine_, remoteHost_, runner_->remoteRunId()),
                        QMessageBox::NoButton, window_);
        QPushButton* leave = box.addButton(tr("Leave It Running There"), QMessageBox::AcceptRole);
        QPushButton* stop = box.addButton(tr("Stop It"), QMessageBox::DestructiveRole);
        box.addButton(QMessageBox::Cancel);
        box.setDefaultButton(leave);
        box.exec();
        return box.clickedButton() == leave  ? RemoteClose::LeaveRunning
               : box.clickedButton() == stop ? RemoteClose::Stop
                                             : RemoteClose::Cancel;
    };
    chooseFiles = [this](const QStringList& files) { return chooseFromList(window_, files); };
    connect(runner_, &RunController::output, console_, &ConsolePanel::append);
    connect(runner_, &RunController::stopStatusChanged, console_, &ConsolePanel::setStopStatus);
    connect(runner_, &RunController::finished, this, &ProfileController::onFinished);
    connect(console_, &ConsolePanel::stopRequested, this, &ProfileController::stop);
    connect(live_, &LiveFeed::updated, this, &ProfileController::tick);
    tick_.setInterval(200);
    connect(&tick_, &QTimer::timeout, this, &ProfileController::tick);
    buildMenu();
}

void ProfileController::buildMenu() {
    QMenu* menu = window_->menuBar()->addMenu(tr("&Profile"));
    menu->setObjectName(QStringLiteral("profileMenu"));
    auto make = [this, menu](const char* name, const QString& text, const QKeySequence& key,
                             auto slot) {
        auto* a = new QAction(text, window_);
        a->setObjectName(QString::fromLatin1(name));
        if (!key.isEmpty()) a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        window_->addAction(a);
        menu->addAction(a);
        return a;
    };
    make("actionLaunch", tr("&Launch\u2026"), QKeySequence(Qt::CTRL | Qt::Key_R),
         [this] { showLaunchDialog(); });
    make("actionAttach", tr("&Attach\u2026"), QKeySequence(), [this] { showAttachDialog(); });
    make("actionRunLast", tr("&Run Last"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R),
         [this] { runLast(); });
    configMenu_ = menu->addMenu(tr("Run &Configuration"));
    configMenu_->setObjectName(QStringLiteral("configMenu"));
    connect(configMenu_, &QMenu::aboutToShow, this, &ProfileController::rebuildConfigMenu);
    rebuildConfigMenu();
    stopAction_ = make("actionStop", tr("&Stop"), QKeySequence(), [this] { stop(); });
    stopAction_->setEnabled(false);
    QAction* follow = make("actionFollow", tr("&Follow the Newest Time"), QKeySequence(),
                           [this](bool on) { live_->setFollow(on); });
    follow->setCheckable(true);
    follow->setChecked(live_->follow());
    follow->setToolTip(tr("While a program runs with its timeline shown, the view slides to the "
                          "newest records"));
    refreshDocks_ = make("actionRefreshDocks", tr("Refresh the &Docks"), QKeySequence(Qt::Key_F5),
                         [this] { context_->workspace()->refreshLive(); });
    refreshDocks_->setEnabled(false);
    menu->addSeparator();
    QAction* newWindow =
        make("actionOpenRunInNewWindow", tr("Open Recorded Traces in a &New Window"),
             QKeySequence(), [this](bool on) { setOpenInNewWindow(on); });
    newWindow->setCheckable(true);
    newWindow->setChecked(openInNewWindow());
    menu->addAction(dock_->toggleViewAction());
}

void ProfileController::rebuildConfigMenu() {
    configMenu_->clear();
    const QStringList names = LaunchConfigStore::names();
    for (const QString& name : names)
        configMenu_->addAction(name, this, [this, name] {
            LaunchConfig c;
            if (!LaunchConfigStore::load(name, &c)) return;
            QString error;
            if (!launch(c, &error)) context_->showError(error);
        });
    if (names.isEmpty())
        configMenu_->addAction(tr("(none saved: Launch\u2026 > Save As)"))->setEnabled(false);
}

bool ProfileController::openInNewWindow() const {
    return QSettings().value(kNewWindowKey, false).toBool();
}

void ProfileController::setOpenInNewWindow(bool on) {
    QSettings().setValue(kNewWindowKey, on);
}

AttachDialog* ProfileController::showAttachDialog(const QString& host, const QString& sshOptions) {
    if (!attach_) {
        attach_ = new AttachDialog(window_);
        attach_->setAttribute(Qt::WA_DeleteOnClose);
        connect(attach_, &AttachDialog::traceStopped, this,
                [this](const QString& path) { openResult({path}, false); });
    }
    if (!host.isEmpty()) attach_->setHost(host, sshOptions);
    attach_->show();
    attach_->raise();
    attach_->refresh();
    return attach_;
}

void ProfileController::showLaunchDialog(const LaunchConfig* preset) {
    LaunchDialog dialog(window_);
    LaunchConfig c;
    if (preset)
        dialog.setConfig(*preset);
    else if (LaunchConfigStore::last(&c))
        dialog.setConfig(c);
    while (dialog.exec() == QDialog::Accepted) {
        QString error;
        if (launch(dialog.config(), &error)) return;
        QMessageBox::warning(&dialog, tr("Cannot Launch"), error);
    }
}

void ProfileController::runLast() {
    LaunchConfig c;
    if (!LaunchConfigStore::last(&c)) {
        showLaunchDialog();
        return;
    }
    QString error;
    if (!launch(c, &error)) context_->showError(error);
}

bool ProfileController::running() const {
    return runner_->running();
}

bool ProfileController::launch(const LaunchConfig& c, QString* error) {
    if (runner_->running()) {
        *error = tr("A program is already running (%1, for %2): stop it first (Profile \u25b8 "
                    "Stop) or wait for it to end.")
                     .arg(commandLine_, seconds(runner_->elapsedMs()));
        return false;
    }
    const LaunchProblems problems = checkLaunchConfig(c);
    if (!problems.ok()) {
        *error = problems.first();
        return false;
    }
    RecordOptions o;
    if (c.remote.isEmpty()) {
        if (!toRecordOptions(c, QDateTime::currentDateTime(), &o, error)) return false;
        if (!runner_->start(o, error)) return false;
    } else { // on another machine, through strata-cli record --remote
        QStringList args;
        if (!toRemoteArguments(c, QDateTime::currentDateTime(), &args, &o, error)) return false;
        if (!runner_->startRemote(args, o, error)) return false;
    }
    LaunchConfigStore::setLast(c);
    LaunchConfigStore::addRecentExecutable(c.executable);
    commandLine_ = QString::fromStdString(joinShellWords(o.command));
    remoteHost_ = c.remote.trimmed();
    if (!c.remote.isEmpty()) commandLine_ += tr(" on %1").arg(remoteHost_);
    if (o.live) { // drawn as it runs (a remote run: from its live copy here)
        live_->start(
            [this] {
                const QStringList files = runner_->traceFilesSoFar();
                return files.isEmpty() ? QString() : files.front();
            },
            tr("%1 (running)").arg(QFileInfo(QString::fromStdString(o.command[0])).fileName()),
            c.remote.isEmpty());
        refreshDocks_->setEnabled(true);
    }
    console_->begin(commandLine_);
    console_->setStopEnabled(true);
    stopAction_->setEnabled(true);
    dock_->show();
    dock_->raise();
    tick();
    tick_.start();
    return true;
}

void ProfileController::tick() {
    if (!runner_->running()) return;
    QString status = tr("Running %1 \u00b7 pid %2 \u00b7 %3")
                         .arg(commandLine_)
                         .arg(runner_->run().pid)
                         .arg(seconds(runner_->elapsedMs()));
    if (live_->active() && live_->pictures() == 0)
        status += tr(" \u00b7 live: waiting for the trace");
    else if (live_->active() && live_->behindMs() >= 0)
        status += tr(" \u00b7 live: %1 behind").arg(seconds(live_->behindMs()));
    else if (live_->active()) // another machine's clock: how far behind is not known here
        status += tr(" \u00b7 live: %n picture(s)", nullptr, live_->pictures());
    if (live_->active() && live_->newestOnlyMs() >= 0)
        status += tr(" \u00b7 the newest %1 shown (the whole run opens when it ends)")
                      .arg(seconds(live_->newestOnlyMs()));
    console_->setStatus(status);
    if (runner_->stopping()) console_->setStopStatus(runner_->stopStatus());
}

void ProfileController::stop() {
    runner_->stop();
}

bool ProfileController::allowClose() {
    if (!runner_->running()) return true;
    if (closeWhenDone_) return false; // already stopping for a close
    if (!quitting_ && !remoteHost_.isEmpty() && !runner_->remoteRunId().isEmpty() &&
        askRemoteClose) {
        switch (askRemoteClose()) {
        case RemoteClose::Cancel:
            return false;
        case RemoteClose::LeaveRunning:
            closeWhenDone_ = true;
            runner_->leaveRemoteRunning(); // finished() then closes the window
            return false;
        case RemoteClose::Stop:
            break;
        }
    } else if (!quitting_ && confirmQuit && !confirmQuit()) {
        return false;
    }
    closeWhenDone_ = true;
    runner_->stop();
    return false;
}

void ProfileController::quit() {
    if (quitting_ && runner_->running()) {
        runner_->hurry();
        return;
    }
    quitting_ = true;
    window_->close();
}

void ProfileController::onFinished() {
    tick_.stop();
    stopAction_->setEnabled(false);
    const bool wasLive = live_->active() && live_->pictures() > 0;
    live_->stop(); // the final trace replaces the live one
    refreshDocks_->setEnabled(false);
    const RunInfo& run = runner_->run();
    const RecordingResult& result = runner_->result();
    const QString program =
        QFileInfo(QString::fromStdString(run.argv.empty() ? std::string() : run.argv[0]))
            .fileName();
    QString status =
        tr("%1 %2 after %3")
            .arg(program, QString::fromStdString(describeExit(run)), seconds(runner_->elapsedMs()));
    QStringList files;
    for (const auto& f : result.files) files << QString::fromStdString(f);
    if (!files.isEmpty()) {
        // The log beside the (first) trace: run.strata -> run.console.txt.
        QString base = files.front();
        if (base.endsWith(QStringLiteral(".strata"))) base.chop(7);
        lastLog_ = base + QStringLiteral(".console.txt");
        QString error;
        if (!console_->saveLog(lastLog_, &error)) lastLog_.clear();
        status += files.size() == 1 ? tr(" \u00b7 trace %1").arg(files.front())
                                    : tr(" \u00b7 %1 traces").arg(files.size());
        if (!lastLog_.isEmpty()) status += tr(" \u00b7 output saved in %1").arg(lastLog_);
    }
    console_->end(status);
    for (const auto& note : result.notes)
        console_->append(QByteArray("[strata] ") + QByteArray::fromStdString(note) + "\n", true);
    if (!result.notes.empty()) console_->end(status);
    if (!result.error.empty())
        context_->showError(tr("The run's trace could not be written: %1")
                                .arg(QString::fromStdString(result.error)));
    if (closeWhenDone_) {
        closeWhenDone_ = false;
        emit runFinished(files, result.runOnly);
        QTimer::singleShot(0, window_, &QWidget::close);
        return;
    }
    openResult(files, wasLive);
    emit runFinished(files, result.runOnly);
}

void ProfileController::openResult(const QStringList& all, bool liveHere) {
    QStringList files = all.size() > 1 && chooseFiles && !sameWindowOnly ? chooseFiles(all) : all;
    if (sameWindowOnly && files.size() > 1) files = files.mid(0, 1);
    for (int i = 0; i < files.size(); ++i) {
        WindowContext* target = context_;
        // A run drawn live here ends here: its first trace replaces the live picture.
        if (!sameWindowOnly && (i > 0 || (openInNewWindow() && !liveHere)))
            target = context_->newWindow();
        // Once it has loaded: a trace without GPU activity says why, above the timeline.
        auto conn = std::make_shared<QMetaObject::Connection>();
        *conn = connect(
            target->loader(), &LoadController::finished, target->window(),
            [target, conn](bool ok, bool) {
                QObject::disconnect(*conn);
                const std::shared_ptr<const Trace> trace = target->workspace()->current();
                if (!ok || !trace) return;
                // The user lands in the trace with what was run in view.
                if (auto* info = target->window()->findChild<TraceInfoPanel*>())
                    if (auto* dock = qobject_cast<QDockWidget*>(info->parentWidget()))
                        dock->raise();
                const std::string why = explainMissingGpuActivity(*trace);
                if (!why.empty())
                    target->showNotice(QObject::tr("No GPU activity in this recording: %1. The "
                                                   "program's output is in the Console.")
                                           .arg(QString::fromStdString(why)));
            });
        target->loader()->open(OpenRequest::trace(files[i]));
    }
}

} // namespace strata
