// Attaching to a run in progress (issue 50): the stand-in CUPTI harness runs under `strata-cli
// record --wait-for-attach`, feeding a kernel every 2 ms on the collector's clock, and this test
// starts and stops its capture with `strata-cli attach`. What must hold: the trace keeps only the
// kernels that started between a start's acknowledgement and its stop's (two sessions), although
// kernels were fed before, between and after them; CUPTI's kernel activity is off while nothing
// is captured; the entry goes when the process ends; and each fault is said: a process that does
// not wait, one that is gone, a folder others may enter. Waits are for events, never for a time
// (the bounds are only there so that nothing hangs).
#ifndef STRATA_CLI // a build without strata-cli: nothing to attach with
#define STRATA_CLI ""
#define STRATA_NO_CLI 1
#endif
#include "support/attach_fixture.h"
#include "support/test_main.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <csignal>
#include <sys/stat.h>

using namespace strata::test;

class TestAttach : public QObject, public CollectorFiles {
    Q_OBJECT
    QProcessEnvironment env_;
    QString attachDir_;

    ProcessRun attachCli(const QStringList& args) const {
        return strata::test::runProcess(STRATA_CLI, QStringList{"attach"} + args, env_, 60000);
    }
    QJsonObject attachJson(const QStringList& args) const {
        const ProcessRun r = attachCli(args + QStringList{"--json"});
        if (r.exitCode != 0) qWarning("attach %s: %s", qPrintable(args.join(' ')), r.err.data());
        return QJsonDocument::fromJson(r.out).object();
    }
    void startTarget(QProcess& cli, const QString& file, const QString& endFile) const {
        startWaitingHarness(cli, file, endFile, env_);
    }
    // The pid of the one program waiting in the test's folder (60 s at most).
    qint64 waitingPid() const {
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() < 60000) {
            const QJsonArray runs = attachJson({"--list"})["runs"].toArray();
            if (runs.size() == 1) return qint64(runs[0].toObject()["pid"].toDouble());
            QTest::qWait(20);
        }
        return 0;
    }

private slots:
    void initTestCase() {
#ifdef STRATA_NO_CLI
        QSKIP("strata-cli is not built in this configuration");
#endif
        QVERIFY(dir_.isValid());
        attachDir_ = path("attach");
        env_ = QProcessEnvironment::systemEnvironment();
        env_.insert("STRATA_ATTACH_DIR", attachDir_);
    }

    void capturesOnlyBetweenStartAndStop();
    void notWaitingNorRunning();
    void processGone();
    void folderOpenToOthersRefused();
    void usageErrors();
};

void TestAttach::capturesOnlyBetweenStartAndStop() {
    const QString file = path("attach.strata"), endFile = path("attach.end");
    QProcess cli;
    startTarget(cli, file, endFile);
    QVERIFY(cli.waitForStarted());
    QByteArray out;
    AttachTick tick;
    // Fed while waiting: nothing captured, CUPTI's kernel activity off.
    QVERIFY(waitForTick(cli, out, &tick, [](const AttachTick&) { return true; }));
    QCOMPARE(tick.enabled, 0);
    const qint64 firstFed = tick.t;

    const qint64 pid = waitingPid();
    QVERIFY(pid > 0);
    const QJsonArray runs = attachJson({"--list"})["runs"].toArray();
    QCOMPARE(runs[0].toObject()["state"].toString(), QString("waiting"));
    QCOMPARE(runs[0].toObject()["trace"].toString(), QFileInfo(file).canonicalFilePath());
    QVERIFY(runs[0].toObject()["command"].toString().contains("collector_harness attach"));
    const ProcessRun text = attachCli({"--list"});
    QCOMPARE(text.exitCode, 0);
    QVERIFY(text.out.contains(QByteArray::number(pid) + " "));

    qint64 windows[2][2] = {};
    for (auto& w : windows) {
        const QJsonObject started = attachJson({"--start", QString::number(pid)});
        QCOMPARE(started["state"].toString(), QString("capturing"));
        w[0] = qint64(started["served_ns"].toDouble());
        QVERIFY(w[0] > firstFed);
        // A kernel fed after the window opened, with the activity on.
        QVERIFY(waitForTick(cli, out, &tick,
                            [&](const AttachTick& k) { return k.t > w[0] && k.enabled == 1; }));
        const QJsonObject again = attachJson({"--start", QString::number(pid)});
        QCOMPARE(again["note"].toString(), QString("already capturing"));

        const QJsonObject stopped = attachJson({"--stop", QString::number(pid)});
        QCOMPARE(stopped["state"].toString(), QString("stopped"));
        QCOMPARE(stopped["trace"].toString(), QFileInfo(file).canonicalFilePath());
        w[1] = qint64(stopped["served_ns"].toDouble());
        QVERIFY(w[1] > w[0]);
        // A kernel fed after the window closed, with the activity off again.
        QVERIFY(waitForTick(cli, out, &tick,
                            [&](const AttachTick& k) { return k.t > w[1] && k.enabled == 0; }));
        const ProcessRun twice = attachCli({"--stop", QString::number(pid)});
        QCOMPARE(twice.exitCode, 1);
        QVERIFY2(twice.err.contains("is not capturing"), twice.err.data());
    }
    const QJsonArray listed =
        attachJson({"--list"})["runs"].toArray()[0].toObject()["windows"].toArray();
    QCOMPARE(listed.size(), qsizetype(2));

    QFile end(endFile);
    QVERIFY(end.open(QIODevice::WriteOnly));
    end.close();
    QVERIFY(cli.waitForFinished(60000));
    QCOMPARE(cli.exitCode(), 0);
    out += cli.readAllStandardOutput();
    const auto [fed, lastFed] = harnessFed(out);
    QVERIFY(lastFed > windows[1][1]); // kernels were fed after the last stop
    // The process has ended: its entry went with it.
    QCOMPARE(QDir(attachDir_).entryList({"*.run", "*.control"}, QDir::Files).size(), qsizetype(0));

    auto t = load(file);
    QVERIFY(t);
    QVERIFY(qint64(slicesNamed(*t, "attach_k").size()) < fed);
    const auto kept = keptPerWindow(
        *t, "attach_k", {{windows[0][0], windows[0][1]}, {windows[1][0], windows[1][1]}});
    QCOMPARE(kept.size(), size_t(2)); // none outside
    QVERIFY(kept[0] > 0);
    QVERIFY(kept[1] > 0);
    QCOMPARE(meta(*t, "attach"), QString("wait-for-attach"));
    QCOMPARE(meta(*t, "attach_windows"), QString("%1-%2,%3-%4")
                                             .arg(windows[0][0])
                                             .arg(windows[0][1])
                                             .arg(windows[1][0])
                                             .arg(windows[1][1]));
    QVERIFY(!hasWarning(*t, "no end-of-file record"));
}

void TestAttach::notWaitingNorRunning() {
    // This test's own process runs but waits for nothing.
    const ProcessRun mine =
        attachCli({"--start", QString::number(QCoreApplication::applicationPid())});
    QCOMPARE(mine.exitCode, 1);
    QVERIFY2(mine.err.contains("does not wait for attach"), mine.err.data());
    // A pid nothing runs as.
    const ProcessRun none = attachCli({"--stop", "4194305"}); // above any pid_max
    QCOMPARE(none.exitCode, 1);
    QVERIFY2(none.err.contains("no process 4194305 runs here"), none.err.data());
}

void TestAttach::processGone() {
    const QString file = path("gone.strata"), endFile = path("gone.end");
    QProcess cli;
    startTarget(cli, file, endFile);
    QVERIFY(cli.waitForStarted());
    QByteArray out;
    AttachTick tick;
    QVERIFY(waitForTick(cli, out, &tick, [](const AttachTick&) { return true; }));
    const qint64 pid = waitingPid();
    QVERIFY(pid > 0);
    QCOMPARE(::kill(pid_t(pid), SIGKILL), 0); // no exit path runs: its entry stays behind
    QVERIFY(cli.waitForFinished(60000));
    QVERIFY(QFile::exists(QString("%1/%2.run").arg(attachDir_).arg(pid)));
    const ProcessRun r = attachCli({"--start", QString::number(pid)});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QString("process %1 has ended").arg(pid).toUtf8()), r.err.data());
    QVERIFY(r.err.contains(QFileInfo(file).canonicalFilePath().toUtf8()));
    QVERIFY(!QFile::exists(QString("%1/%2.run").arg(attachDir_).arg(pid)));
    QCOMPARE(attachJson({"--list"})["runs"].toArray().size(), qsizetype(0));
}

void TestAttach::folderOpenToOthersRefused() {
    const QString open = path("open");
    QVERIFY(QDir().mkpath(open));
    QCOMPARE(::chmod(QFile::encodeName(open).constData(), 0755), 0);
    QProcessEnvironment e = env_;
    e.insert("STRATA_ATTACH_DIR", open);
    const ProcessRun r = strata::test::runProcess(STRATA_CLI, {"attach", "--list"}, e, 60000);
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("open to other users (mode 755)"), r.err.data());
}

void TestAttach::usageErrors() {
    QCOMPARE(attachCli({}).exitCode, 2);
    QCOMPARE(attachCli({"--list", "--start", "5"}).exitCode, 2);
    QCOMPARE(attachCli({"--start", "x"}).exitCode, 2);
    QCOMPARE(attachCli({"--stop", "5", "-o", path("x.strata")}).exitCode, 2); // -o: remote only
    // record: Python sampling is not gated by attach sessions, so it is refused with them.
    const ProcessRun py = strata::test::runProcess(
        STRATA_CLI, {"record", "--wait-for-attach", "--python", "sample", "--", "/bin/true"}, env_,
        60000);
    QCOMPARE(py.exitCode, 2);
    QVERIFY2(py.err.contains("--wait-for-attach gates CUDA's records only"), py.err.data());
}

STRATA_TEST_GUILESS_MAIN(TestAttach)
#include "tst_attach.moc"
