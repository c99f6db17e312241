// Recordings that never destroy each other (issue 42, point 4): two recordings whose output names
// collide leave one good file and one clear error (the file is created exclusively,
// io/strata/strata_file_create.h); --force never replaces a file a live recording holds, nor
// anything behind a symbolic link; a file carrying a run id copied from another run's
// environment is not adopted (core/record/run_files.h: the target must be among its writer's
// ancestors); a strata-cli record that is SIGKILLed takes its target with it
// (core/record/spawn_target.h: PR_SET_PDEATHSIG). The collector's own record of a launcher that
// died is checked in tst_collector_process (launcherKilledFileSaysWhatHappened).
#include "support/launcher_fixture.h"
#include "support/test_main.h"

#include "contract/process_ancestry.h"
#include "io/strata/strata_file_create.h"
#include "io/strata/strata_file_owner.h"
#include "io/strata/strata_trace_writer.h"
#include "record/process_group.h"

#include <QStandardPaths>

#include <pty.h>
#include <sys/wait.h>

namespace {

bool hasWarning(const Trace& t, const std::string& text) {
    for (const auto& w : t.warnings())
        if (w.find(text) != std::string::npos) return true;
    return false;
}

// STRATA_NAME=value lines the fake target wrote with --env-to, once the file is there.
std::map<std::string, std::string> waitForEnvironment(const std::string& path) {
    std::map<std::string, std::string> env;
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 30000) {
        const std::string text = readAll(path);
        if (text.find(collector_env::kRunId) != std::string::npos) {
            size_t at = 0;
            while (at < text.size()) {
                const size_t end = text.find('\n', at);
                const std::string line = text.substr(at, end - at);
                const size_t eq = line.find('=');
                if (eq != std::string::npos) env[line.substr(0, eq)] = line.substr(eq + 1);
                if (end == std::string::npos) break;
                at = end + 1;
            }
            return env;
        }
        QTest::qWait(20);
    }
    return env;
}

// Whether the group led by `pid` has ended within `ms` (a generous bound: the point is that
// it does not run on).
bool groupEndsWithin(pid_t pid, int ms) {
    QElapsedTimer t;
    t.start();
    while (processGroupAlive(pid)) {
        if (t.elapsed() > ms) return false;
        QTest::qWait(20);
    }
    return true;
}

// The parent of `pid` (/proc/<pid>/stat, read by hand), or -1.
pid_t parentOf(pid_t pid) {
    const std::string stat = readAll("/proc/" + std::to_string(pid) + "/stat");
    const size_t paren = stat.rfind(')');
    char state = 0;
    long ppid = -1;
    if (paren == std::string::npos ||
        std::sscanf(stat.c_str() + paren + 1, " %c %ld", &state, &ppid) != 2)
        return -1;
    return pid_t(ppid);
}

// Whether `pid` has ended (gone, or a zombie nobody reaps) within `ms`; /proc read by hand.
bool processEndsWithin(pid_t pid, int ms) {
    QElapsedTimer t;
    t.start();
    for (;;) {
        const std::string stat = readAll("/proc/" + std::to_string(pid) + "/stat");
        const size_t paren = stat.rfind(')');
        if (paren == std::string::npos || paren + 2 >= stat.size() || stat[paren + 2] == 'Z')
            return true;
        if (t.elapsed() > ms) return false;
        QTest::qWait(20);
    }
}

} // namespace

class TestRecordIsolation : public QObject, public LauncherFiles {
    Q_OBJECT

private slots:
    void initTestCase() { makeFakeCollector(); }

    // Two launches with the same -o, whose targets create the file only once both launchers
    // have passed their early "exists" check: one file, whole, holding the winner's trace and
    // its one run record; the other run ends with an error that says the file is not its own.
    void collidingRunsLeaveOneGoodFileAndOneError() {
        const std::string out = path("same.strata");
        const std::string go = path("same.go");
        Launcher a, b;
        std::string error;
        RecordOptions o = options({kFakeTarget, "--open-when", go});
        o.output = out;
        QVERIFY2(a.start(o, &error), error.c_str());
        QVERIFY2(b.start(o, &error), error.c_str()); // the early check saw no file either
        std::ofstream(go) << "go\n";
        const int codeA = a.wait(), codeB = b.wait();
        const RecordingResult ra = a.finish(), rb = b.finish();
        QVERIFY2((codeA == 0) != (codeB == 0), qPrintable(QString("%1 %2").arg(codeA).arg(codeB)));
        const bool aWon = codeA == 0;
        const Launcher& winner = aWon ? a : b;
        const RecordingResult& won = aWon ? ra : rb;
        const RecordingResult& lost = aWon ? rb : ra;
        QCOMPARE(aWon ? codeB : codeA, 91); // the loser's target could not create the file
        QVERIFY2(won.error.empty(), won.error.c_str());
        QCOMPARE(won.files, std::vector<std::string>{out});
        QVERIFY(!won.runOnly);
        QVERIFY(lost.files.empty());
        QVERIFY2(lost.error.find(out + " was not written by this run") == 0, lost.error.c_str());
        const LoadResult loaded = loadTrace(out);
        QVERIFY(loaded.ok());
        QCOMPARE(loaded.trace->sliceCount(), size_t(4));
        QCOMPARE(loaded.trace->run()->pid, int64_t(winner.pid()));
        QVERIFY(!hasWarning(*loaded.trace, "more than one run record"));
        QCOMPARE(readStrataFileOwner(out).runId, winner.runId());
    }

    // The same with two strata-cli processes: one says what it wrote and exits 0, the other
    // exits with its target's failure, says why and lists no file.
    void collidingCliRunsLeaveOneGoodFileAndOneError() {
        const QString out = QString::fromStdString(path("cli-same.strata"));
        const std::string go = path("cli-same.go");
        QProcess p[2];
        for (int i = 0; i < 2; ++i) {
            p[i].setProcessEnvironment(cliEnv());
            p[i].start(QString::fromStdString(kCli),
                       {"record", "-o", out, "--", QString::fromStdString(kFakeTarget), "--env-to",
                        QString::fromStdString(path(i ? "cli-env1" : "cli-env0")), "--open-when",
                        QString::fromStdString(go)});
            QVERIFY(p[i].waitForStarted());
        }
        // Both targets run (both launchers passed their check) before either creates the file.
        QVERIFY(!waitForEnvironment(path("cli-env0")).empty());
        QVERIFY(!waitForEnvironment(path("cli-env1")).empty());
        std::ofstream(go) << "go\n";
        for (auto& q : p) QVERIFY(q.waitForFinished(60000));
        const int winner = p[0].exitCode() == 0 ? 0 : 1;
        const QString wonErr = QString::fromUtf8(p[winner].readAllStandardError());
        const QString lostErr = QString::fromUtf8(p[1 - winner].readAllStandardError());
        QCOMPARE(p[winner].exitCode(), 0);
        QCOMPARE(p[1 - winner].exitCode(), 91);
        QVERIFY2(wonErr.contains("4 slices, 2 kernels"), qPrintable(wonErr));
        QVERIFY2(lostErr.contains("cli-same.strata exists (another recording"),
                 qPrintable(lostErr));
        QVERIFY2(lostErr.contains("error: the run record was not written: " + out +
                                  " was not written by this run"),
                 qPrintable(lostErr));
        QVERIFY2(!lostErr.contains("slices"), qPrintable(lostErr)); // no file claimed
        const LoadResult loaded = loadTrace(out.toStdString());
        QVERIFY(loaded.ok());
        QCOMPARE(loaded.trace->sliceCount(), size_t(4));
        const std::string winnerEnv = path(winner ? "cli-env1" : "cli-env0");
        QCOMPARE(loaded.trace->run()->argv.at(2), winnerEnv);
        QVERIFY(!hasWarning(*loaded.trace, "more than one run record"));
    }

    // --force replaces an earlier, finished recording, but never a file a live recording holds:
    // that one stays whole, its run completes, the forcing run fails and says why.
    void forceNeverReplacesALiveRecording() {
        const std::string out = path("live.strata");
        Launcher a;
        std::string error;
        RecordOptions o = options({kFakeTarget, "--sleep-ms", "120000"});
        o.output = out;
        QVERIFY2(a.start(o, &error), error.c_str());
        QTRY_VERIFY_WITH_TIMEOUT(summarizeTraceFile(out).slices == 4, 20000);
        Launcher b;
        RecordOptions forced = options({kFakeTarget});
        forced.output = out;
        forced.force = true;
        forced.captureOutput = true;
        QVERIFY2(b.start(forced, &error), error.c_str());
        const auto [bOut, bErr] = drainBoth(b.outputFd(), b.errorFd());
        QCOMPARE(b.wait(), 91);
        QVERIFY2(bErr.find("live.strata is being written by another recording (it holds the "
                           "file's lock): not replaced, even with --force") != std::string::npos,
                 bErr.c_str());
        const RecordingResult rb = b.finish();
        QVERIFY(rb.files.empty());
        QVERIFY2(rb.error.find(out + " was not written by this run") == 0, rb.error.c_str());
        a.sendSignal(SIGTERM);
        QCOMPARE(a.wait(), 128 + SIGTERM);
        const RecordingResult ra = a.finish();
        QVERIFY2(ra.error.empty(), ra.error.c_str());
        QCOMPARE(ra.files, std::vector<std::string>{out});
        const LoadResult loaded = loadTrace(out);
        QVERIFY(loaded.ok());
        QCOMPARE(loaded.trace->sliceCount(), size_t(4));
        QCOMPARE(loaded.trace->run()->pid, int64_t(a.pid()));
        QVERIFY(!hasWarning(*loaded.trace, "more than one run record"));

        // Finished now: --force replaces it with the new run's trace.
        forced.captureOutput = false;
        Launcher c;
        QVERIFY2(c.start(forced, &error), error.c_str());
        QCOMPARE(c.wait(), 0);
        QCOMPARE(c.finish().files, std::vector<std::string>{out});
        QCOMPARE(readStrataFileOwner(out).runId, c.runId());
    }

    // A recording's file is never created over an existing one: the writer refuses, says why,
    // and the file keeps every byte.
    void exclusiveCreateNeverTruncates() {
        const std::string out = path("kept.strata");
        std::ofstream(out) << "another recording's bytes\n";
        StrataTraceWriter w;
        std::string error;
        QVERIFY(!w.open(out, &error, CreateMode::Exclusive));
        QVERIFY2(error.find(out + " exists (another recording writing to the same path") == 0,
                 error.c_str());
        QCOMPARE(readAll(out), std::string("another recording's bytes\n"));
        // A fresh name: created, and locked while written (strataFileBeingWritten).
        const std::string fresh = path("fresh.strata");
        QVERIFY2(w.open(fresh, &error, CreateMode::Exclusive), error.c_str());
        QVERIFY(strataFileBeingWritten(fresh));
        QCOMPARE(createStrataFile(fresh, CreateMode::ReplaceFinished, &error), -1);
        QVERIFY2(error.find("is being written by another recording") != std::string::npos,
                 error.c_str());
        QVERIFY(w.close());
        QVERIFY(!strataFileBeingWritten(fresh));
        QVERIFY(loadTrace(fresh).ok());
    }

    // The ancestry a file records: this process, then its parent, ...; read back by hand.
    void ancestryOfThisProcess() {
        const std::string a = processAncestry();
        const std::string mine = std::to_string(getpid()) + " " + std::to_string(getppid());
        QVERIFY2(a.rfind(mine, 0) == 0, a.c_str());
        QVERIFY(ancestryContains(a, getpid()));
        QVERIFY(ancestryContains(a, getppid()));
        QVERIFY(ancestryContains("12 7 1", 7));
        QVERIFY(!ancestryContains("12 7 1", 2)); // not a prefix of 12
        QVERIFY(!ancestryContains("127 1", 12));
        QVERIFY(!ancestryContains("", 1));
        QVERIFY(!ancestryContains("x 12", 12)); // not a list of pids: nothing matches
    }

    // Nothing is written through a symbolic link, with or without --force, nor over anything but
    // a regular file; the early check says so before the program runs.
    void neverThroughASymbolicLink() {
        const std::string victim = path("victim.txt");
        std::ofstream(victim) << "keep me\n";
        const std::string link = path("link.strata");
        QCOMPARE(::symlink(victim.c_str(), link.c_str()), 0);
        const std::string dangling = path("dangling.strata");
        QCOMPARE(::symlink(path("nowhere.txt").c_str(), dangling.c_str()), 0);
        std::string error;
        for (CreateMode mode : {CreateMode::Exclusive, CreateMode::ReplaceFinished}) {
            QCOMPARE(createStrataFile(link, mode, &error), -1);
            QCOMPARE(createStrataFile(dangling, mode, &error), -1);
        }
        QVERIFY2(error.find("is a symbolic link") != std::string::npos, error.c_str());
        QCOMPARE(readAll(victim), std::string("keep me\n"));
        QVERIFY(!QFileInfo::exists(QString::fromStdString(path("nowhere.txt"))));
        QVERIFY(QDir().mkpath(dir_.filePath("a-dir.strata")));
        QCOMPARE(createStrataFile(path("a-dir.strata"), CreateMode::ReplaceFinished, &error), -1);
        QVERIFY2(error.find("is not a regular file") != std::string::npos, error.c_str());

        const CliRun r = runCli({"record", "--force", "-o", QString::fromStdString(link), "--",
                                 QString::fromStdString(kFakeTarget)},
                                cliEnv());
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("link.strata is a symbolic link"), qPrintable(r.err));
        QCOMPARE(readAll(victim), std::string("keep me\n"));
    }

    // A process that copied the run's $STRATA_RUN_ID (from the target's environment) but is not
    // the target nor started by it writes a file that matches the template: not adopted, a note
    // names it. A process the target started in a session of its own (setsid, as torchrun does
    // with its workers) is the run's.
    void copiedRunIdIsNotAdopted() {
        if (QStandardPaths::findExecutable("setsid").isEmpty()) QSKIP("no setsid program here");
        const QString sub = dir_.filePath("forged");
        QVERIFY(QDir().mkpath(sub));
        RecordOptions o = options(
            {"setsid", "-w", kFakeTarget, "--env-to", path("forged-env"), "--sleep-ms", "1000"});
        o.output = sub.toStdString() + "/f-{pid}.strata";
        Launcher l;
        std::string error;
        QVERIFY2(l.start(o, &error), error.c_str());
        const auto env = waitForEnvironment(path("forged-env"));
        QCOMPARE(env.at(collector_env::kRunId), l.runId());
        // The forger: a process of its own, given the run's variables by copy.
        QProcess forger;
        QProcessEnvironment forgedEnv = cliEnv();
        for (const auto& [k, v] : env)
            forgedEnv.insert(QString::fromStdString(k), QString::fromStdString(v));
        forger.setProcessEnvironment(forgedEnv);
        forger.start(QString::fromStdString(kFakeTarget), {});
        QVERIFY(forger.waitForStarted());
        const qint64 forgerPid = forger.processId();
        QVERIFY(forger.waitForFinished(30000));
        QCOMPARE(forger.exitCode(), 0);
        const std::string forged =
            sub.toStdString() + "/f-" + std::to_string(forgerPid) + ".strata";
        QCOMPARE(readStrataFileOwner(forged).runId, l.runId()); // the copy is perfect
        QVERIFY(!ancestryContains(readStrataFileOwner(forged).ancestry, l.pid()));
        QCOMPARE(l.wait(), 0);
        const RecordingResult r = l.finish();
        QVERIFY2(r.error.empty(), r.error.c_str());
        // The one file of the run: the setsid'ed child's, a descendant of the target.
        QCOMPARE(r.files.size(), size_t(1));
        QVERIFY(r.files[0] != forged);
        const StrataFileOwner child = readStrataFileOwner(r.files[0]);
        QVERIFY(child.pid != int64_t(l.pid()));
        QVERIFY(ancestryContains(child.ancestry, l.pid()));
        QCOMPARE(r.notes.size(), size_t(1));
        QVERIFY2(r.notes[0].find(forged + " carries this run's id but was not written by the "
                                          "target") == 0,
                 r.notes[0].c_str());
        const LoadResult loaded = loadTrace(forged);
        QVERIFY(loaded.ok());
        QVERIFY(!loaded.trace->run().has_value()); // left as it was
    }

    // strata-cli record killed with SIGKILL (no handler runs): its target, tied to its life,
    // does not run on. Without a terminal (the target leads its own group) and as a terminal's
    // foreground job (the target shares strata-cli's group).
    void killedCliTakesItsTargetAlong() {
        QProcess cli;
        cli.setProcessEnvironment(cliEnv());
        cli.start(QString::fromStdString(kCli),
                  {"record", "-q", "-o", QString::fromStdString(path("k-{pid}.strata")), "--",
                   QString::fromStdString(kFakeTarget), "--env-to",
                   QString::fromStdString(path("k-env")), "--sleep-ms", "120000"});
        QVERIFY(cli.waitForStarted());
        QVERIFY(!waitForEnvironment(path("k-env")).empty());
        QStringList files;
        QTRY_VERIFY_WITH_TIMEOUT(
            (files = QDir(dir_.path()).entryList({"k-*.strata"}, QDir::Files)).size() == 1, 20000);
        const pid_t target = pid_t(files[0].mid(2, files[0].size() - 9).toLong());
        QVERIFY(target > 0);
        QVERIFY(processGroupAlive(target));
        QCOMPARE(::kill(pid_t(cli.processId()), SIGKILL), 0);
        QVERIFY(cli.waitForFinished(10000));
        QVERIFY2(groupEndsWithin(target, 30000), "the target runs on without strata-cli");
    }

    // As a terminal's foreground job: a shell (the session leader, staying) runs strata-cli,
    // which keeps the target in its own group; strata-cli killed, the target ends all the same.
    void killedForegroundCliTakesItsTargetAlong() {
        const std::string script = "'" + kCli + "' record -q --collector '" + fakeCollector_ +
                                   "' -o '" + path("fg-{pid}.strata") + "' -- '" + kFakeTarget +
                                   "' --env-to '" + path("fg-env") +
                                   "' --sleep-ms 120000; sleep 120";
        int master = -1;
        const pid_t shell = forkpty(&master, nullptr, nullptr, nullptr);
        if (shell < 0) QSKIP("no pseudo-terminal here (forkpty failed)");
        if (shell == 0) {
            execl("/bin/sh", "sh", "-c", script.c_str(), static_cast<char*>(nullptr));
            _exit(127);
        }
        const bool started = !waitForEnvironment(path("fg-env")).empty();
        QStringList files;
        for (int i = 0; i < 1000 && files.isEmpty(); ++i) {
            files = QDir(dir_.path()).entryList({"fg-*.strata"}, QDir::Files);
            if (files.isEmpty()) QTest::qWait(20);
        }
        const pid_t target =
            files.isEmpty() ? -1 : pid_t(files[0].mid(3, files[0].size() - 10).toLong());
        const pid_t cli = target > 0 ? parentOf(target) : -1;
        // The target in strata-cli's group, the terminal's foreground group (the shell's).
        const bool shared = cli > 0 && getpgid(target) == getpgid(cli) && getpgid(cli) == shell;
        if (cli > 0) ::kill(cli, SIGKILL);
        const bool ended = target > 0 && processEndsWithin(target, 30000);
        ::kill(shell, SIGKILL);
        int status = 0;
        waitpid(shell, &status, 0);
        close(master);
        QVERIFY(started);
        QVERIFY(target > 0);
        QVERIFY2(shared, "strata-cli was not the terminal's foreground job");
        QVERIFY2(ended, "the target runs on without strata-cli");
    }
};

STRATA_TEST_GUILESS_MAIN(TestRecordIsolation)
#include "tst_record_isolation.moc"
