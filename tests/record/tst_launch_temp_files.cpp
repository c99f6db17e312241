// `strata --launch` leaves nothing in TMPDIR (issue 42): the console's log of a run (a
// QTemporaryFile, "strata.XXXXXX") was left behind by `--launch --run --screenshot`, whose
// window was never deleted. The real binary runs here on the offscreen platform with TMPDIR a
// fresh folder, through the paths a run can end by: the screenshot taken, a program that cannot
// start, and SIGTERM while the program runs; then nothing named strata.* may be left there.
#include "support/test_main.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

namespace {

const QString kStrata = QStringLiteral(STRATA_BINARY_DIR "/app/strata");

// The files and folders under `dir` whose name starts with "strata." (QTemporaryFile's default
// name for the application strata), as paths relative to it.
QStringList strataTemporaries(const QString& dir) {
    QStringList out;
    QDirIterator it(dir, QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot | QDir::System,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        if (it.fileName().startsWith(QStringLiteral("strata.")))
            out << QDir(dir).relativeFilePath(it.filePath());
    }
    return out;
}

} // namespace

class TestLaunchTempFiles : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    // A fresh TMPDIR and output folder for one case, and the environment strata runs in.
    struct Case {
        QString tmp, out;
        QProcessEnvironment env;
    };
    Case newCase(const QString& name) {
        Case c;
        c.tmp = dir_.filePath(name + QStringLiteral("-tmp"));
        c.out = dir_.filePath(name + QStringLiteral("-out"));
        QDir().mkpath(c.tmp);
        QDir().mkpath(c.out);
        c.env = QProcessEnvironment::systemEnvironment();
        c.env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        c.env.insert(QStringLiteral("TMPDIR"), c.tmp);
        c.env.insert(QStringLiteral("XDG_CONFIG_HOME"), c.out); // no settings of the user's
        return c;
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        if (!QFileInfo::exists(kStrata)) QSKIP("strata (the GUI) is not built");
    }

    // The run ends, its trace opens, the window is rendered and strata exits 0: the console's
    // log was saved beside the trace, and its temporary is gone.
    void screenshotRun() {
        const Case c = newCase(QStringLiteral("shot"));
        QProcess p;
        p.setProcessEnvironment(c.env);
        p.start(kStrata, {QStringLiteral("--launch"), QStringLiteral("--run"),
                          QStringLiteral("--no-collector"), QStringLiteral("--screenshot"),
                          c.out + QStringLiteral("/shot.png"), QStringLiteral("-o"),
                          c.out + QStringLiteral("/t-{pid}.strata"), QStringLiteral("--"),
                          QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                          QStringLiteral("echo out; echo err >&2; exit 3")});
        QVERIFY(p.waitForFinished(120000));
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0,
                 p.readAllStandardError().constData());
        QVERIFY(QFileInfo(c.out + QStringLiteral("/shot.png")).size() > 0);
        const QStringList logs = QDir(c.out).entryList({QStringLiteral("t-*.console.txt")});
        QCOMPARE(logs.size(), 1);
        QFile log(QDir(c.out).filePath(logs.front()));
        QVERIFY(log.open(QIODevice::ReadOnly));
        const QByteArray text = log.readAll(); // the two streams' lines in arrival order
        QVERIFY2(text == "out\nerr\n" || text == "err\nout\n", text.constData());
        QCOMPARE(strataTemporaries(c.tmp), QStringList());
    }

    // A program that cannot start: exit code 2, nothing left.
    void programThatCannotStart() {
        const Case c = newCase(QStringLiteral("missing"));
        QProcess p;
        p.setProcessEnvironment(c.env);
        p.start(kStrata, {QStringLiteral("--launch"), QStringLiteral("--run"),
                          QStringLiteral("--no-collector"), QStringLiteral("--screenshot"),
                          c.out + QStringLiteral("/shot.png"), QStringLiteral("-o"),
                          c.out + QStringLiteral("/t-{pid}.strata"), QStringLiteral("--"),
                          c.out + QStringLiteral("/missing-program")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        QCOMPARE(strataTemporaries(c.tmp), QStringList());
    }

    // SIGTERM while the program runs (no screenshot: the window mode): strata stops it, keeps
    // its log, exits with 128 + SIGTERM, and leaves nothing.
    void sigtermWhileRunning() {
        const Case c = newCase(QStringLiteral("term"));
        const QString ready = c.out + QStringLiteral("/ready");
        QProcess p;
        p.setProcessEnvironment(c.env);
        p.start(kStrata, {QStringLiteral("--launch"), QStringLiteral("--run"),
                          QStringLiteral("--no-collector"), QStringLiteral("-o"),
                          c.out + QStringLiteral("/t-{pid}.strata"), QStringLiteral("--"),
                          QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                          QStringLiteral("echo started; : > %1; exec sleep 60").arg(ready)});
        QVERIFY(p.waitForStarted());
        QElapsedTimer t;
        t.start();
        while (!QFileInfo::exists(ready) && t.elapsed() < 30000) QTest::qWait(20);
        QVERIFY(QFileInfo::exists(ready));
        ::kill(pid_t(p.processId()), SIGTERM);
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 128 + SIGTERM);
        QCOMPARE(QDir(c.out).entryList({QStringLiteral("t-*.console.txt")}).size(), 1);
        QCOMPARE(strataTemporaries(c.tmp), QStringList());
    }
};

STRATA_TEST_GUILESS_MAIN(TestLaunchTempFiles)
#include "tst_launch_temp_files.moc"
