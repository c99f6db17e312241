#include "launch/run_controller.h"

#include "record/remote_live_copy.h"
#include "record/remote_record.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSocketNotifier>
#include <QStandardPaths>

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <unistd.h>

namespace strata {
namespace {

constexpr int kReadChunk = 64 * 1024;
// Per notifier wake-up: enough to keep up with a fast writer, small enough that the event loop
// (painting, Stop) stays responsive under any rate.
constexpr int kReadPerWake = 1 << 20;
// After SIGKILL, how long the run waits for the rest of its process group before it ends anyway.
constexpr int kKillWaitMs = 2000;

void setNonBlocking(int fd) {
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0) ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

} // namespace

RunController::RunController(QObject* parent) : QObject(parent) {
    poll_.setInterval(50);
    connect(&poll_, &QTimer::timeout, this, &RunController::checkExit);
    escalation_.setSingleShot(true);
    connect(&escalation_, &QTimer::timeout, this, &RunController::escalate);
}

RunController::~RunController() {
    if (running() && remote_) { // Stop, as the window's close does: the run there is recorded
        signalRun(SIGTERM);
        remote_->waitForFinished(10000);
    } else if (running()) {
        // Torn down with the run going (the application quits some other way): its processes
        // are not left behind, and what was run is still written down.
        launcher_->sendSignal(SIGKILL);
        launcher_->wait();
        launcher_->finish();
    }
    closePipes();
}

void RunController::leaveRemoteRunning() {
    if (!remote_ || finished_) return;
    remote_->kill(); // this side only: the run there is detached from it
    if (!liveCopy_.isEmpty()) QFile::remove(liveCopy_);
}

QStringList RunController::traceFilesSoFar() const {
    QStringList files;
    if (remote_) {
        if (!liveCopy_.isEmpty() && !finished_) files << liveCopy_;
    } else if (launcher_) {
        for (const std::string& f : launcher_->traceFiles()) files << QString::fromStdString(f);
    }
    return files;
}

bool RunController::start(const RecordOptions& options, QString* error) {
    if (running()) {
        *error = tr("a program is already running");
        return false;
    }
    closePipes();
    delete remote_;
    remote_ = nullptr;
    auto launcher = std::make_unique<Launcher>();
    std::string why;
    RecordOptions o = options;
    o.captureOutput = true;
    if (!launcher->start(o, &why)) {
        *error = QString::fromStdString(why);
        return false;
    }
    launcher_ = std::move(launcher);
    options_ = o;
    finished_ = false;
    stopStage_ = 0;
    endedMs_ = -1;
    result_ = {};
    clock_.start();
    for (const auto& [fd, isErr] :
         {std::pair{launcher_->outputFd(), false}, std::pair{launcher_->errorFd(), true}}) {
        if (fd < 0) continue;
        setNonBlocking(fd);
        auto* n = new QSocketNotifier(fd, QSocketNotifier::Read, this);
        connect(n, &QSocketNotifier::activated, this,
                [this, fd, isErr = isErr] { readSome(fd, isErr, kReadPerWake); });
        (isErr ? errNotifier_ : outNotifier_) = n;
    }
    poll_.start();
    return true;
}

QString strataCliPath() {
    const QString env = qEnvironmentVariable("STRATA_CLI");
    if (!env.isEmpty()) return env;
    const QString beside = QDir(QCoreApplication::applicationDirPath()).filePath("strata-cli");
    if (QFileInfo(beside).isExecutable()) return beside;
    return QStandardPaths::findExecutable(QStringLiteral("strata-cli"));
}

bool RunController::startRemote(const QStringList& cliArgs, const RecordOptions& options,
                                QString* error) {
    if (running()) {
        *error = tr("a program is already running");
        return false;
    }
    const QString cli = strataCliPath();
    if (cli.isEmpty()) {
        *error = tr("strata-cli was not found (beside strata, in PATH or $STRATA_CLI): a run on "
                    "another machine needs it");
        return false;
    }
    closePipes();
    launcher_.reset();
    delete remote_;
    remote_ = new QProcess(this);
    connect(remote_, &QProcess::readyReadStandardOutput, this, [this] { remoteOutput(false); });
    connect(remote_, &QProcess::readyReadStandardError, this, [this] { remoteOutput(true); });
    connect(remote_, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        remoteEnded(code, status == QProcess::CrashExit);
    });
    options_ = options;
    finished_ = false;
    stopStage_ = 0;
    endedMs_ = -1;
    result_ = {};
    remoteRun_ = {};
    remoteRun_.argv = options.command;
    remoteErrLine_.clear();
    liveCopy_.clear();
    remoteRunId_.clear();
    clock_.start();
    remote_->start(cli, cliArgs);
    if (!remote_->waitForStarted(10000)) {
        *error = tr("%1 did not start: %2").arg(cli, remote_->errorString());
        delete remote_;
        remote_ = nullptr;
        return false;
    }
    remoteRun_.pid = remote_->processId();
    return true;
}

void RunController::remoteOutput(bool isStderr) {
    const QByteArray bytes =
        isStderr ? remote_->readAllStandardError() : remote_->readAllStandardOutput();
    if (bytes.isEmpty()) return;
    emit output(bytes, isStderr);
    if (!isStderr) return;
    remoteErrLine_ += bytes;
    for (qsizetype nl; (nl = remoteErrLine_.indexOf('\n')) >= 0;) {
        const QByteArray line = remoteErrLine_.left(nl);
        remoteErrLine_.remove(0, nl + 1);
        const std::string_view text(line.constData(), size_t(line.size()));
        if (auto path = copiedBackPath(text)) result_.files.push_back(std::move(*path));
        if (auto path = liveCopyPath(text)) liveCopy_ = QString::fromStdString(*path);
        if (auto run = remoteRunOf(text)) remoteRunId_ = QString::fromStdString(*run);
    }
}

void RunController::remoteEnded(int exitCode, bool crashed) {
    remoteOutput(false);
    remoteOutput(true);
    poll_.stop();
    escalation_.stop();
    endedMs_ = clock_.elapsed();
    remoteRun_.durationNs = endedMs_ * 1'000'000;
    if (crashed || (exitCode > 128 && exitCode < 160))
        remoteRun_.signal = crashed ? SIGKILL : exitCode - 128;
    else
        remoteRun_.exitCode = exitCode;
    if (result_.files.empty() && exitCode == 255)
        result_.error = "the run on the other machine did not start or its trace did not come "
                        "back (the Console says why)";
    finished_ = true;
    emit stopStatusChanged(QString());
    emit finished();
}

void RunController::signalRun(int sig) {
    if (remote_)
        ::kill(pid_t(remote_->processId()), sig);
    else
        launcher_->sendSignal(sig);
}

void RunController::readSome(int fd, bool isStderr, int maxBytes) {
    QByteArray buf;
    int total = 0;
    while (total < maxBytes) {
        buf.resize(kReadChunk);
        const ssize_t n = ::read(fd, buf.data(), kReadChunk);
        if (n > 0) {
            buf.resize(n);
            total += int(n);
            emit output(buf, isStderr);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n == 0) { // the write end is closed: the target and its children are done with it
            QSocketNotifier*& notifier = isStderr ? errNotifier_ : outNotifier_;
            if (notifier) {
                notifier->setEnabled(false);
                notifier->deleteLater();
                notifier = nullptr;
            }
        }
        break; // EAGAIN: nothing more now
    }
}

void RunController::checkExit() {
    int code = 0;
    if (!launcher_ || finished_ || !launcher_->poll(&code)) return;
    // Stopping: the run ends when its whole process group has, children that ignore the
    // signals included (the escalation goes on); at most kKillWaitMs after SIGKILL (a process
    // in uninterruptible sleep dies when its system call returns).
    if (stopStage_ > 0 && launcher_->groupAlive() &&
        (stopStage_ < 3 || stageClock_.elapsed() < kKillWaitMs))
        return;
    poll_.stop();
    escalation_.stop();
    endedMs_ = clock_.elapsed();
    // What the target wrote before it exited; a child that outlives it may keep the pipes open,
    // so read what is there now and stop listening.
    if (outNotifier_) readSome(launcher_->outputFd(), false, 64 << 20);
    if (errNotifier_) readSome(launcher_->errorFd(), true, 64 << 20);
    closePipes();
    result_ = launcher_->finish();
    finished_ = true;
    emit stopStatusChanged(QString());
    emit finished();
}

void RunController::stop() {
    if (!running() || stopStage_ > 0) return;
    stopStage_ = 1;
    signalRun(SIGINT);
    stageClock_.start();
    escalation_.start(grace_.termAfterMs);
    emit stopStatusChanged(stopStatus());
}

void RunController::hurry() {
    if (!running()) return;
    if (stopStage_ == 0) {
        stop();
        return;
    }
    escalation_.stop();
    escalate();
}

void RunController::escalate() {
    if (!running() || stopStage_ >= 3) return;
    if (stopStage_ == 1) {
        stopStage_ = 2;
        signalRun(SIGTERM);
        stageClock_.start();
        escalation_.start(grace_.killAfterMs);
    } else if (stopStage_ == 2) {
        stopStage_ = 3;
        signalRun(SIGKILL);
        stageClock_.start();
    }
    emit stopStatusChanged(stopStatus());
}

QString RunController::stopStatus() const {
    if (!running() || stopStage_ == 0) return {};
    auto left = [this](int graceMs) {
        const double s = std::max<qint64>(0, graceMs - stageClock_.elapsed()) / 1000.0;
        return QString::number(s, 'f', 1);
    };
    switch (stopStage_) {
    case 1:
        return tr("SIGINT sent \u00b7 SIGTERM in %1 s").arg(left(grace_.termAfterMs));
    case 2:
        return tr("SIGTERM sent \u00b7 SIGKILL in %1 s").arg(left(grace_.killAfterMs));
    default:
        return tr("SIGKILL sent");
    }
}

qint64 RunController::elapsedMs() const {
    if (endedMs_ >= 0) return endedMs_;
    return clock_.isValid() ? clock_.elapsed() : 0;
}

const RunInfo& RunController::run() const {
    static const RunInfo none;
    if (remote_) return remoteRun_;
    return launcher_ ? launcher_->run() : none;
}

void RunController::closePipes() {
    for (QSocketNotifier** n : {&outNotifier_, &errNotifier_}) {
        if (!*n) continue;
        (*n)->setEnabled(false);
        (*n)->deleteLater();
        *n = nullptr;
    }
}

} // namespace strata
