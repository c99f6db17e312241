// The attach folder's files (contract/attach_registry.h) and the requester's side
// (record/attach_control.h) without a collector: an entry read back as written, stale entries
// (a process that has ended) removed when listed, a folder that is not the user's alone refused,
// a request to a process that never acknowledges timing out with a message, and the JSON a
// remote strata-cli attach prints read back. Values by hand.
#include "contract/attach_registry.h"
#include "record/attach_control.h"
#include "support/test_main.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace strata;
using namespace strata::attach;

class TestAttachRegistry : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;

    std::string freshDir(const char* name) {
        const std::string d = tmp_.filePath(name).toStdString();
        std::string error;
        if (!checkRegistryDir(d, true, &error)) qWarning("%s", error.c_str());
        return d;
    }
    static WaitingRun sample() {
        WaitingRun r;
        r.pid = 4242;
        r.startTicks = 123456;
        r.runId = "0123456789abcdef0123456789abcdef";
        r.command = "python train.py\n--epochs 3"; // a newline becomes a space
        r.trace = "/data/run.strata";
        r.state = RunState::Capturing;
        r.flushMs = 50;
        r.served = 3;
        r.servedNs = 987654321;
        r.windows = "100-200,300-";
        return r;
    }

private slots:
    void runFileRoundTrip() {
        WaitingRun back;
        QVERIFY(parseRun(formatRun(sample()), &back));
        QCOMPARE(back.pid, int64_t(4242));
        QCOMPARE(back.startTicks, uint64_t(123456));
        QCOMPARE(back.command, std::string("python train.py --epochs 3"));
        QCOMPARE(back.trace, std::string("/data/run.strata"));
        QCOMPARE(back.state, RunState::Capturing);
        QCOMPARE(back.flushMs, 50);
        QCOMPARE(back.served, int64_t(3));
        QCOMPARE(back.servedNs, int64_t(987654321));
        QCOMPARE(back.windows, std::string("100-200,300-"));
        QVERIFY(!parseRun("state=waiting\n", &back)); // no pid
        QVERIFY(!parseRun("pid=5\nstate=sleeping\n", &back));
    }

    void controlRoundTrip() {
        ControlRequest c;
        QVERIFY(parseControl(formatControl({7, Request::Stop}), &c));
        QCOMPARE(c.seq, int64_t(7));
        QCOMPARE(c.request, Request::Stop);
        QVERIFY(!parseControl("seq=0\nrequest=start\n", &c));
        QVERIFY(!parseControl("seq=2\nrequest=pause\n", &c));
    }

    void defaultFolder() {
        QCOMPARE(registryDir(nullptr), "/tmp/strata-attach-" + std::to_string(getuid()));
        QCOMPARE(registryDir(""), "/tmp/strata-attach-" + std::to_string(getuid()));
        QCOMPARE(registryDir("/x/y"), std::string("/x/y"));
    }

    void folderChecks() {
        std::string error;
        const std::string made = tmp_.filePath("made").toStdString();
        QVERIFY(!checkRegistryDir(made, false, &error)); // missing, not to be made
        QVERIFY(checkRegistryDir(made, true, &error));
        struct stat st {};
        QCOMPARE(::stat(made.c_str(), &st), 0);
        QCOMPARE(int(st.st_mode & 0777), 0700);
        ::chmod(made.c_str(), 0750);
        QVERIFY(!checkRegistryDir(made, true, &error));
        QCOMPARE(error, made + ": open to other users (mode 750); it must be 700");
        const std::string link = tmp_.filePath("link").toStdString();
        QCOMPARE(::symlink(made.c_str(), link.c_str()), 0);
        QVERIFY(!checkRegistryDir(link, true, &error));
        QVERIFY(error.find("not a directory") != std::string::npos);
    }

    void staleEntriesRemoved() {
        const std::string dir = freshDir("stale");
        // This process: alive. A pid beyond any pid_max: never a process, stale. This pid with
        // another start time (a pid reused since): stale too.
        WaitingRun me = sample();
        me.pid = getpid();
        me.startTicks = processStartTicks(me.pid);
        QVERIFY(me.startTicks > 0);
        WaitingRun gone = sample();
        gone.pid = 4194305;
        std::string error;
        QVERIFY(writeFileAtomically(runFilePath(dir, me.pid), formatRun(me), &error));
        QVERIFY(writeFileAtomically(runFilePath(dir, gone.pid), formatRun(gone), &error));
        QVERIFY(
            writeFileAtomically(controlFilePath(dir, gone.pid), "seq=1\nrequest=start\n", &error));
        std::vector<int64_t> removed;
        const auto runs = listRuns(dir, &removed);
        QCOMPARE(runs.size(), size_t(1));
        QCOMPARE(runs[0].pid, int64_t(getpid()));
        QCOMPARE(removed, std::vector<int64_t>{4194305});
        QVERIFY(::access(runFilePath(dir, gone.pid).c_str(), F_OK) != 0);
        QVERIFY(::access(controlFilePath(dir, gone.pid).c_str(), F_OK) != 0);

        WaitingRun reused = me;
        reused.startTicks = me.startTicks + 1;
        QVERIFY(!runAlive(reused));
    }

    void unansweredRequestTimesOut() {
        // An entry of this process, which has no collector serving it.
        const std::string dir = freshDir("unanswered");
        WaitingRun me = sample();
        me.pid = getpid();
        me.startTicks = processStartTicks(me.pid);
        me.state = RunState::Waiting;
        me.served = 0;
        std::string error;
        QVERIFY(writeFileAtomically(runFilePath(dir, me.pid), formatRun(me), &error));
        const AttachReply r = requestAttach(dir, me.pid, Request::Start, 100);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.error.find("did not acknowledge the start within 1 s") != std::string::npos,
                 r.error.c_str());
        ControlRequest c;
        std::string text;
        QVERIFY(readSmallFile(controlFilePath(dir, me.pid), &text));
        QVERIFY(parseControl(text, &c));
        QCOMPARE(c.seq, int64_t(1));
        QCOMPARE(c.request, Request::Start);
        // A stop to a process that is not capturing is refused without a request.
        const AttachReply stop = requestAttach(dir, me.pid, Request::Stop, 100);
        QCOMPARE(stop.exitCode, 1);
        QVERIFY2(stop.error.find("is not capturing (it is waiting)") != std::string::npos,
                 stop.error.c_str());
    }

    void processEndsWhileWaited() {
        // A waiting entry for a child that never serves it and ends on its own (unreaped: a
        // zombie is gone too): the request says so, names the trace, and removes the entry.
        const std::string dir = freshDir("ends");
        QProcess child;
        child.start("/bin/sleep", {"0.3"});
        QVERIFY(child.waitForStarted());
        WaitingRun r = sample();
        r.pid = child.processId();
        r.startTicks = processStartTicks(r.pid);
        r.state = RunState::Waiting;
        r.served = 0;
        std::string error;
        QVERIFY(writeFileAtomically(runFilePath(dir, r.pid), formatRun(r), &error));
        const AttachReply reply = requestAttach(dir, r.pid, Request::Start, 60000);
        QCOMPARE(reply.exitCode, 1);
        QCOMPARE(reply.error, "process " + std::to_string(r.pid) +
                                  " ended before it acknowledged the start; its trace: "
                                  "/data/run.strata");
        QVERIFY(::access(runFilePath(dir, r.pid).c_str(), F_OK) != 0);
        QVERIFY(child.waitForFinished());
    }

    void jsonRoundTrip() {
        const nlohmann::json j = waitingRunJson(sample());
        QCOMPARE(j["windows"].dump(), std::string("[[100,200],[300,null]]"));
        QCOMPARE(j["state"].get<std::string>(), std::string("capturing"));
        WaitingRun back;
        QVERIFY(waitingRunFromJson(j, &back));
        QCOMPARE(back.windows, std::string("100-200,300-"));
        QCOMPARE(back.servedNs, int64_t(987654321));
        QCOMPARE(back.trace, std::string("/data/run.strata"));
        QVERIFY(!waitingRunFromJson(nlohmann::json::parse("{\"state\":\"waiting\"}"), &back));
    }
};

STRATA_TEST_GUILESS_MAIN(TestAttachRegistry)
#include "tst_attach_registry.moc"
