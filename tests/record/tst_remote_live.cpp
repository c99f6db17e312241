// A remote run watched live (issue 50): `strata-cli record --remote --live` copies the run's trace
// here as it grows, against an OpenSSH server the test starts on 127.0.0.1. The copy is named on
// stderr as the run starts; it holds the target's records before the target ends; it is removed
// once the run is over and its final trace has come back.
#include "io/trace_loader.h"
#include "model/trace.h"
#include "record/remote_live_copy.h"
#include "support/sshd_fixture.h"
#include "support/test_main.h"
#include "support/trace_counts.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace strata;
using namespace strata::test;

namespace {

const QString kCli = QStringLiteral(STRATA_BINARY_DIR "/app/strata-cli");
const QString kFake = QStringLiteral(STRATA_BINARY_DIR "/tests/record_fake_target");

} // namespace

class TstRemoteLive : public QObject {
    Q_OBJECT
    SshdFixture sshd_;
    QTemporaryDir dir_;

    // strata-cli record's arguments for a run on the test's sshd, into `out`, then `rest`.
    QStringList recordThere(const QString& out, const QStringList& rest) const {
        return QStringList{QStringLiteral("record"), QStringLiteral("--remote"), sshd_.remote()} +
               sshd_.sshOptions() +
               QStringList{QStringLiteral("--remote-dir"), dir_.filePath(QStringLiteral("remote")),
                           QStringLiteral("-o"), out} +
               rest;
    }

private slots:
    void initTestCase() {
        const QString why = sshd_.start();
        QVERIFY2(why.isEmpty(), qPrintable(why));
        sshd_.useStandInCollector();
        QVERIFY(dir_.isValid());
    }

    void liveLineReadBack() {
        QCOMPARE(liveCopyPath(liveCopyLine("/tmp/a b.strata")),
                 std::optional<std::string>("/tmp/a b.strata"));
        QVERIFY(!liveCopyPath("strata-cli record: copied from h: /x"));
    }

    // The stand-in target writes 300 launches, flushes, then waits 60 s before it closes its file:
    // the live copy holds its 300 kernels while it waits; a Stop then ends it all.
    void copiedAsItGrows() {
        const QString out = dir_.filePath(QStringLiteral("live.strata"));
        QProcess p;
        p.start(kCli, recordThere(out, {QStringLiteral("--live"), QStringLiteral("--"), kFake,
                                        QStringLiteral("--launches"), QStringLiteral("300"),
                                        QStringLiteral("--sleep-ms"), QStringLiteral("60000")}));
        QVERIFY(p.waitForStarted());
        QString err, copy;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                err += QString::fromUtf8(p.readAllStandardError());
                for (const QString& line : err.split(QLatin1Char('\n')))
                    if (auto path = liveCopyPath(line.toStdString()))
                        copy = QString::fromStdString(*path);
                return !copy.isEmpty();
            }(),
            60000);
        QCOMPARE(QFileInfo(copy).absolutePath(), QFileInfo(out).absolutePath());
        size_t kernels = 0;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                LoadOptions o;
                o.growing = true;
                const LoadResult r = loadTrace(copy.toStdString(), o);
                kernels = r.trace ? kernelsIn(*r.trace) : 0;
                return kernels == 300;
            }(),
            60000);
        QCOMPARE(p.state(), QProcess::Running); // before the target's end
        // Stopped: the run there ends, its final trace comes back, the live copy goes.
        ::kill(pid_t(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(60000));
        QVERIFY(!QFile::exists(copy));
        const LoadResult final = loadTrace(out.toStdString());
        QVERIFY2(final.trace, qPrintable(err + QString::fromUtf8(p.readAllStandardError())));
        QCOMPARE(kernelsIn(*final.trace), size_t(300));
    }

    // A full disk there: the run's folder on a 512 KiB filesystem that the stand-in target's
    // 20,000 launches overflow. The run ends, its trace comes back with what fit, and the line
    // said here names the full disk (not a stop). Mounting needs root: skipped otherwise.
    void fullDiskThere() {
        const QString runs = dir_.filePath(QStringLiteral("remote/runs"));
        QDir().mkpath(runs);
        QProcess mount;
        mount.start(QStringLiteral("mount"),
                    {QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("-o"),
                     QStringLiteral("size=512k"), QStringLiteral("tmpfs"), runs});
        if (!mount.waitForFinished(30000) || mount.exitCode() != 0)
            QSKIP("mounting a small filesystem needs root: the full disk is not tried here");
        const QString out = dir_.filePath(QStringLiteral("full.strata"));
        QProcess p;
        p.start(kCli, recordThere(out, {QStringLiteral("--"), kFake, QStringLiteral("--launches"),
                                        QStringLiteral("20000")}));
        const bool ended = p.waitForFinished(120000);
        QProcess::execute(QStringLiteral("umount"), {runs});
        QVERIFY(ended);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(err.contains(QStringLiteral("the disk is full")), qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("copied from ")), qPrintable(err));
        const LoadResult back = loadTrace(out.toStdString());
        QVERIFY2(back.trace && back.trace->run(), qPrintable(err));
    }
};

STRATA_TEST_MAIN(TstRemoteLive)
#include "tst_remote_live.moc"
