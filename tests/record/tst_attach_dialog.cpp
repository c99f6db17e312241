// Profile > Attach… (issue 50): the dialog drives this build's strata-cli attach. The stand-in
// CUPTI harness waits under `strata-cli record --wait-for-attach`; the test clicks Refresh (the
// program listed, waiting), Start Capture (capturing), then Stop Capture: the trace's path is
// handed over to open and the trace holds the kernels of that one window only. From a main
// window, Profile > Attach… opens the dialog and a stop opens the trace there. On a host (the
// test's sshd), a stop brings a copy back. A host nothing listens on is said in the dialog.
#ifndef STRATA_CLI // a build without strata-cli: nothing to attach with
#define STRATA_CLI ""
#define STRATA_NO_CLI 1
#endif
#include "actions/profile_controller.h"
#include "launch/attach_dialog.h"
#include "support/attach_fixture.h"
#include "support/sshd_fixture.h"
#include "support/test_main.h"
#include "window/main_window.h"
#include "workspace/workspace.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QtTest>

using namespace strata;
using namespace strata::test;

class TestAttachDialog : public QObject, public CollectorFiles {
    Q_OBJECT

    QPushButton* button(AttachDialog& d, const char* name) {
        return d.findChild<QPushButton*>(QString::fromLatin1(name));
    }
    // Clicks `name` and waits for the request it starts to end: ok, and its served time.
    std::pair<bool, qint64> click(AttachDialog& d, const char* name) {
        QSignalSpy done(&d, &AttachDialog::requestDone);
        QPushButton* b = button(d, name);
        if (!b || !b->isEnabled()) return {false, 0};
        QTest::mouseClick(b, Qt::LeftButton);
        if (!done.wait(60000)) return {false, 0};
        return {done[0][0].toBool(), done[0][2].toLongLong()};
    }
    static bool listed(AttachDialog& d) {
        QSignalSpy spy(&d, &AttachDialog::listed);
        return spy.wait(60000);
    }
    static QString state(AttachDialog& d) {
        return d.table()->rowCount() == 1 ? d.table()->item(0, 1)->text() : QString();
    }

private slots:
    void initTestCase() {
#ifdef STRATA_NO_CLI
        QSKIP("strata-cli is not built in this configuration");
#endif
        QVERIFY(dir_.isValid());
        qputenv("STRATA_ATTACH_DIR", QFile::encodeName(path("attach")));
        qputenv("STRATA_CLI", STRATA_CLI);
    }

    void startAndStopFromTheDialog() {
        const QString file = path("dialog.strata"), endFile = path("dialog.end");
        QProcess cli;
        startWaitingHarness(cli, file, endFile, QProcessEnvironment::systemEnvironment());
        QVERIFY(cli.waitForStarted());
        QByteArray out;
        AttachTick tick;
        QVERIFY(waitForTick(cli, out, &tick, [](const AttachTick&) { return true; }));

        AttachDialog d;
        d.show();
        QTest::mouseClick(button(d, "attachRefresh"), Qt::LeftButton);
        QVERIFY(listed(d));
        QCOMPARE(d.table()->rowCount(), 1);
        QCOMPARE(state(d), QString("waiting"));
        QCOMPARE(d.table()->item(0, 3)->text(), QFileInfo(file).canonicalFilePath());
        QVERIFY(button(d, "attachStart")->isEnabled());
        QVERIFY(!button(d, "attachStop")->isEnabled());

        const auto [started, s] = click(d, "attachStart");
        QVERIFY(started);
        QVERIFY(listed(d)); // the list again, after the request
        QCOMPARE(state(d), QString("capturing"));
        QVERIFY(waitForTick(cli, out, &tick,
                            [s = s](const AttachTick& k) { return k.t > s && k.enabled == 1; }));

        QSignalSpy opened(&d, &AttachDialog::traceStopped);
        const auto [stopped, e] = click(d, "attachStop");
        QVERIFY(stopped);
        QCOMPARE(opened.size(), 1);
        QCOMPARE(opened[0][0].toString(), QFileInfo(file).canonicalFilePath());
        QVERIFY(d.statusText().contains("Stopped capture"));
        QVERIFY(listed(d));
        QCOMPARE(state(d), QString("stopped"));
        QVERIFY(waitForTick(cli, out, &tick,
                            [e = e](const AttachTick& k) { return k.t > e && k.enabled == 0; }));

        QFile end(endFile);
        QVERIFY(end.open(QIODevice::WriteOnly));
        end.close();
        QVERIFY(cli.waitForFinished(60000));
        auto t = load(file);
        QVERIFY(t);
        const auto kept = keptPerWindow(*t, "attach_k", {{s, e}});
        QCOMPARE(kept.size(), size_t(1));
        QVERIFY(kept[0] > 0);
    }

    void profileMenuOpensTheTrace() {
        const QString file = path("menu.strata"), endFile = path("menu.end");
        QProcess cli;
        startWaitingHarness(cli, file, endFile, QProcessEnvironment::systemEnvironment());
        QVERIFY(cli.waitForStarted());
        QByteArray out;
        AttachTick tick;
        QVERIFY(waitForTick(cli, out, &tick, [](const AttachTick&) { return true; }));

        MainWindow::Options o;
        o.restoreSettings = false;
        MainWindow w(o);
        w.show();
        w.profile()->sameWindowOnly = true;
        QAction* action = w.findChild<QAction*>("actionAttach");
        QVERIFY(action);
        action->trigger();
        auto* d = w.findChild<AttachDialog*>();
        QVERIFY(d);
        if (d->table()->rowCount() == 0) QVERIFY(listed(*d)); // the list Attach… asked for
        QCOMPARE(d->table()->rowCount(), 1);
        QVERIFY(click(*d, "attachStart").first);
        QVERIFY(listed(*d));
        QSignalSpy loaded(&w, &MainWindow::loadFinished);
        QVERIFY(click(*d, "attachStop").first);
        QVERIFY(loaded.wait(60000));
        QVERIFY(w.workspace()->current());
        QFile end(endFile);
        QVERIFY(end.open(QIODevice::WriteOnly));
        end.close();
        QVERIFY(cli.waitForFinished(60000));
    }

    // The same on a host: the test's sshd on 127.0.0.1 (this machine, the default attach folder
    // an ssh session finds); Stop Capture brings a copy of the trace back and hands it over.
    void startAndStopOnAHost() {
        SshdFixture sshd;
        const QString why = sshd.start();
        QVERIFY2(why.isEmpty(), qPrintable(why));
        const QString file = path("host.strata"), endFile = path("host.end");
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove("STRATA_ATTACH_DIR");
        QProcess cli;
        startWaitingHarness(cli, file, endFile, env);
        QVERIFY(cli.waitForStarted());
        QByteArray out;
        AttachTick tick;
        QVERIFY(waitForTick(cli, out, &tick, [](const AttachTick&) { return true; }));

        AttachDialog d;
        QStringList ssh = sshd.sshOptions();
        ssh.removeAll("--ssh-option");
        d.setHost(sshd.remote(), ssh.join(' '));
        d.setRemoteDir(path("remote"));
        d.setCopyFolder(path("copies"));
        QVERIFY(QDir().mkpath(path("copies")));
        d.show();
        QTest::mouseClick(button(d, "attachRefresh"), Qt::LeftButton);
        QVERIFY(listed(d));
        int row = -1; // among other programs this user may have waiting
        for (int r = 0; r < d.table()->rowCount(); ++r)
            if (d.table()->item(r, 3)->text() == QFileInfo(file).canonicalFilePath()) row = r;
        QVERIFY(row >= 0);
        d.table()->selectRow(row);
        const qint64 pid = d.table()->item(row, 0)->text().toLongLong();
        const auto [started, s] = click(d, "attachStart");
        QVERIFY(started);
        QVERIFY(listed(d));
        QVERIFY(waitForTick(cli, out, &tick,
                            [s = s](const AttachTick& k) { return k.t > s && k.enabled == 1; }));
        for (int r = 0; r < d.table()->rowCount(); ++r)
            if (d.table()->item(r, 0)->text().toLongLong() == pid) d.table()->selectRow(r);
        QSignalSpy opened(&d, &AttachDialog::traceStopped);
        const auto [stopped, e] = click(d, "attachStop");
        QVERIFY(stopped);
        QCOMPARE(opened.size(), 1);
        const QString copy = opened[0][0].toString();
        QCOMPARE(QFileInfo(copy).absolutePath(), QFileInfo(path("copies")).absoluteFilePath());
        QVERIFY2(QFileInfo(copy).fileName().endsWith(QString("-%1-host.strata").arg(pid)),
                 qPrintable(copy));
        auto t = load(copy);
        QVERIFY(t);
        const auto kept = keptPerWindow(*t, "attach_k", {{s, e}});
        QCOMPARE(kept.size(), size_t(1));
        QVERIFY(kept[0] > 0);
        QFile end(endFile);
        QVERIFY(end.open(QIODevice::WriteOnly));
        end.close();
        QVERIFY(cli.waitForFinished(60000));
    }

    void unreachableHostSaid() {
        AttachDialog d;
        d.setHost("127.0.0.1:1", "BatchMode=yes");
        QSignalSpy done(&d, &AttachDialog::requestDone);
        d.refresh();
        QVERIFY(done.wait(60000));
        QCOMPARE(done[0][0].toBool(), false);
        QVERIFY2(d.statusText().contains("cannot reach"), qPrintable(d.statusText()));
    }
};

STRATA_TEST_MAIN(TestAttachDialog)
#include "tst_attach_dialog.moc"
