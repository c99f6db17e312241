// Profiling from the GUI (issue 15), on the offscreen platform with small non-CUDA helper
// programs (tests/record_fake_target): launch configurations and their checks, the console
// (content, order, a flood that must not freeze the window), Stop's escalation and its timing,
// the errors, the round trip into the trace with Trace Info, and quitting while a program runs.
#include "actions/profile_controller.h"
#include "launch/launch_config.h"
#include "launch/launch_dialog.h"
#include "launch/run_controller.h"
#include "panels/console_panel.h"
#include "panels/trace_info_panel.h"
#include "support/test_files.h"
#include "support/test_main.h"
#include "window/main_window.h"
#include "window/message_banner.h"
#include "window/window_pages.h"
#include "window/window_status.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QtTest>

#include <csignal>
#include <cstdlib>
#include <sys/stat.h>
#include <unistd.h>

using namespace strata;

namespace {

const QString kFake = QStringLiteral(STRATA_BINARY_DIR "/tests/record_fake_target");

MainWindow::Options testOptions() {
    MainWindow::Options o;
    o.restoreSettings = false;
    return o;
}

} // namespace

class TestLaunch : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString fakeCollector_;

    LaunchConfig fake(const QString& args, const QString& prefix) {
        LaunchConfig c;
        c.executable = kFake;
        c.arguments = args;
        c.output = dir_.filePath(prefix + QStringLiteral("-{pid}.strata"));
        return c;
    }
    // Runs `c` in a RunController until it ends (at most `ms`).
    bool runToEnd(RunController& r, ConsolePanel& console, const LaunchConfig& c, int ms = 20000) {
        RecordOptions o;
        QString error;
        if (!toRecordOptions(c, QDateTime::currentDateTime(), &o, &error)) {
            qWarning("%s", qPrintable(error));
            return false;
        }
        QObject::connect(&r, &RunController::output, &console, &ConsolePanel::append);
        console.begin(QStringLiteral("test"));
        if (!r.start(o, &error)) {
            qWarning("%s", qPrintable(error));
            return false;
        }
        QSignalSpy done(&r, &RunController::finished);
        const bool ok = done.wait(ms) || done.count() == 1;
        console.end(QStringLiteral("ended"));
        return ok;
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        // The launcher needs a collector file to inject; the fake target never loads CUDA.
        fakeCollector_ =
            QString::fromStdString(test::standInCollectorFile(dir_.path().toStdString()));
    }

    void configurationsRoundTrip() {
        QSettings().clear();
        LaunchConfig a = fake(QStringLiteral("--exit 3 'a b'"), QStringLiteral("cfg"));
        a.name = QStringLiteral("train");
        a.environment = QStringLiteral("A=1\nB=two words");
        a.unset = {QStringLiteral("PYTHONPATH")};
        a.capture = {QStringLiteral("api"), QStringLiteral("kernels")}; // the dialog's order
        a.wait = 1;
        a.warmup = 1;
        a.active = 2;
        a.repeat = 1;
        a.stepName = QStringLiteral("ProfilerStep");
        a.durationS = 12.5;
        a.flushMs = 100;
        LaunchConfigStore::save(a);
        LaunchConfig b;
        QVERIFY(LaunchConfigStore::load(QStringLiteral("train"), &b));
        QCOMPARE(b, a);
        QCOMPARE(LaunchConfigStore::copyName(QStringLiteral("train")),
                 QStringLiteral("train (copy)"));
        b.name = LaunchConfigStore::copyName(QStringLiteral("train"));
        LaunchConfigStore::save(b);
        QCOMPARE(LaunchConfigStore::copyName(QStringLiteral("train")),
                 QStringLiteral("train (copy 2)"));
        QCOMPARE(LaunchConfigStore::names(), (QStringList{"train", "train (copy)"}));
        QVERIFY(
            !LaunchConfigStore::rename(QStringLiteral("train (copy)"), QStringLiteral("train")));
        QVERIFY(LaunchConfigStore::rename(QStringLiteral("train (copy)"), QStringLiteral("eval")));
        QCOMPARE(LaunchConfigStore::names(), (QStringList{"eval", "train"}));
        LaunchConfigStore::remove(QStringLiteral("train"));
        QCOMPARE(LaunchConfigStore::names(), QStringList{"eval"});
        LaunchConfig last;
        QVERIFY(!LaunchConfigStore::last(&last));
        LaunchConfigStore::setLast(a);
        QVERIFY(LaunchConfigStore::last(&last));
        QCOMPARE(last, a);
        // The dialog shows and gives back the same configuration.
        LaunchDialog d;
        d.setConfig(a);
        QCOMPARE(d.config(), a);
    }

    void recordOptionsFromAConfiguration() {
        LaunchConfig c =
            fake(QStringLiteral("--name \"x y\" '' \\$HOME"), QStringLiteral("ro-{time}"));
        c.environment = QStringLiteral("A=1\n\n  B=x=y  \n");
        RecordOptions o;
        QString error;
        QVERIFY2(toRecordOptions(c, QDateTime(QDate(2026, 11, 23), QTime(21, 4, 5)), &o, &error),
                 qPrintable(error));
        QCOMPARE(o.command,
                 (std::vector<std::string>{kFake.toStdString(), "--name", "x y", "", "$HOME"}));
        QCOMPARE(o.output, dir_.filePath("ro-20261123-210405-{pid}.strata").toStdString());
        QCOMPARE(o.extraEnvironment.size(), size_t(2));
        QCOMPARE(o.extraEnvironment[1].first, std::string("B"));
        QCOMPARE(o.extraEnvironment[1].second, std::string("x=y"));
        QVERIFY(o.captureOutput);
        QVERIFY(o.inject);
    }

    void dialogChecksAsTheUserTypes() {
        LaunchDialog d;
        auto* exe = d.findChild<QComboBox*>(QStringLiteral("executable"));
        auto* args = d.findChild<QLineEdit*>(QStringLiteral("arguments"));
        auto* exeError = d.findChild<QLabel*>(QStringLiteral("executableError"));
        auto* argsError = d.findChild<QLabel*>(QStringLiteral("argumentsError"));
        auto* outError = d.findChild<QLabel*>(QStringLiteral("outputError"));
        auto* output = d.findChild<QLineEdit*>(QStringLiteral("output"));
        QVERIFY(exe && args && exeError && argsError && outError && output);
        QVERIFY(!d.runButton()->isEnabled()); // nothing chosen yet

        exe->setCurrentText(dir_.filePath(QStringLiteral("missing-program")));
        QVERIFY(!d.runButton()->isEnabled());
        QVERIFY2(exeError->text().contains(QStringLiteral("no such file")),
                 qPrintable(exeError->text()));

        const QString plain = dir_.filePath(QStringLiteral("plain.txt"));
        QFile(plain).open(QIODevice::WriteOnly);
        exe->setCurrentText(plain);
        QVERIFY2(exeError->text().contains(QStringLiteral("not executable")),
                 qPrintable(exeError->text()));
        exe->setCurrentText(dir_.path());
        QVERIFY2(exeError->text().contains(QStringLiteral("is a folder")),
                 qPrintable(exeError->text()));
        exe->setCurrentText(QStringLiteral("no-such-command-strata-test"));
        QVERIFY2(exeError->text().contains(QStringLiteral("command not found")),
                 qPrintable(exeError->text()));

        exe->setCurrentText(kFake);
        output->setText(dir_.filePath(QStringLiteral("d-{pid}.strata")));
        QVERIFY2(d.runButton()->isEnabled(), qPrintable(d.problems().first()));
        QVERIFY(exeError->isHidden());

        args->setText(QStringLiteral("--exit 3 'a b' \"c"));
        QVERIFY(!d.runButton()->isEnabled());
        QVERIFY2(argsError->text().contains(QStringLiteral("double quote")),
                 qPrintable(argsError->text()));
        args->setText(QStringLiteral("--exit 3 'a b' ''"));
        QVERIFY(d.runButton()->isEnabled());
        QCOMPARE(d.argvPreview(),
                 QStringLiteral("argv: [0] %1  [1] --exit  [2] 3  [3] 'a b'  [4] ''").arg(kFake));

        output->setText(dir_.filePath(QStringLiteral("no-such-folder/t-{pid}.strata")));
        QVERIFY(!d.runButton()->isEnabled());
        QVERIFY2(outError->text().contains(QStringLiteral("does not exist")),
                 qPrintable(outError->text()));

        // A folder this user cannot write to (root writes everywhere: only a read-only one).
        const QString locked = dir_.filePath(QStringLiteral("locked"));
        QVERIFY(QDir().mkpath(locked));
        ::chmod(QFile::encodeName(locked).constData(), 0555);
        output->setText(locked + QStringLiteral("/t-{pid}.strata"));
        if (::access(QFile::encodeName(locked).constData(), W_OK) == 0) {
            qInfo("running as root: a 0555 folder is writable, the unwritable case is not checked");
        } else {
            QVERIFY(!d.runButton()->isEnabled());
            QVERIFY2(outError->text().contains(QStringLiteral("not writable")),
                     qPrintable(outError->text()));
        }
        ::chmod(QFile::encodeName(locked).constData(), 0755);
        output->setText(dir_.filePath(QStringLiteral("d-{pid}.strata")));
        QVERIFY(d.runButton()->isEnabled());

        auto* env = d.findChild<QPlainTextEdit*>(QStringLiteral("environment"));
        env->setPlainText(QStringLiteral("GOOD=1\nnot a variable"));
        QVERIFY(!d.runButton()->isEnabled());
        QVERIFY(d.findChild<QLabel*>(QStringLiteral("environmentError"))
                    ->text()
                    .contains(QStringLiteral("line 2")));
        env->clear();
        QVERIFY(d.runButton()->isEnabled());
    }

    void collectorNotBuiltOffersARunWithoutCapture() {
        qputenv("STRATA_COLLECTOR", QByteArray("/nonexistent/libstrata_collector.so"));
        LaunchDialog d;
        d.setConfig(fake(QString(), QStringLiteral("nc")));
        auto* note = d.findChild<QLabel*>(QStringLiteral("collectorError"));
        QVERIFY(!d.runButton()->isEnabled());
        QVERIFY2(note->text().contains(QStringLiteral("Run without capture")),
                 qPrintable(note->text()));
        d.findChild<QCheckBox*>(QStringLiteral("withoutCapture"))->setChecked(true);
        QVERIFY(d.runButton()->isEnabled());
        QVERIFY(note->isHidden());
        qputenv("STRATA_COLLECTOR", fakeCollector_.toUtf8());
    }

    void consoleContentOrderAndExitCode() {
        RunController r;
        ConsolePanel console;
        QVERIFY(runToEnd(r, console,
                         fake(QStringLiteral("--chatter 500 --exit 3"), QStringLiteral("cons"))));
        QCOMPARE(r.run().exitCode, std::optional<int>(3));
        QCOMPARE(console.linesReceived(), qint64(1000));
        QCOMPARE(console.linesDropped(), qint64(0));
        // Each stream in its own order; stderr lines drawn in red.
        int nextOut = 0, nextErr = 0;
        const QTextDocument* doc = console.view()->document();
        for (QTextBlock b = doc->begin(); b.isValid(); b = b.next()) {
            const QString t = b.text();
            const bool red =
                b.begin().fragment().charFormat().foreground().color() == QColor(0xb0, 0x00, 0x20);
            if (t.startsWith(QStringLiteral("out "))) {
                QCOMPARE(t, QStringLiteral("out %1").arg(nextOut++));
                QVERIFY(!red);
            } else {
                QCOMPARE(t, QStringLiteral("err %1").arg(nextErr++));
                QVERIFY(red);
            }
        }
        QCOMPARE(nextOut, 500);
        QCOMPARE(nextErr, 500);
        // The log holds every line.
        const QString log = dir_.filePath(QStringLiteral("cons.console.txt"));
        QString error;
        QVERIFY(console.saveLog(log, &error));
        QFile f(log);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll().count('\n'), 1000);
    }

    void aFloodNeverFreezesTheWindow() {
        // 400 000 lines as fast as the target can write them; the event loop keeps turning (a
        // 20 ms timer is never late by more than a fraction of a second) and the view keeps the
        // last maxLines() lines, saying how many it dropped.
        RunController r;
        ConsolePanel console;
        console.setMaxLines(1000);
        QElapsedTimer gapClock;
        gapClock.start();
        qint64 worst = 0;
        QTimer probe;
        probe.setInterval(20);
        connect(&probe, &QTimer::timeout, this,
                [&] { worst = std::max(worst, gapClock.restart()); });
        probe.start();
        QVERIFY(runToEnd(r, console,
                         fake(QStringLiteral("--chatter 200000"), QStringLiteral("flood")), 60000));
        probe.stop();
        QCOMPARE(console.linesReceived(), qint64(400000));
        QCOMPARE(console.view()->document()->blockCount(), 1000);
        QCOMPARE(console.linesDropped(), qint64(399000));
        QVERIFY2(console.findChild<QLabel*>(QStringLiteral("consoleDropped"))
                     ->text()
                     .contains(QStringLiteral("399,000")),
                 qPrintable(console.findChild<QLabel*>(QStringLiteral("consoleDropped"))->text()));
        qInfo("longest event-loop stall during the flood: %lld ms", static_cast<long long>(worst));
        QVERIFY2(worst < 750, qPrintable(QString::number(worst)));
    }

    void stopEscalatesAfterTheGracePeriods() {
        // The target ignores SIGINT: SIGTERM follows after the first grace period.
        RunController r;
        r.setGrace({400, 400});
        ConsolePanel console;
        RecordOptions o;
        QString error;
        QVERIFY(toRecordOptions(
            fake(QStringLiteral("--ignore-sigint --sleep-ms 30000"), QStringLiteral("stop1")),
            QDateTime::currentDateTime(), &o, &error));
        QVERIFY2(r.start(o, &error), qPrintable(error));
        QTest::qWait(200); // let it install its handler
        QSignalSpy done(&r, &RunController::finished);
        QElapsedTimer t;
        t.start();
        r.stop();
        QVERIFY(r.stopStatus().startsWith(QStringLiteral("SIGINT sent \u00b7 SIGTERM in")));
        QVERIFY(done.wait(10000));
        const qint64 took = t.elapsed();
        QVERIFY2(took >= 380 && took < 2000, qPrintable(QString::number(took)));
        QCOMPARE(r.run().signal, std::optional<int>(SIGTERM));
        QCOMPARE(r.run().stopSignals, (std::vector<std::string>{"SIGINT", "SIGTERM"}));
        // What was captured is kept: its trace, with the run record saying how it was stopped.
        QCOMPARE(r.result().files.size(), size_t(1));
        QVERIFY(!r.result().runOnly);

        // A target that ignores SIGINT and SIGTERM: SIGKILL after both grace periods.
        RunController k;
        k.setGrace({300, 300});
        QVERIFY(toRecordOptions(fake(QString(), QStringLiteral("stop2")),
                                QDateTime::currentDateTime(), &o, &error));
        o.command = {"sh", "-c", "trap '' INT TERM; echo ready; while :; do sleep 1; done"};
        QVERIFY2(k.start(o, &error), qPrintable(error));
        QTest::qWait(200);
        QSignalSpy killed(&k, &RunController::finished);
        t.restart();
        k.stop();
        QVERIFY(killed.wait(10000));
        const qint64 tookKill = t.elapsed();
        QVERIFY2(tookKill >= 580 && tookKill < 3000, qPrintable(QString::number(tookKill)));
        QCOMPARE(k.run().signal, std::optional<int>(SIGKILL));
        QCOMPARE(k.run().stopSignals, (std::vector<std::string>{"SIGINT", "SIGTERM", "SIGKILL"}));
        QVERIFY(k.result().runOnly); // sh wrote no trace: the run record is kept on its own
    }

    void aChildThatOutlivesTheTargetDoesNotHoldTheRun() {
        RunController r;
        ConsolePanel console;
        QElapsedTimer t;
        t.start();
        QVERIFY(runToEnd(r, console,
                         fake(QStringLiteral("--chatter 3 --survivor-ms 5000 --exit 0"),
                              QStringLiteral("surv"))));
        QVERIFY2(t.elapsed() < 3000, qPrintable(QString::number(t.elapsed())));
        QCOMPARE(console.linesReceived(), qint64(6));
    }

    void launchFromTheWindowOpensTheTrace() {
        MainWindow w(testOptions());
        w.show();
        ProfileController* p = w.profile();
        QSignalSpy finished(p, &ProfileController::runFinished);
        QSignalSpy loaded(&w, &MainWindow::loadFinished);
        QString error;
        QVERIFY2(p->launch(fake(QStringLiteral("--chatter 5 --exit 3 --sleep-ms 300"),
                                QStringLiteral("win")),
                           &error),
                 qPrintable(error));
        QVERIFY(p->running());
        QVERIFY(p->consoleDock()->isVisible());
        // A second launch while one runs is refused, saying why.
        QString second;
        QVERIFY(!p->launch(fake(QString(), QStringLiteral("win2")), &second));
        QVERIFY2(second.contains(QStringLiteral("already running")), qPrintable(second));
        QVERIFY(finished.wait(20000));
        QVERIFY(loaded.count() == 1 || loaded.wait(20000));
        QVERIFY(w.trace());
        QCOMPARE(w.trace()->sliceCount(), size_t(4));
        TraceInfoPanel* info = w.panel<TraceInfoPanel>();
        QCOMPARE(info->value(QStringLiteral("Exit")),
                 QStringLiteral("the program exited with code 3"));
        QCOMPARE(info->value(QStringLiteral("Command")),
                 QStringLiteral("%1 --chatter 5 --exit 3 --sleep-ms 300").arg(kFake));
        QCOMPARE(info->notice(), QString()); // it has GPU activity
        QVERIFY2(p->console()->statusText().contains(QStringLiteral("exited with code 3")),
                 qPrintable(p->console()->statusText()));
        // The console log beside the trace.
        QVERIFY(QFile::exists(p->lastLogPath()));
        QVERIFY(p->lastLogPath().endsWith(QStringLiteral(".console.txt")));
        QFile log(p->lastLogPath());
        QVERIFY(log.open(QIODevice::ReadOnly));
        QCOMPARE(log.readAll().count('\n'), 10);
        // Run Last runs it again.
        LaunchConfig last;
        QVERIFY(LaunchConfigStore::last(&last));
        QCOMPARE(last.arguments, QStringLiteral("--chatter 5 --exit 3 --sleep-ms 300"));
    }

    void aRunWithoutGpuActivityIsExplained() {
        MainWindow w(testOptions());
        w.show();
        ProfileController* p = w.profile();
        QSignalSpy loaded(&w, &MainWindow::loadFinished);
        QString error;
        QVERIFY2(p->launch(fake(QStringLiteral("--no-trace --chatter 2"), QStringLiteral("nogpu")),
                           &error),
                 qPrintable(error));
        QVERIFY(loaded.wait(20000));
        QVERIFY(w.trace());
        QVERIFY(w.trace()->run().has_value());
        QVERIFY2(w.errorText().contains(QStringLiteral("No GPU activity")),
                 qPrintable(w.errorText()));
        QVERIFY(
            w.panel<TraceInfoPanel>()->notice().contains(QStringLiteral("never initialised CUDA")));
        QCOMPARE(p->console()->linesReceived(), qint64(4)); // the output stays
    }

    void cuptiTakenByAnotherToolIsNamed() {
        MainWindow w(testOptions());
        w.show();
        QSignalSpy loaded(&w, &MainWindow::loadFinished);
        QString error;
        QVERIFY2(w.profile()->launch(fake(QStringLiteral("--no-cuda --cupti-error 'CUPTI is in use "
                                                         "by Nsight Systems'"),
                                          QStringLiteral("cupti")),
                                     &error),
                 qPrintable(error));
        QVERIFY(loaded.wait(20000));
        QVERIFY2(w.errorText().contains(
                     QStringLiteral("CUPTI could not be used: CUPTI is in use by Nsight Systems")),
                 qPrintable(w.errorText()));
        QCOMPARE(w.panel<TraceInfoPanel>()->value(QStringLiteral("cupti_error")),
                 QStringLiteral("CUPTI is in use by Nsight Systems"));
    }

    void launchErrorsSayWhat() {
        MainWindow w(testOptions());
        ProfileController* p = w.profile();
        QString error;
        LaunchConfig c = fake(QString(), QStringLiteral("err"));
        c.executable = dir_.filePath(QStringLiteral("missing-program"));
        QVERIFY(!p->launch(c, &error));
        QVERIFY2(error.contains(QStringLiteral("no such file")), qPrintable(error));
        c = fake(QString(), QStringLiteral("no-such-folder/x"));
        QVERIFY(!p->launch(c, &error));
        QVERIFY2(error.contains(QStringLiteral("does not exist")), qPrintable(error));
        // A file name longer than the file system allows: the dialog says so as the user types,
        // and a launch is refused with the same words (issue 34: never run and lose the trace).
        c = fake(QString(), QString(300, QLatin1Char('n')));
        QVERIFY2(checkLaunchConfig(c).output.contains(QStringLiteral("output file name too long")),
                 qPrintable(checkLaunchConfig(c).output));
        QVERIFY(!p->launch(c, &error));
        QVERIFY2(error.contains(QStringLiteral("output file name too long")), qPrintable(error));
        QVERIFY(!p->running());
    }

    void quittingWhileRunningAsksThenStops() {
        auto* w = new MainWindow(testOptions());
        w->show();
        ProfileController* p = w->profile();
        p->runner()->setGrace({300, 300});
        int asked = 0;
        bool answer = false;
        p->confirmQuit = [&] {
            ++asked;
            return answer;
        };
        QString error;
        QVERIFY(
            p->launch(fake(QStringLiteral("--sleep-ms 30000"), QStringLiteral("quit")), &error));
        QVERIFY(!w->close()); // asked, said no: still running
        QCOMPARE(asked, 1);
        QVERIFY(p->running());
        answer = true;
        QVERIFY(!w->close()); // asked, said yes: stopping; the window closes when it has exited
        QCOMPARE(asked, 2);
        QTRY_VERIFY_WITH_TIMEOUT(!p->running(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(!w->isVisible(), 10000);
        QCOMPARE(p->runner()->run().signal,
                 std::optional<int>(SIGINT)); // Stop's first signal did it
        delete w;
    }
};

STRATA_TEST_MAIN(TestLaunch)
#include "tst_launch.moc"
