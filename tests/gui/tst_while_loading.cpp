// A window that goes while a trace still loads (issue 44: `strata --screenshot --while-loading`
// on a 1 GB trace crashed at exit, 3 of 3):
// - `strata --screenshot OUT --while-loading` on a synthetic trace (strata-cli synth, gzipped so
//   that it reads for a while from a small file) exits 0, three runs of three, with the picture;
// - a load superseded by another, still reading when its window is deleted, posts nothing to the
//   window's load controller, gone (before, its preview was posted to a freed object).
#include "support/main_window_fixture.h"
#include "support/process_run.h"
#include "support/test_main.h"
#include "workspace/job_runner.h"

#include <QThreadPool>

#include <atomic>

namespace {

const QString kStrata = QStringLiteral(STRATA_GUI_BIN);
const QString kCli = QStringLiteral(STRATA_CLI);

// Counts the queued calls delivered to one address (a deleted object's: none may come).
class CallsTo : public QObject {
public:
    explicit CallsTo(const void* receiver) : receiver_(receiver) {}
    int count = 0;
    bool eventFilter(QObject* watched, QEvent* e) override {
        if (static_cast<const void*>(watched) == receiver_ && e->type() == QEvent::MetaCall) {
            ++count;
            return true; // never delivered
        }
        return false;
    }

private:
    const void* receiver_;
};

} // namespace

class TestWhileLoading : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { initMainWindowTests(); }

    void screenshotWhileLoadingExitsCleanly() {
        QTemporaryDir dir;
        const QString trace = dir.filePath(QStringLiteral("synth.json.gz"));
        // 2 M events: about 490 MB of JSON in a 35 MB file, read for longer than the second
        // preview takes (0.8 s) on the machines this runs on.
        strata::test::ProcessRun synth = strata::test::runProcess(
            kCli, {QStringLiteral("synth"), QStringLiteral("--events"), QStringLiteral("2000000"),
                   QStringLiteral("--seed"), QStringLiteral("44"), QStringLiteral("-o"), trace});
        QVERIFY2(synth.exitCode == 0, synth.err.constData());
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_CACHE_HOME"), dir.filePath(QStringLiteral("cache")));
        for (int run = 0; run < 3; ++run) {
            const QString png = dir.filePath(QStringLiteral("loading-%1.png").arg(run));
            const strata::test::ProcessRun r = strata::test::runProcess(
                kStrata,
                {QStringLiteral("--screenshot"), png, QStringLiteral("--while-loading"), trace},
                env, 120000);
            const QString err = QString::fromLocal8Bit(r.err);
            if (r.exitCode == 1 && err.contains(QStringLiteral("loaded before a second preview")))
                QSKIP("this machine read the whole trace before a second preview");
            QVERIFY2(r.exitCode == 0,
                     qPrintable(
                         QStringLiteral("run %1: exit %2\n%3").arg(run).arg(r.exitCode).arg(err)));
            QVERIFY2(r.out.contains("% of the file read"), r.out.constData());
            QCOMPARE(QImage(png).size(), QSize(1600, 1000));
        }
    }

    void aSupersededLoadPostsNothingToAWindowGone() {
        // Load A waits in its progress (after its cancel flag was read) until the test lets it
        // go; B replaces it; the window is deleted (it waits for B, not for A); A then reads on
        // past its first preview's time. Its preview must not reach the deleted controller.
        std::atomic<int> stage{0};
        OpenRequest a = OpenRequest::trace(kSample);
        a.options.progress = [&stage](double) {
            if (stage.load() == 0) stage = 1;
            while (stage.load() < 2) QThread::msleep(5);
            return true;
        };
        auto* w = new MainWindow(testOptions());
        QSignalSpy finished(w, &MainWindow::loadFinished);
        w->open(a);
        QTRY_COMPARE_WITH_TIMEOUT(stage.load(), 1, 10000);
        QThread::msleep(400); // past the reader's first preview time (0.3 s)
        w->open(OpenRequest::trace(kSample));
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 10000); // B shown
        QVERIFY(w->trace());
        CallsTo late(w->loader());
        qApp->installEventFilter(&late);
        delete w;
        stage = 2; // A reads on: its preview comes now
        QVERIFY(JobRunner::pool()->waitForDone(10000));
        QTest::qWait(100); // anything posted is delivered now
        qApp->removeEventFilter(&late);
        QCOMPARE(late.count, 0);
    }
};

STRATA_TEST_MAIN(TestWhileLoading)
#include "tst_while_loading.moc"
