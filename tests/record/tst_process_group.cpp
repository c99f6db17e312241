// The target's process group (issue 34): the launcher starts the target as the leader of a
// group of its own, so signals reach its children too (core/record/process_group.h); strata-cli
// passes the signals sent to it on to that group (core/record/signal_forwarder.h), and, as a
// terminal's foreground job, keeps the target in strata-cli's group so the terminal's Ctrl-C
// works as for any command.
#include "io/trace_loader.h"
#include "model/trace.h"
#include "record/launcher.h"
#include "record/process_group.h"
#include "record/signal_forwarder.h"
#include "support/process_watch.h"
#include "support/test_main.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <cstdio>
#include <fstream>
#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace strata;

namespace {

const char* const kCli = STRATA_BINARY_DIR "/app/strata-cli";
const char* const kFake = STRATA_BINARY_DIR "/tests/record_fake_target";

using strata::test::allGoneWithin;
using strata::test::running;
using strata::test::waitForPids;

// The first process whose parent is `parent` (from /proc/<pid>/stat), or -1.
pid_t childOf(pid_t parent) {
    for (const QString& entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        bool number = false;
        const long pid = entry.toLong(&number);
        if (!number) continue;
        std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
        std::string text((std::istreambuf_iterator<char>(f)), {});
        const size_t paren = text.rfind(')');
        char state = 0;
        long ppid = 0;
        if (paren != std::string::npos &&
            std::sscanf(text.c_str() + paren + 1, " %c %ld", &state, &ppid) == 2 &&
            ppid == long(parent))
            return pid_t(pid);
    }
    return -1;
}

// What the terminal shows within `ms` (poll, so nothing blocks).
std::string readTerminal(int master, int ms) {
    pollfd p{master, POLLIN, 0};
    if (::poll(&p, 1, ms) <= 0) return {};
    char buf[256];
    const ssize_t n = read(master, buf, sizeof buf);
    return n > 0 ? std::string(buf, size_t(n)) : std::string();
}

RecordOptions shell(const std::string& script, const std::string& output) {
    RecordOptions o;
    o.command = {"sh", "-c", script};
    o.inject = false;
    o.output = output;
    return o;
}

} // namespace

class TestProcessGroup : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string path(const char* name) { return dir_.filePath(name).toStdString(); }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void targetLeadsItsOwnGroup() {
        Launcher l;
        std::string error;
        QVERIFY2(l.start(shell("sleep 5", path("own-{pid}.strata")), &error), error.c_str());
        QCOMPARE(getpgid(l.pid()), l.pid());
        QCOMPARE(l.processGroup(), l.pid());
        QVERIFY(processGroupAlive(l.pid()));
        l.sendSignal(SIGKILL);
        QCOMPARE(l.wait(), 128 + SIGKILL);

        // Sharing the launcher's group, a signal reaches the target alone: no shell, so no
        // child of it outlives the test.
        RecordOptions shared = shell("", path("shared-{pid}.strata"));
        shared.command = {"sleep", "5"};
        shared.ownProcessGroup = false;
        Launcher s;
        QVERIFY2(s.start(shared, &error), error.c_str());
        QCOMPARE(getpgid(s.pid()), getpgrp());
        QCOMPARE(s.processGroup(), pid_t(0));
        s.sendSignal(SIGKILL);
        QCOMPARE(s.wait(), 128 + SIGKILL);
    }

    // sendSignal reaches the target's children, and keeps reaching them after the target
    // itself has gone, for as long as the group lives.
    void signalsReachTheChildren() {
        const QString kids = dir_.filePath(QStringLiteral("kids1"));
        Launcher l;
        std::string error;
        // The two sleeps ignore SIGTERM (each says its pid once it does); the shell does not.
        const std::string script = "for i in 1 2; do sh -c 'trap \"\" TERM; echo $$ >> " +
                                   kids.toStdString() + "; exec sleep 60' & done; wait";
        QVERIFY2(l.start(shell(script, path("kids-{pid}.strata")), &error), error.c_str());
        const std::vector<pid_t> pids = waitForPids(kids, 2);
        QCOMPARE(pids.size(), size_t(2));
        for (pid_t p : pids) QCOMPARE(getpgid(p), l.pid());
        l.sendSignal(SIGTERM);
        QCOMPARE(l.wait(), 128 + SIGTERM); // the shell is gone
        QVERIFY(running(pids[0]) && running(pids[1]));
        QVERIFY(l.groupAlive());
        l.sendSignal(SIGKILL);
        QVERIFY(allGoneWithin(pids, 5000));
        QTRY_VERIFY_WITH_TIMEOUT(!l.groupAlive(), 5000);
        const RecordingResult r = l.finish();
        const LoadResult loaded = loadTrace(r.files.at(0));
        QVERIFY(loaded.ok());
        QCOMPARE(loaded.trace->run()->stopSignals,
                 (std::vector<std::string>{"SIGTERM", "SIGKILL"}));
        QCOMPARE(loaded.trace->run()->signal, std::optional<int>(SIGTERM));
    }

    // strata-cli's forwarder: a signal that comes before the target runs is held and passed on
    // once it does; one that comes while it runs goes to its whole group at once.
    void forwarderHoldsAnEarlySignal() {
        SignalForwarder forward;
        QCOMPARE(raise(SIGTERM), 0); // held: this process lives on
        Launcher l;
        std::string error;
        QVERIFY2(l.start(shell("sleep 30", path("held-{pid}.strata")), &error), error.c_str());
        forward.setTarget(l.pid(), l.processGroup() > 0);
        QCOMPARE(l.wait(), 128 + SIGTERM);

        Launcher m;
        QVERIFY2(m.start(shell("sleep 30", path("held-{pid}.strata")), &error), error.c_str());
        forward.setTarget(m.pid(), m.processGroup() > 0);
        QCOMPARE(::kill(getpid(), SIGHUP), 0);
        QCOMPARE(m.wait(), 128 + SIGHUP);
    }

    // `kill -TERM <strata-cli>` (here with no terminal: a new session) ends the target's children
    // too, and strata-cli writes the run record and exits with 128 + SIGTERM.
    void cliForwardsToTheWholeGroup() {
        const QString kids = dir_.filePath(QStringLiteral("kids2"));
        QProcess p;
        p.setChildProcessModifier([] { setsid(); });
        p.start(QString::fromLatin1(kCli),
                {QStringLiteral("record"), QStringLiteral("-q"), QStringLiteral("--no-collector"),
                 QStringLiteral("-o"), dir_.filePath(QStringLiteral("fw-{pid}.strata")),
                 QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                 QStringLiteral("sleep 60 & echo $! > %1; wait").arg(kids)});
        QVERIFY(p.waitForStarted());
        const std::vector<pid_t> pids = waitForPids(kids, 1);
        QCOMPARE(pids.size(), size_t(1));
        ::kill(pid_t(p.processId()), SIGTERM);
        QVERIFY(p.waitForFinished(10000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 128 + SIGTERM);
        QVERIFY(allGoneWithin(pids, 3000));
        const QStringList files = QDir(dir_.path()).entryList({QStringLiteral("fw-*.strata")});
        QCOMPARE(files.size(), 1);
        const LoadResult loaded = loadTrace(dir_.filePath(files[0]).toStdString());
        QVERIFY(loaded.ok());
        QCOMPARE(loaded.trace->run()->signal, std::optional<int>(SIGTERM));
    }

    // strata-cli as a terminal's foreground job (a pseudo-terminal here): the target stays in
    // strata-cli's process group, Ctrl-C typed at the terminal ends it, and strata-cli lives on
    // to write its run record and exit with 128 + SIGINT.
    void cliInATerminalKeepsCtrlC() {
        const std::string out = path("tty-{pid}.strata");
        int master = -1;
        const pid_t cli = forkpty(&master, nullptr, nullptr, nullptr);
        if (cli < 0) QSKIP("no pseudo-terminal here (forkpty failed)");
        if (cli == 0) {
            // The stand-in target says "out 0" and sleeps with SIGINT at its default: Ctrl-C
            // ends it whenever it comes (a shell could be between two commands and hold it).
            execl(kCli, kCli, "record", "-q", "--no-collector", "-o", out.c_str(), "--", kFake,
                  "--no-trace", "--chatter", "1", "--sleep-ms", "60000",
                  static_cast<char*>(nullptr));
            _exit(127);
        }
        std::string seen;
        QElapsedTimer t;
        t.start();
        while (seen.find("out 0") == std::string::npos && t.elapsed() < 10000)
            seen += readTerminal(master, 100);
        QVERIFY2(seen.find("out 0") != std::string::npos, seen.c_str());
        const pid_t target = childOf(cli);
        QVERIFY(target > 0);
        QCOMPARE(getpgid(target), cli);                 // the target is in strata-cli's group
        QCOMPARE(write(master, "\x03", 1), ssize_t(1)); // Ctrl-C
        int status = 0;
        pid_t ended = 0;
        for (t.restart(); ended == 0 && t.elapsed() < 10000;) {
            seen += readTerminal(master, 20); // keep the terminal drained
            ended = waitpid(cli, &status, WNOHANG);
        }
        close(master);
        QVERIFY2(ended == cli, seen.c_str());
        QVERIFY2(WIFEXITED(status), seen.c_str());
        QCOMPARE(WEXITSTATUS(status), 128 + SIGINT);
        const QStringList files = QDir(dir_.path()).entryList({QStringLiteral("tty-*.strata")});
        QCOMPARE(files.size(), 1);
        const LoadResult loaded = loadTrace(dir_.filePath(files[0]).toStdString());
        QVERIFY(loaded.ok());
        QCOMPARE(loaded.trace->run()->signal, std::optional<int>(SIGINT));
    }
};

STRATA_TEST_GUILESS_MAIN(TestProcessGroup)
#include "tst_process_group.moc"
