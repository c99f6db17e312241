// strata-cli record --remote (issue 50) against a real OpenSSH server on 127.0.0.1 started by the
// test (support/sshd_fixture.h): this strata-cli and its collector copied there once, the
// stand-in target run there with its output streamed here, the trace and its run record brought
// back, the remote copy removed or kept, a Stop ending the remote process group with the run
// still recorded, and each fault said in a line: an unreachable port, a refused key, a local file
// that exists, a malformed --remote.
#include "io/trace_loader.h"
#include "model/run_info.h"
#include "model/trace.h"
#include "record/record_options.h"
#include "record/remote_host.h"
#include "support/process_run.h"
#include "support/sshd_fixture.h"
#include "support/test_main.h"

#include <QDir>
#include <QProcess>
#include <QtTest>

#include <csignal>
#include <unistd.h>

using namespace strata;
using namespace strata::test;

namespace {

const QString kCli = QStringLiteral(STRATA_BINARY_DIR "/app/strata-cli");
const QString kFake = QStringLiteral(STRATA_BINARY_DIR "/tests/record_fake_target");

QString localHost() {
    char name[256] = {};
    ::gethostname(name, sizeof name - 1);
    return QString::fromLocal8Bit(name);
}

// Kills (SIGKILL) the children of `parent` named `name`; how many.
int killChildren(qint64 parent, const char* name) {
    int killed = 0;
    for (const QString& pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!f.open(QIODevice::ReadOnly)) continue;
        const QByteArray stat = f.readAll(); // pid (comm) state ppid ...
        const qsizetype open = stat.indexOf('('), close = stat.lastIndexOf(')');
        if (open < 0 || close < open) continue;
        const QList<QByteArray> rest = stat.mid(close + 2).split(' ');
        if (stat.mid(open + 1, close - open - 1) == name && rest.size() > 1 &&
            rest[1].toLongLong() == parent && ::kill(pid_t(pid.toInt()), SIGKILL) == 0)
            ++killed;
    }
    return killed;
}

} // namespace

class TstRemoteRecord : public QObject {
    Q_OBJECT
    SshdFixture sshd_;
    QTemporaryDir dir_;

    QStringList remoteArgs(const QString& output) const {
        return QStringList{QStringLiteral("record"), QStringLiteral("--remote"), sshd_.remote()} +
               sshd_.sshOptions() +
               QStringList{QStringLiteral("--remote-dir"), dir_.filePath(QStringLiteral("remote")),
                           QStringLiteral("-o"), output};
    }
    QStringList runFolders() const {
        return QDir(dir_.filePath(QStringLiteral("remote/runs")))
            .entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    }

private slots:
    void initTestCase() {
        const QString why = sshd_.start();
        QVERIFY2(why.isEmpty(), qPrintable(why));
        sshd_.useStandInCollector();
        QVERIFY(dir_.isValid());
    }

    void remoteHostText() {
        RemoteHost h;
        std::string error;
        QVERIFY(parseRemoteHost("ann@gpu-7:2222", &h, &error));
        QCOMPARE(h.user, std::string("ann"));
        QCOMPARE(h.host, std::string("gpu-7"));
        QCOMPARE(h.port, 2222);
        QCOMPARE(h.destination(), std::string("ann@gpu-7"));
        QVERIFY(parseRemoteHost("[::1]:22", &h, &error));
        QCOMPARE(h.host, std::string("::1"));
        QCOMPARE(h.text(), std::string("[::1]:22"));
        QVERIFY(parseRemoteHost("node3", &h, &error));
        QCOMPARE(h.user, std::string());
        QCOMPARE(h.port, 0);
        for (const char* bad :
             {"", "ann@", "@h", "h:0", "h:x", "h:70000", "a:b:c", "-oProxy=x", "h 1", "[::1"}) {
            error.clear();
            QVERIFY2(!parseRemoteHost(bad, &h, &error), bad);
            QVERIFY2(error.find("--remote expects") == 0, error.c_str());
        }
        const std::vector<std::string> argv =
            sshArgv(RemoteHost{"ann", "gpu-7", 2222, {"IdentityFile=/k"}}, "echo hi");
        const std::vector<std::string> want = {"ssh",       "-T",   "-o",     "BatchMode=yes",
                                               "-p",        "2222", "-o",     "IdentityFile=/k",
                                               "ann@gpu-7", "--",   "echo hi"};
        QCOMPARE(argv, want);
    }

    // What a remote run passes on: each option as strata-cli record reads it, defaults left out.
    void recordArgumentsAsTheCliReadsThem() {
        QCOMPARE(recordArguments(RecordOptions{}), std::vector<std::string>{});
        RecordOptions o;
        o.inject = false;
        o.capture = {"api", "kernels"};
        o.wait = 1;
        o.active = 2;
        o.stepName = "step";
        o.durationS = 2.5;
        o.python = PythonRecording::Calls;
        o.cpuSampleHz = 500;
        o.workingDirectory = "/srv/run";
        o.extraEnvironment = {{"RANK", "3"}};
        o.removedEnvironment = {"PYTHONPATH"};
        const std::vector<std::string> want = {"--no-collector",
                                               "--capture",
                                               "api,kernels",
                                               "--wait",
                                               "1",
                                               "--active",
                                               "2",
                                               "--step-name",
                                               "step",
                                               "--duration",
                                               "2.5",
                                               "--python",
                                               "calls",
                                               "--cpu-sample=500",
                                               "--cwd",
                                               "/srv/run",
                                               "--env",
                                               "RANK=3",
                                               "--unset",
                                               "PYTHONPATH"};
        QCOMPARE(recordArguments(o), want);
    }

    // The first run copies strata-cli there; the trace comes back with its run record; the
    // remote copy is removed.
    void recordsThereAndBringsItBack() {
        const QString out = dir_.filePath(QStringLiteral("first.strata"));
        const ProcessRun r = runProcess(
            kCli, remoteArgs(out) + QStringList{QStringLiteral("--"), kFake,
                                                QStringLiteral("--exit"), QStringLiteral("3"),
                                                QStringLiteral("--chatter"), QStringLiteral("2")});
        const QString err = QString::fromUtf8(r.err);
        QCOMPARE(r.exitCode, 3);
        QCOMPARE(QString::fromUtf8(r.out), QStringLiteral("out 0\nout 1\n"));
        QVERIFY2(err.contains(QStringLiteral("err 0\n")) && err.contains(QStringLiteral("err 1\n")),
                 qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("copying strata-cli")), qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("copied from ") + sshd_.remote()), qPrintable(err));
        QVERIFY(QFileInfo(dir_.filePath(QStringLiteral("remote/bin/strata-cli"))).isExecutable());
        QVERIFY(QFile::exists(
            dir_.filePath(QStringLiteral("remote/lib/strata/libstrata_collector.so"))));
        const LoadResult loaded = loadTrace(out.toStdString());
        QVERIFY(loaded.ok());
        const std::optional<RunInfo>& run = loaded.trace->run();
        QVERIFY(run);
        QCOMPARE(run->exitCode, std::optional<int>(3));
        QCOMPARE(run->host, localHost().toStdString());
        const std::vector<std::string> argv = {kFake.toStdString(), "--exit", "3", "--chatter",
                                               "2"};
        QCOMPARE(run->argv, argv);
        QCOMPARE(loaded.trace->sliceCount(), size_t(4)); // the stand-in's launches and kernels
        QVERIFY(runFolders().isEmpty());
    }

    // Now the same version is there: nothing copied; --keep-remote keeps the run's folder.
    void secondRunCopiesNothing() {
        const QString out = dir_.filePath(QStringLiteral("second.strata"));
        const ProcessRun r =
            runProcess(kCli, remoteArgs(out) + QStringList{QStringLiteral("--keep-remote"),
                                                           QStringLiteral("--"), kFake});
        const QString err = QString::fromUtf8(r.err);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(!err.contains(QStringLiteral("copying")), qPrintable(err));
        QVERIFY(QFile::exists(out));
        QCOMPARE(runFolders().size(), 1);
        QVERIFY2(err.contains(QStringLiteral("kept there: ")), qPrintable(err));
    }

    // -o's {rank} and {host} are expanded there, as in a local run.
    void templatesExpandedThere() {
        const ProcessRun r =
            runProcess(kCli, remoteArgs(dir_.filePath(QStringLiteral("t-{rank}-{host}.strata"))) +
                                 QStringList{QStringLiteral("-e"), QStringLiteral("RANK=5"),
                                             QStringLiteral("--"), kFake});
        QCOMPARE(r.exitCode, 0);
        const QString want = dir_.filePath(QStringLiteral("t-5-%1.strata").arg(localHost()));
        QVERIFY2(QFile::exists(want), qPrintable(QString::fromUtf8(r.err)));
        QVERIFY(QString::fromUtf8(r.err).contains(QStringLiteral("copied from ") + sshd_.remote() +
                                                  QStringLiteral(": ") + want));
    }

    // Ctrl-C here stops the target there (its whole group) and the run is still recorded.
    void stopEndsTheRemoteRun() {
        const QString out = dir_.filePath(QStringLiteral("stopped.strata"));
        const int before = int(runFolders().size());
        // Its own session and group (setsid), as a terminal's foreground job is: Ctrl-C there
        // reaches the whole group, strata-cli and what it started here, not only strata-cli.
        QProcess p;
        p.start(QStringLiteral("setsid"),
                QStringList{kCli} + remoteArgs(out) +
                    QStringList{QStringLiteral("--"), kFake, QStringLiteral("--sleep-ms"),
                                QStringLiteral("60000")});
        QVERIFY(p.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(runFolders().size() > before, 30000); // running there
        QTest::qWait(300);                                             // its ssh session up
        ::kill(-pid_t(p.processId()), SIGINT);                         // the terminal's Ctrl-C
        QVERIFY(p.state() == QProcess::NotRunning || p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 128 + SIGINT);
        const LoadResult loaded = loadTrace(out.toStdString());
        QVERIFY2(loaded.ok(), qPrintable(QString::fromUtf8(p.readAllStandardError())));
        QVERIFY(loaded.trace->run());
        QCOMPARE(loaded.trace->run()->signal, std::optional<int>(SIGINT));
        QVERIFY(::kill(pid_t(loaded.trace->run()->pid), 0) != 0); // gone
    }

    // One Ctrl-C is one signal there: a target that takes its time over SIGINT (here: ignores it)
    // is not sent SIGTERM behind it, and ends as it would.
    void oneStopIsOneSignal() {
        const QString out = dir_.filePath(QStringLiteral("patient.strata"));
        const int before = int(runFolders().size());
        QProcess p;
        p.start(kCli, remoteArgs(out) + QStringList{QStringLiteral("--"), kFake,
                                                    QStringLiteral("--ignore-sigint"),
                                                    QStringLiteral("--sleep-ms"),
                                                    QStringLiteral("1500")});
        QVERIFY(p.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(runFolders().size() > before, 30000); // running there
        ::kill(pid_t(p.processId()), SIGINT);
        QVERIFY(p.state() == QProcess::NotRunning || p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const LoadResult loaded = loadTrace(out.toStdString());
        QVERIFY2(loaded.ok(), qPrintable(QString::fromUtf8(p.readAllStandardError())));
        QCOMPARE(loaded.trace->run()->exitCode, std::optional<int>(0));
        QCOMPARE(loaded.trace->run()->signal, std::optional<int>());
    }

    // The connection drops mid-run: the run goes on there to its end, and --fetch brings its
    // trace back later with its exit code.
    void droppedConnectionGoesOn() {
        QProcess p;
        p.start(kCli, remoteArgs(dir_.filePath(QStringLiteral("dropped.strata"))) +
                          QStringList{QStringLiteral("--keep-remote"), QStringLiteral("--"), kFake,
                                      QStringLiteral("--sleep-ms"), QStringLiteral("3000"),
                                      QStringLiteral("--exit"), QStringLiteral("4")});
        QVERIFY(p.waitForStarted());
        const QStringList before = runFolders();
        QString started; // the run's folder there, once its pid is written (it runs)
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (const QString& f : runFolders())
                    if (!before.contains(f) &&
                        QFile::exists(dir_.filePath(QStringLiteral("remote/runs/") + f +
                                                    QStringLiteral("/pid"))))
                        started = f;
                return !started.isEmpty();
            }(),
            30000);
        QTest::qWait(200); // its mark on its way here (either message names the run)
        // Its ssh (the child of this strata-cli) killed: the link gone.
        int killed = 0;
        for (int i = 0; i < 600 && !killed; ++i, QTest::qWait(50))
            killed = killChildren(p.processId(), "ssh");
        QVERIFY(killed > 0);
        QVERIFY(p.state() == QProcess::NotRunning || p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 255);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        const QRegularExpressionMatch m =
            QRegularExpression(QStringLiteral("--fetch (\\S+) -o OUT")).match(err);
        QVERIFY2(m.hasMatch(), qPrintable(err));
        const QString run = m.captured(1);
        QCOMPARE(run, started);
        QVERIFY(!QFile::exists(dir_.filePath(QStringLiteral("dropped.strata"))));
        const QStringList fetch =
            QStringList{QStringLiteral("record"), QStringLiteral("--remote"), sshd_.remote()} +
            sshd_.sshOptions() +
            QStringList{
                QStringLiteral("--remote-dir"), dir_.filePath(QStringLiteral("remote")),
                QStringLiteral("--fetch"),      run,
                QStringLiteral("-o"),           dir_.filePath(QStringLiteral("dropped.strata"))};
        // Until it ends there it says so; then its trace comes back with its exit code.
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(dir_.filePath(QStringLiteral("remote/runs/")) + run +
                                               QStringLiteral("/exit")),
                                 60000);
        const CliRun r = runCli(fetch);
        QCOMPARE(r.exitCode, 4);
        const LoadResult loaded =
            loadTrace(dir_.filePath(QStringLiteral("dropped.strata")).toStdString());
        QVERIFY2(loaded.ok(), qPrintable(r.err));
        QCOMPARE(loaded.trace->run()->exitCode, std::optional<int>(4));
        const CliRun none = runCli(
            QStringList{QStringLiteral("record"), QStringLiteral("--remote"), sshd_.remote()} +
            sshd_.sshOptions() +
            QStringList{QStringLiteral("--remote-dir"), dir_.filePath(QStringLiteral("remote")),
                        QStringLiteral("--fetch"), QStringLiteral("no-such-run")});
        QCOMPARE(none.exitCode, 2);
        QVERIFY2(none.err.contains(QStringLiteral("no run no-such-run")), qPrintable(none.err));
    }

    void faultsSaidInALine() {
        const QString out = dir_.filePath(QStringLiteral("never.strata"));
        // Nothing listens there.
        QStringList args = remoteArgs(out);
        args[2] = QStringLiteral("%1@127.0.0.1:%2").arg(sshd_.user()).arg(sshd_.port() + 1);
        CliRun r = runCli(args + QStringList{QStringLiteral("--"), QStringLiteral("true")});
        QCOMPARE(r.exitCode, 255);
        QVERIFY2(r.err.contains(QStringLiteral("cannot reach ")), qPrintable(r.err));
        // A key the server does not know.
        QProcess keygen;
        const QString other = dir_.filePath(QStringLiteral("other_key"));
        keygen.start(QStringLiteral("ssh-keygen"),
                     {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
                      QStringLiteral("-N"), QString(), QStringLiteral("-f"), other});
        QVERIFY(keygen.waitForFinished(30000));
        args = QStringList{QStringLiteral("record"), QStringLiteral("--remote"), sshd_.remote()} +
               sshd_.sshOptions(other) +
               QStringList{QStringLiteral("-o"), out, QStringLiteral("--"), QStringLiteral("true")};
        r = runCli(args);
        QCOMPARE(r.exitCode, 255);
        QVERIFY2(r.err.contains(QStringLiteral("refused the login")), qPrintable(r.err));
        // A local file of that name: refused before anything runs there.
        const int folders = int(runFolders().size());
        r = runCli(remoteArgs(dir_.filePath(QStringLiteral("first.strata"))) +
                   QStringList{QStringLiteral("--"), QStringLiteral("true")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("exists (--force replaces it)")), qPrintable(r.err));
        QCOMPARE(int(runFolders().size()), folders);
        QVERIFY(!QFile::exists(out));
        // A program there that never starts CUDA: the remote record says so, here.
        r = runCli(remoteArgs(dir_.filePath(QStringLiteral("nocuda.strata"))) +
                   QStringList{QStringLiteral("--"), kFake, QStringLiteral("--no-cuda")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains(QStringLiteral("never initialized CUDA")), qPrintable(r.err));
        // A malformed --remote, and a remote option without --remote.
        r = runCli({QStringLiteral("record"), QStringLiteral("--remote"), QStringLiteral("h:0"),
                    QStringLiteral("--"), QStringLiteral("true")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("the port is not 1..65535")), qPrintable(r.err));
        r = runCli({QStringLiteral("record"), QStringLiteral("--keep-remote"), QStringLiteral("--"),
                    QStringLiteral("true")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("need --remote")), qPrintable(r.err));
    }
};

STRATA_TEST_MAIN(TstRemoteRecord)
#include "tst_remote_record.moc"
