// strata without a display (issue 42): with an emptied environment (no DISPLAY, WAYLAND_DISPLAY
// or QT_QPA_PLATFORM) Qt used to abort (SIGABRT, "no Qt platform plugin could be initialized").
// Now --screenshot renders on the offscreen platform, the window modes say "no display" and exit
// with 1, and a platform chosen explicitly (QT_QPA_PLATFORM, -platform) is left to Qt.
#include "support/process_run.h"
#include "support/test_main.h"

#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

const QString kStrata = QStringLiteral(STRATA_GUI_BIN);
const QString kSample = QStringLiteral(STRATA_SAMPLE_TRACE);

struct Run {
    int exitCode = -1; // -2: crashed (a signal)
    QString out, err;
};

// strata with nothing in its environment but `vars` (NAME=VALUE).
Run runBare(const QStringList& args, const QStringList& vars = {}) {
    QProcessEnvironment env; // empty: not the test's
    for (const QString& v : vars) {
        const qsizetype eq = v.indexOf(QLatin1Char('='));
        env.insert(v.left(eq), v.mid(eq + 1));
    }
    const strata::test::ProcessRun p = strata::test::runProcess(kStrata, args, env, 120000);
    return {p.exitCode, QString::fromLocal8Bit(p.out), QString::fromLocal8Bit(p.err)};
}

const QString kNoDisplay =
    QStringLiteral("strata: no display (DISPLAY and WAYLAND_DISPLAY are not set); run it in a "
                   "graphical session, or use --screenshot / strata-cli\n");

} // namespace

class TestNoDisplay : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // --screenshot needs no screen: it falls back to the offscreen platform and writes the PNG.
    void screenshotFallsBackToOffscreen() {
        const QString png = dir_.filePath(QStringLiteral("bare.png"));
        const Run r = runBare({QStringLiteral("--screenshot"), png, QStringLiteral("--size"),
                               QStringLiteral("800x600"), kSample},
                              {QStringLiteral("HOME=") + dir_.path()});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(QImage(png).size(), QSize(800, 600));
    }

    // The window modes: the message and exit code 1, no abort (one that opens a file, one that
    // launches a program, and one that would stop at an argument error after the display).
    void windowModesSayNoDisplay_data() {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("open a file") << QStringList{kSample};
        QTest::newRow("no file") << QStringList{};
        QTest::newRow("launch") << QStringList{QStringLiteral("--launch"), QStringLiteral("--run"),
                                               QStringLiteral("--no-collector"),
                                               QStringLiteral("--"), QStringLiteral("/bin/true")};
        QTest::newRow("compare") << QStringList{QStringLiteral("--compare"), kSample, kSample};
        QTest::newRow("bad theme")
            << QStringList{QStringLiteral("--theme"), QStringLiteral("bogus"), kSample};
    }
    void windowModesSayNoDisplay() {
        QFETCH(QStringList, args);
        const Run r = runBare(args);
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.err, kNoDisplay);
        QCOMPARE(r.out, QString());
        // An empty DISPLAY is no display either.
        const Run empty =
            runBare(args, {QStringLiteral("DISPLAY="), QStringLiteral("WAYLAND_DISPLAY=")});
        QCOMPARE(empty.exitCode, 1);
        QCOMPARE(empty.err, kNoDisplay);
    }

    // A platform named explicitly is Qt's to use: strata goes on to its own argument check
    // (--theme bogus: exit 2) on the offscreen platform, chosen by either means.
    void anExplicitPlatformIsKept() {
        const QString themeError =
            QStringLiteral("strata: --theme expects system, light or dark, got 'bogus'\n");
        Run r = runBare({QStringLiteral("--theme"), QStringLiteral("bogus")},
                        {QStringLiteral("QT_QPA_PLATFORM=offscreen")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.endsWith(themeError), qPrintable(r.err));
        r = runBare({QStringLiteral("-platform"), QStringLiteral("offscreen"),
                     QStringLiteral("--theme"), QStringLiteral("bogus")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.endsWith(themeError), qPrintable(r.err));
    }

    // --help and --version never needed a display; they still do not.
    void helpAndVersion() {
        Run r = runBare({QStringLiteral("--version")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith(QStringLiteral("strata ")), qPrintable(r.out));
        r = runBare({QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(QStringLiteral("--screenshot")));
    }
};

STRATA_TEST_GUILESS_MAIN(TestNoDisplay)
#include "tst_no_display.moc"
