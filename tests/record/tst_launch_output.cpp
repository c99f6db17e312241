// Where a launch from the GUI writes (issue 44): the default output is the folder the run works
// in, never the program's own (a launch of /bin/sh wrote /bin/sh-….strata, a Python shim its
// folder); an output folder no file can be created in is refused before the target starts, by the
// dialog's checks and by the launcher itself. The target is /bin/sh; the launcher injects a
// stand-in collector file (sh never loads CUDA), so the run's one trace is the run-only one.
#include "actions/profile_controller.h"
#include "launch/launch_config.h"
#include "launch/run_controller.h"
#include "support/test_files.h"
#include "support/test_main.h"
#include "window/main_window.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace strata;

namespace {

MainWindow::Options testOptions() {
    MainWindow::Options o;
    o.restoreSettings = false;
    return o;
}

} // namespace

class TestLaunchOutput : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        test::standInCollectorFile(dir_.path().toStdString());
    }

    void aLaunchOfBinShWritesInTheRunsWorkingDirectory() {
        // Issue 44: the default output is the folder the run works in, never the program's own
        // (/bin/sh wrote /bin/sh-….strata; a Python shim its folder). sh writes no trace of its
        // own, so the launcher's run-only trace is the run's one file.
        const auto binEntries = [] {
            return QDir(QStringLiteral("/bin"))
                .entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
        };
        const QStringList binBefore = binEntries();
        QTemporaryDir strataDir, workDir;
        QVERIFY(strataDir.isValid() && workDir.isValid());
        const QString strataCwd = QDir(strataDir.path()).canonicalPath();
        const QString runCwd = QDir(workDir.path()).canonicalPath();
        const QString before = QDir::currentPath();
        QVERIFY(QDir::setCurrent(strataCwd));
        LaunchConfig c;
        c.executable = QStringLiteral("/bin/sh");
        c.arguments = QStringLiteral("-c 'exit 0'");
        QCOMPARE(defaultOutputTemplate(c), strataCwd + "/sh-{time}-{host}-{pid}.strata");
        c.executable = QStringLiteral("sh"); // found in PATH: still not beside it
        QCOMPARE(defaultOutputTemplate(c), strataCwd + "/sh-{time}-{host}-{pid}.strata");
        c.executable = QStringLiteral("/bin/sh");
        for (const QString& cwd : {QString(), runCwd}) {
            c.workingDirectory = cwd;
            const QString expectedDir = cwd.isEmpty() ? strataCwd : runCwd;
            MainWindow w(testOptions());
            ProfileController* p = w.profile();
            QSignalSpy finished(p, &ProfileController::runFinished);
            QString error;
            QVERIFY2(p->launch(c, &error), qPrintable(error));
            QVERIFY(finished.wait(20000));
            const QStringList files = finished.first().at(0).toStringList();
            QCOMPARE(files.size(), 1);
            QVERIFY(finished.first().at(1).toBool()); // the run-only trace
            QCOMPARE(QFileInfo(files.front()).canonicalPath(), expectedDir);
            QVERIFY2(QFileInfo(files.front()).fileName().startsWith(QStringLiteral("sh-")),
                     qPrintable(files.front()));
            QVERIFY2(files.front().endsWith(QStringLiteral(".strata")), qPrintable(files.front()));
        }
        QVERIFY(QDir::setCurrent(before));
        QCOMPARE(binEntries(), binBefore); // nothing written into /bin
    }

    void anUnwritableOutputFolderIsRefusedBeforeTheTargetStarts() {
        // A folder no file can be created in: a 0555 one for a user; for root (whom permission
        // bits never stop) a sysfs folder, which refuses new files to everyone.
        const QString locked = dir_.filePath(QStringLiteral("locked-output"));
        QVERIFY(QDir().mkpath(locked));
        ::chmod(QFile::encodeName(locked).constData(), 0555);
        QString unwritable = locked;
        if (::access(QFile::encodeName(locked).constData(), W_OK) == 0) {
            unwritable = QStringLiteral("/sys/kernel");
            QFile probe(unwritable + QStringLiteral("/strata-probe"));
            if (!QFileInfo(unwritable).isDir() || probe.open(QIODevice::WriteOnly)) {
                probe.remove();
                QSKIP("no folder here refuses this user new files");
            }
        }
        const QString marker = dir_.filePath(QStringLiteral("target-started"));
        LaunchConfig c;
        c.executable = QStringLiteral("/bin/sh");
        c.arguments = QStringLiteral("-c 'touch %1'").arg(marker);
        for (bool asWorkingDirectory : {false, true}) {
            // An output path in it, or (no output given) a working directory that is it.
            c.output =
                asWorkingDirectory ? QString() : unwritable + QStringLiteral("/t-{pid}.strata");
            c.workingDirectory = asWorkingDirectory ? unwritable : QString();
            const QString problem = checkLaunchConfig(c).output;
            QVERIFY2(problem.startsWith(
                         QStringLiteral("Output folder %1 is not writable (").arg(unwritable)),
                     qPrintable(problem));
            MainWindow w(testOptions());
            ProfileController* p = w.profile();
            QString error;
            QVERIFY(!p->launch(c, &error));
            QCOMPARE(error, problem);
            QVERIFY(!p->running());
            // The launcher refuses it too, for a caller that skipped the dialog's checks.
            RecordOptions o;
            QVERIFY2(toRecordOptions(c, QDateTime::currentDateTime(), &o, &error),
                     qPrintable(error));
            RunController r;
            QVERIFY(!r.start(o, &error));
            QVERIFY2(error.startsWith(
                         QStringLiteral("output folder %1 is not writable: ").arg(unwritable)),
                     qPrintable(error));
            QVERIFY(!r.running());
        }
        QTest::qWait(300);
        QVERIFY(!QFile::exists(marker)); // the target never started
        ::chmod(QFile::encodeName(locked).constData(), 0755);
    }
};

STRATA_TEST_MAIN(TestLaunchOutput)
#include "tst_launch_output.moc"
