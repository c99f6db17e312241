// strata-cli attach --remote (issue 50) against a real OpenSSH server on 127.0.0.1 started by the
// test (support/sshd_fixture.h): the stand-in CUPTI harness waits under `strata-cli record
// --wait-for-attach` on "the host" (this machine, in the default attach folder, which ssh's
// session finds too), and --list, --start and --stop reach it through the strata-cli copied
// there; --stop -o brings the trace back as it stands, while the program goes on, holding only
// the window's kernels. Faults: a pid that does not wait there, a port nothing listens on.
#ifndef STRATA_CLI // a build without strata-cli: nothing to attach with
#define STRATA_CLI ""
#define STRATA_NO_CLI 1
#endif
#include "support/attach_fixture.h"
#include "support/sshd_fixture.h"
#include "support/test_main.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace strata::test;

class TestAttachRemote : public QObject, public CollectorFiles {
    Q_OBJECT
    SshdFixture sshd_;

    ProcessRun remoteAttach(const QStringList& args, const QString& remote = {}) const {
        const QStringList all =
            QStringList{"attach", "--remote", remote.isEmpty() ? sshd_.remote() : remote} +
            sshd_.sshOptions() + QStringList{"--remote-dir", path("remote")} + args;
        return runProcess(STRATA_CLI, all, QProcessEnvironment::systemEnvironment(), 120000);
    }
    QJsonObject remoteJson(const QStringList& args) const {
        const ProcessRun r = remoteAttach(args + QStringList{"--json"});
        if (r.exitCode != 0)
            qWarning("attach --remote %s: %s", qPrintable(args.join(' ')), r.err.data());
        return QJsonDocument::fromJson(r.out).object();
    }

private slots:
    void initTestCase() {
#ifdef STRATA_NO_CLI
        QSKIP("strata-cli is not built in this configuration");
#endif
        QVERIFY(dir_.isValid());
        const QString why = sshd_.start();
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    void startAndStopThere() {
        const QString file = path("there.strata"), endFile = path("there.end");
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove("STRATA_ATTACH_DIR"); // the default folder, as an ssh session has it
        QProcess cli;
        startWaitingHarness(cli, file, endFile, env);
        QVERIFY(cli.waitForStarted());
        QByteArray out;
        AttachTick tick;
        QVERIFY(waitForTick(cli, out, &tick, [](const AttachTick&) { return true; }));
        const qint64 firstFed = tick.t;

        // Listed there (among other waiting programs this user may have): by its trace.
        qint64 pid = 0;
        const QString trace = QFileInfo(file).canonicalFilePath();
        const QJsonObject listed = remoteJson({"--list"});
        QCOMPARE(listed["host"].toString(), sshd_.remote());
        for (const auto& r : listed["runs"].toArray())
            if (r.toObject()["trace"].toString() == trace)
                pid = qint64(r.toObject()["pid"].toDouble());
        QVERIFY(pid > 0);

        const QJsonObject started = remoteJson({"--start", QString::number(pid)});
        QCOMPARE(started["state"].toString(), QString("capturing"));
        const qint64 s = qint64(started["served_ns"].toDouble());
        QVERIFY(s > firstFed);
        QVERIFY(waitForTick(cli, out, &tick,
                            [&](const AttachTick& k) { return k.t > s && k.enabled == 1; }));
        const QString copy = path("copy.strata");
        const QJsonObject stopped = remoteJson({"--stop", QString::number(pid), "-o", copy});
        QCOMPARE(stopped["state"].toString(), QString("stopped"));
        QCOMPARE(stopped["trace"].toString(), trace);
        QCOMPARE(stopped["copied_to"].toString(), copy);
        const qint64 e = qint64(stopped["served_ns"].toDouble());
        QVERIFY(waitForTick(cli, out, &tick,
                            [&](const AttachTick& k) { return k.t > e && k.enabled == 0; }));

        // The copy, taken while the program goes on: the window's kernels, nothing else.
        auto copied = load(copy);
        QVERIFY(copied);
        const auto inCopy = keptPerWindow(*copied, "attach_k", {{s, e}});
        QCOMPARE(inCopy.size(), size_t(1));
        QVERIFY(inCopy[0] > 0);

        QFile end(endFile);
        QVERIFY(end.open(QIODevice::WriteOnly));
        end.close();
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 0);
        auto t = load(file);
        QVERIFY(t);
        const auto kept = keptPerWindow(*t, "attach_k", {{s, e}});
        QCOMPARE(kept.size(), size_t(1));
        // At least what the copy held: a kernel stamped before the stop but handed to CUPTI
        // after its flush (in flight, as on a GPU) reaches the file later.
        QVERIFY(kept[0] >= inCopy[0]);
    }

    void faultsThere() {
        const ProcessRun mine =
            remoteAttach({"--start", QString::number(QCoreApplication::applicationPid())});
        QCOMPARE(mine.exitCode, 1);
        QVERIFY2(mine.err.contains("does not wait for attach"), mine.err.data());
        QVERIFY2(mine.err.contains(("(on " + sshd_.remote() + ")").toUtf8()), mine.err.data());
        // A port nothing listens on: ssh's own failure, said in a line.
        const ProcessRun unreachable = remoteAttach({"--list"}, sshd_.user() + "@127.0.0.1:1");
        QCOMPARE(unreachable.exitCode, 255);
        QVERIFY2(unreachable.err.contains("cannot reach"), unreachable.err.data());
    }
};

STRATA_TEST_GUILESS_MAIN(TestAttachRemote)
#include "tst_attach_remote.moc"
