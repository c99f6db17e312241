#pragma once
// Runs one launch for the GUI through the one launcher (core/record/launcher.h): the target's
// stdout and stderr read as they come (QSocketNotifier, never blocking the GUI), its exit seen
// without waiting on pipes a surviving child may hold, Stop escalating SIGINT -> SIGTERM ->
// SIGKILL after grace periods to the target's whole process group (its children too, until none
// is left), and the run completed (Run record appended, or the run-only trace written) when it
// ends.
#include "record/launcher.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>

class QProcess;
class QSocketNotifier;

namespace strata {

// This build's strata-cli: $STRATA_CLI, else beside strata, else in PATH ("" when none).
QString strataCliPath();

class RunController : public QObject {
    Q_OBJECT
public:
    struct Grace {
        int termAfterMs = 3000; // SIGINT, then SIGTERM this long after
        int killAfterMs = 3000; // then SIGKILL this long after the SIGTERM
    };

    explicit RunController(QObject* parent = nullptr);
    // A run still going is killed (SIGKILL to its group), reaped and completed (Run record).
    ~RunController() override;

    bool start(const RecordOptions& options, QString* error);
    // A run on another machine: this build's `strata-cli record --remote ...` (cliArgs;
    // record/remote_record.h) as the child, its output streamed, Stop sending it SIGINT, then
    // SIGTERM (it passes both on to the remote process group), then SIGKILL (it alone: the run
    // there goes on and keeps its files); the files it copied back are the result. `options` is
    // what it carries (the command, for run()).
    bool startRemote(const QStringList& cliArgs, const RecordOptions& options, QString* error);
    bool running() const { return (launcher_ || remote_) && !finished_; }
    // SIGINT now, SIGTERM and SIGKILL later, each to the target's process group, unless the
    // group has emptied first; finished() once it has. Again: no effect.
    void stop();
    // Stop, or when stopping already, the next signal now (a second quit request).
    void hurry();
    bool stopping() const { return stopStage_ > 0; }
    void setGrace(Grace g) { grace_ = g; }
    Grace grace() const { return grace_; }
    // "SIGINT sent · SIGTERM in 2.4 s" while stopping, else empty.
    QString stopStatus() const;
    qint64 elapsedMs() const;
    // What ran: complete (exit, duration) once finished() was emitted.
    const RunInfo& run() const;
    const RecordingResult& result() const { return result_; }
    const RecordOptions& options() const { return options_; }
    // A run on this machine: its trace files so far (Launcher::traceFiles; the first is the
    // target's own when it has one). A remote run's: its live copy while it runs, when it has
    // one (record/remote_live_copy.h).
    QStringList traceFilesSoFar() const;
    // A remote run's id there once it has started (`strata-cli record --remote HOST --fetch ID`),
    // else empty.
    QString remoteRunId() const { return remoteRunId_; }
    // A remote run: this side ends (its strata-cli killed, its live copy removed) and the run
    // there goes on, keeping its files. finished() follows.
    void leaveRemoteRunning();

signals:
    void output(const QByteArray& bytes, bool isStderr);
    void stopStatusChanged(const QString& text);
    // The target exited and the run was completed: run() and result() are final.
    void finished();

private:
    void readSome(int fd, bool isStderr, int maxBytes);
    void checkExit();
    void escalate();
    void closePipes();
    void signalRun(int sig);
    void remoteEnded(int exitCode, bool crashed);
    void remoteOutput(bool isStderr);

    std::unique_ptr<Launcher> launcher_;
    QProcess* remote_ = nullptr; // a remote run's strata-cli
    RunInfo remoteRun_;
    QByteArray remoteErrLine_; // its stderr's unfinished line (the files it copied back)
    QString liveCopy_;         // its trace copied here as it grows (--live)
    QString remoteRunId_;      // its id there
    RecordOptions options_;
    QSocketNotifier* outNotifier_ = nullptr;
    QSocketNotifier* errNotifier_ = nullptr;
    QTimer poll_;
    QTimer escalation_;
    QElapsedTimer clock_;
    QElapsedTimer stageClock_;
    qint64 endedMs_ = -1;
    Grace grace_;
    int stopStage_ = 0; // 0 running, 1 SIGINT sent, 2 SIGTERM sent, 3 SIGKILL sent
    bool finished_ = false;
    RecordingResult result_;
};

} // namespace strata
