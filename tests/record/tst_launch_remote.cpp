// The Launch dialog's remote path (issue 50), against a real OpenSSH server the test starts on
// 127.0.0.1 (support/sshd_fixture.h): a configuration with "Run on" set runs the stand-in target
// there through strata-cli record --remote, its output streams into the Console, the trace comes
// back and opens with its run record; Stop ends the remote run (its process group) and the run is
// still recorded; a configuration remembers its host; a malformed host is said in the dialog.
#include "actions/live_feed.h"
#include "actions/profile_controller.h"
#include "io/trace_loader.h"
#include "launch/launch_config.h"
#include "launch/launch_dialog.h"
#include "launch/run_controller.h"
#include "model/run_info.h"
#include "panels/console_panel.h"
#include "support/process_run.h"
#include "support/sshd_fixture.h"
#include "support/test_main.h"
#include "window/main_window.h"

#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <memory>

using namespace strata;
using namespace strata::test;

namespace {

const QString kFake = QStringLiteral(STRATA_BINARY_DIR "/tests/record_fake_target");

} // namespace

class TstLaunchRemote : public QObject {
    Q_OBJECT
    SshdFixture sshd_;
    QTemporaryDir dir_;

    LaunchConfig remoteConfig(const QString& arguments, const QString& output) const {
        LaunchConfig c;
        c.remote = sshd_.remote();
        const QStringList opts = sshd_.sshOptions();
        for (qsizetype i = 1; i < opts.size(); i += 2) c.sshOptions << opts[i];
        c.remoteDir = dir_.filePath(QStringLiteral("remote"));
        c.executable = kFake;
        c.arguments = arguments;
        c.output = dir_.filePath(output);
        return c;
    }
    QStringList runFolders() const {
        return QDir(dir_.filePath(QStringLiteral("remote/runs")))
            .entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        QVERIFY(dir_.isValid());
        const QString why = sshd_.start();
        QVERIFY2(why.isEmpty(), qPrintable(why));
        sshd_.useStandInCollector();
        qputenv("STRATA_CLI", STRATA_BINARY_DIR "/app/strata-cli");
    }

    void runsThereAndOpensTheTrace() {
        MainWindow w(MainWindow::Options{.restoreSettings = false});
        ProfileController* p = w.profile();
        p->sameWindowOnly = true;
        QSignalSpy finished(p, &ProfileController::runFinished);
        QString error;
        QVERIFY2(p->launch(remoteConfig(QStringLiteral("--chatter 2 --exit 3"),
                                        QStringLiteral("gui.strata")),
                           &error),
                 qPrintable(error));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        const QStringList files = finished.at(0).at(0).toStringList();
        QCOMPARE(files, QStringList{dir_.filePath(QStringLiteral("gui.strata"))});
        auto* console = w.findChild<ConsolePanel*>();
        const QString shown = console->shownText();
        for (const char* line : {"out 0", "out 1", "err 0", "err 1", "copied from "})
            QVERIFY2(shown.contains(QLatin1String(line)), qPrintable(shown));
        QVERIFY2(console->statusText().contains(QStringLiteral("exited with code 3")),
                 qPrintable(console->statusText()));
        QTRY_VERIFY_WITH_TIMEOUT(w.trace() != nullptr, 60000);
        QVERIFY(w.trace()->run());
        QCOMPARE(w.trace()->run()->exitCode, std::optional<int>(3));
        QVERIFY(runFolders().isEmpty()); // the remote copy removed
    }

    void stopEndsTheRemoteRun() {
        MainWindow w(MainWindow::Options{.restoreSettings = false});
        ProfileController* p = w.profile();
        p->sameWindowOnly = true;
        QSignalSpy finished(p, &ProfileController::runFinished);
        QString error;
        LaunchConfig c =
            remoteConfig(QStringLiteral("--sleep-ms 60000"), QStringLiteral("stopped.strata"));
        c.keepRemote = true;
        QVERIFY2(p->launch(c, &error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(!runFolders().isEmpty(), 30000); // running there
        p->stop();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(w.trace() != nullptr, 60000);
        QCOMPARE(w.trace()->run()->signal, std::optional<int>(SIGINT));
        QVERIFY(::kill(pid_t(w.trace()->run()->pid), 0) != 0); // gone there
        QCOMPARE(runFolders().size(), 1);                      // kept, as asked
    }

    // Drawn live while it runs there, from its copy here (record/remote_live_copy.h); a Stop,
    // then the final trace replaces the live one.
    void drawnLiveWhileItRunsThere() {
        MainWindow w(MainWindow::Options{.restoreSettings = false});
        ProfileController* p = w.profile();
        p->sameWindowOnly = true;
        QSignalSpy finished(p, &ProfileController::runFinished);
        LaunchConfig c = remoteConfig(QStringLiteral("--launches 200 --sleep-ms 60000"),
                                      QStringLiteral("live.strata"));
        c.live = true;
        QString error;
        QVERIFY2(p->launch(c, &error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(p->live()->pictures() >= 1 && w.trace() &&
                                     w.trace()->sliceCount() == 400,
                                 60000); // 200 launches and their kernels
        QVERIFY(p->running());
        const QStringList copy = p->runner()->traceFilesSoFar();
        QCOMPARE(copy.size(), 1);
        QVERIFY(QFile::exists(copy.front()));
        QCOMPARE(p->live()->behindMs(), qint64(-1)); // another machine's clock, in principle
        p->stop();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(w.trace() && w.trace()->run(), 60000);
        QCOMPARE(w.trace()->sliceCount(), size_t(400));
        QVERIFY(!QFile::exists(copy.front()));
    }

    // Closing the window during a run there may leave it running: this side ends at once, the
    // run goes on to its end there, and --fetch with the id the question named brings its trace.
    void closedWindowLeavesItRunning() {
        auto w = std::make_unique<MainWindow>(MainWindow::Options{.restoreSettings = false});
        w->setAttribute(Qt::WA_DeleteOnClose, false);
        w->show();
        ProfileController* p = w->profile();
        int asked = 0;
        p->askRemoteClose = [&] {
            ++asked;
            return ProfileController::RemoteClose::LeaveRunning;
        };
        LaunchConfig c =
            remoteConfig(QStringLiteral("--sleep-ms 3000 --exit 5"), QStringLiteral("left.strata"));
        QString error;
        QVERIFY2(p->launch(c, &error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(!p->runner()->remoteRunId().isEmpty(), 60000);
        const QString run = p->runner()->remoteRunId();
        w->close();
        QCOMPARE(asked, 1);
        QTRY_VERIFY_WITH_TIMEOUT(!p->running() && !w->isVisible(), 30000);
        QVERIFY(runFolders().contains(run)); // going on there
        const QString out = dir_.filePath(QStringLiteral("left.strata"));
        QVERIFY(!QFile::exists(out));
        const QStringList fetch =
            QStringList{QStringLiteral("record"), QStringLiteral("--remote"), sshd_.remote()} +
            sshd_.sshOptions() +
            QStringList{QStringLiteral("--remote-dir"), dir_.filePath(QStringLiteral("remote")),
                        QStringLiteral("--fetch"),      run,
                        QStringLiteral("-o"),           out};
        CliRun fetched = runCli(fetch);
        for (int i = 0; i < 120 && fetched.exitCode != 5; ++i) { // until it has ended there
            QTest::qWait(500);
            fetched = runCli(fetch);
        }
        QVERIFY2(fetched.exitCode == 5, qPrintable(fetched.err));
        const LoadResult back = loadTrace(out.toStdString());
        QVERIFY2(back.trace && back.trace->run(), qPrintable(fetched.err));
        QCOMPARE(back.trace->run()->exitCode, std::optional<int>(5)); // it ran to its end
    }

    void dialogRemembersTheHost() {
        LaunchConfig c = remoteConfig(QString(), QStringLiteral("x.strata"));
        c.name = QStringLiteral("on the lab machine");
        c.keepRemote = true;
        LaunchConfigStore::save(c);
        LaunchConfig back;
        QVERIFY(LaunchConfigStore::load(c.name, &back));
        QCOMPARE(back.remote, c.remote);
        QCOMPARE(back.sshOptions, c.sshOptions);
        QCOMPARE(back.remoteDir, c.remoteDir);
        QVERIFY(back.keepRemote);
        LaunchDialog dialog;
        dialog.setConfig(back);
        QCOMPARE(dialog.config().remote, c.remote);
        QCOMPARE(dialog.config().sshOptions, c.sshOptions);
        // A program that is not here is fine for a run there; a malformed host is not.
        auto* host = dialog.findChild<QLineEdit*>(QStringLiteral("remoteHost"));
        auto* exe = dialog.findChild<QComboBox*>(QStringLiteral("executable"));
        exe->setCurrentText(QStringLiteral("/opt/only-there/train"));
        QVERIFY(checkLaunchConfig(dialog.config()).ok());
        host->setText(QStringLiteral("lab:99999"));
        const LaunchProblems problems = checkLaunchConfig(dialog.config());
        QVERIFY2(problems.remote.contains(QStringLiteral("the port is not 1..65535")),
                 qPrintable(problems.remote));
        QVERIFY(dialog.findChild<QLabel*>(QStringLiteral("remoteError"))->isVisibleTo(&dialog));
        LaunchConfigStore::remove(c.name);
    }
};

STRATA_TEST_MAIN(TstLaunchRemote)
#include "tst_launch_remote.moc"
