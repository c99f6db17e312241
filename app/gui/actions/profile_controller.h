#pragma once
// The Profile menu of a main window: Launch... (the dialog), Run Last, saved configurations,
// Stop; the Console dock the program's output streams into; and what happens when it ends: the
// console log saved beside the trace, the trace(s) opened (here or in a new window, the user's
// choice; several offered in a list), and a user without a GPU told why the trace holds none.
// One run at a time per window.
#include "launch/launch_config.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

#include <functional>

class QAction;
class QDockWidget;
class QMainWindow;
class QMenu;

namespace strata {

class AttachDialog;
class ConsolePanel;
class LiveFeed;
class WindowContext;
class RunController;

class ProfileController : public QObject {
    Q_OBJECT
public:
    explicit ProfileController(WindowContext* window);

    // Starts `c`; false and *error (the message the dialog shows) when it cannot start, or when
    // a run is in progress.
    bool launch(const LaunchConfig& c, QString* error);
    bool running() const;
    void stop();
    // Closing the window while a program runs: asks (confirmQuit, or askRemoteClose for a run on
    // another machine, unless quit() was called), stops it as Stop does (or leaves a remote run
    // running there) and closes the window once its process group has ended and its run record
    // and console log are written. True when the window may close now.
    bool allowClose();
    // The application is told to quit (SIGTERM, SIGINT, SIGHUP: app/gui/quit_on_signal.h):
    // closes the window without asking, stopping a running program first as allowClose() does.
    // Called again while stopping: the next signal of the escalation now.
    void quit();

    void showLaunchDialog(const LaunchConfig* preset = nullptr);
    // Profile > Attach…: the programs waiting for an attach session here or on a host
    // (launch/attach_dialog.h), non-modal, listing those of `host` when given (ssh options
    // space-separated); a stopped capture's trace opens as a run's traces do.
    AttachDialog* showAttachDialog(const QString& host = {}, const QString& sshOptions = {});
    void runLast();

    RunController* runner() const { return runner_; }
    // The run's trace drawn while it runs (LaunchConfig::live).
    LiveFeed* live() const { return live_; }
    ConsolePanel* console() const { return console_; }
    QDockWidget* consoleDock() const { return dock_; }
    // Where the last run's traces opened: true = a new window each.
    bool openInNewWindow() const;
    void setOpenInNewWindow(bool on);
    QString lastLogPath() const { return lastLog_; }

    // Screenshot mode: every trace of a run opens in this window (no list, no new window).
    bool sameWindowOnly = false;
    // Asked before closing a window with a running program; a test replaces it.
    std::function<bool()> confirmQuit;
    // The same for a run on another machine, which may also be left running there (it goes on,
    // detached, and keeps its files: `strata-cli record --remote HOST --fetch ID` brings its
    // trace later); a test replaces it.
    enum class RemoteClose { Cancel, Stop, LeaveRunning };
    std::function<RemoteClose()> askRemoteClose;
    // Picks among several trace files (default: a list dialog); a test replaces it.
    std::function<QStringList(const QStringList&)> chooseFiles;

signals:
    // The run ended and its files were handled; `files` are the traces it wrote.
    void runFinished(const QStringList& files, bool runOnly);

private:
    void buildMenu();
    void rebuildConfigMenu();
    void onFinished();
    void tick();
    void openResult(const QStringList& files, bool liveHere);

    WindowContext* context_;
    QMainWindow* window_; // context_->window()
    RunController* runner_;
    LiveFeed* live_;
    ConsolePanel* console_;
    QDockWidget* dock_;
    QMenu* configMenu_ = nullptr;
    QAction* stopAction_ = nullptr;
    QAction* refreshDocks_ = nullptr;
    QTimer tick_;
    QString commandLine_;
    QString lastLog_;
    QPointer<AttachDialog> attach_;
    bool closeWhenDone_ = false;
    QString remoteHost_; // the run's host when it runs on another machine
    bool quitting_ = false;
};

} // namespace strata
