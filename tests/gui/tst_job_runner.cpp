// widgets/workspace/job_runner: results arrive on the runner's thread, a newer run supersedes
// an older one (its result never arrives), cancel() drops a result and says so, progress is
// reported, waitForFinished() delivers at once, a job runs below the GUI thread's priority.
#include "support/pool_hold.h"
#include "support/test_main.h"
#include "workspace/job_runner.h"

#include <QSignalSpy>
#include <QThread>
#include <QtTest>

#include <atomic>
#include <thread>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

using namespace strata;

class TestJobRunner : public QObject {
    Q_OBJECT
private slots:
    // A job yields to the GUI thread (issue 49): its thread runs at a lower priority, and the
    // threads it starts too; the GUI thread keeps its own.
    void jobsRunBelowTheGuiThread() {
#ifdef __linux__
        const int gui = ::getpriority(PRIO_PROCESS, id_t(::syscall(SYS_gettid)));
        JobRunner r;
        int job = gui, started = gui;
        r.run(
            [&](JobControl&) {
                job = ::getpriority(PRIO_PROCESS, id_t(::syscall(SYS_gettid)));
                std::thread t(
                    [&] { started = ::getpriority(PRIO_PROCESS, id_t(::syscall(SYS_gettid))); });
                t.join();
                return 0;
            },
            [](int){});
        r.waitForFinished();
        QVERIFY2(job > gui, qPrintable(QStringLiteral("job %1, GUI %2").arg(job).arg(gui)));
        QCOMPARE(started, job);
        QCOMPARE(::getpriority(PRIO_PROCESS, id_t(::syscall(SYS_gettid))), gui);
        // A job the GUI thread waits for before the pool starts it runs on the GUI thread, which
        // keeps its priority: the pool's threads held meanwhile.
        PoolHold hold;
        QThread* ranOn = nullptr;
        r.run(
            [&](JobControl&) {
                ranOn = QThread::currentThread();
                return 0;
            },
            [](int){});
        r.waitForFinished();
        hold.release();
        QCOMPARE(ranOn, QThread::currentThread());
        QCOMPARE(::getpriority(PRIO_PROCESS, id_t(::syscall(SYS_gettid))), gui);
#else
        QSKIP("thread priorities are set on Linux only");
#endif
    }

    void deliversOnItsThread() {
        JobRunner r;
        QThread* worker = nullptr;
        int got = 0;
        QThread* deliveredOn = nullptr;
        r.run(
            [&](JobControl&) {
                worker = QThread::currentThread();
                return 42;
            },
            [&](int v) {
                got = v;
                deliveredOn = QThread::currentThread();
            });
        QSignalSpy done(&r, &JobRunner::finished);
        QVERIFY(done.wait(5000));
        QCOMPARE(got, 42);
        QCOMPARE(done.at(0).at(0).toBool(), true);
        QVERIFY(worker != QThread::currentThread());
        QCOMPARE(deliveredOn, QThread::currentThread());
        QVERIFY(!r.isRunning());
    }

    void newerRunSupersedes() {
        JobRunner r;
        std::atomic<bool> release{false};
        QList<int> got;
        r.run(
            [&](JobControl& c) {
                while (!release && !c.cancelled()) QThread::msleep(1);
                return 1;
            },
            [&](int v) { got << v; });
        r.run([](JobControl&) { return 2; }, [&](int v) { got << v; });
        release = true;
        r.waitForFinished();
        QTest::qWait(50); // the first job's end is processed too, and dropped
        QCOMPARE(got, QList<int>{2});
    }

    void cancelDropsAndSaysSo() {
        JobRunner r;
        QSignalSpy done(&r, &JobRunner::finished);
        bool delivered = false;
        r.run(
            [](JobControl& c) {
                while (!c.cancelled()) QThread::msleep(1);
                return 0;
            },
            [&](int) { delivered = true; });
        r.cancel();
        QVERIFY(done.wait(5000));
        QCOMPARE(done.at(0).at(0).toBool(), false);
        QVERIFY(!delivered);
    }

    void progressAndWait() {
        JobRunner r;
        QSignalSpy progress(&r, &JobRunner::progress);
        std::atomic<bool> release{false};
        int got = 0;
        r.run(
            [&](JobControl& c) {
                c.setProgress(0.5);
                while (!release) QThread::msleep(1);
                return 7;
            },
            [&](int v) { got = v; });
        QTRY_VERIFY_WITH_TIMEOUT(!progress.isEmpty(), 5000);
        QCOMPARE(progress.first().at(0).toDouble(), 0.5);
        release = true;
        r.waitForFinished(); // delivered here, not later
        QCOMPARE(got, 7);
        QCOMPARE(progress.last().at(0).toDouble(), 1.0);
    }
};

STRATA_TEST_MAIN(TestJobRunner)
#include "tst_job_runner.moc"
