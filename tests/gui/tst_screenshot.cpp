// `strata --screenshot` under Xvfb (xvfb-run -a, the xcb platform) on a real trace: the PNG has
// the requested size and is not blank, and the timeline draws as many track labels as an
// independent python3 count from the trace says (tests/data/gui/count_track_labels.py).
#include "support/process_run.h"
#include "support/stack_samples_fixture.h"
#include "support/test_main.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

namespace {

const QString kStrata = QStringLiteral(STRATA_GUI_BIN);
const QString kSample = QStringLiteral(STRATA_SAMPLE_TRACE);
const QString kCounter = QStringLiteral(STRATA_TEST_DATA "/gui/count_track_labels.py");

QString realTrace() {
    const QString h100 = QStringLiteral(STRATA_SHARED_TRACES
                                        "/tracelens-h100__Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz");
    return QFileInfo::exists(h100) ? h100 : kSample; // fall back to the bundled sample
}

struct Run {
    int exitCode = -1;
    QString out;
    QString err;
};

// Runs strata in a real X server (xvfb-run) or, for the argument errors that never open a window,
// on the offscreen platform (so that a busy or stale X display cannot decide those checks).
Run runStrataOnce(const QStringList& args, bool underXvfb) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"),
               underXvfb ? QStringLiteral("xcb") : QStringLiteral("offscreen"));
    QString program = kStrata;
    QStringList all = args;
    if (underXvfb) {
        program = QStringLiteral("xvfb-run");
        all = QStringList{QStringLiteral("-a"), QStringLiteral("-s"),
                          QStringLiteral("-screen 0 1920x1200x24"), kStrata} +
              args;
    }
    const strata::test::ProcessRun p = strata::test::runProcess(program, all, env, 120000);
    // A crash counts as -1 here.
    return {p.exitCode == -2 ? -1 : p.exitCode, QString::fromLocal8Bit(p.out),
            QString::fromLocal8Bit(p.err)};
}

// xvfb-run itself exits 5 when it cannot clean up its temporary directory (a race between
// concurrent xvfb-run calls); that says nothing about strata, so such a run is retried.
Run runStrata(const QStringList& args, bool underXvfb = true) {
    Run r = runStrataOnce(args, underXvfb);
    for (int attempt = 1; attempt < 3 && underXvfb && r.exitCode == 5 &&
                          r.err.contains(QStringLiteral("cleaning up temporary directory"));
         ++attempt)
        r = runStrataOnce(args, underXvfb);
    return r;
}

int printedInt(const QString& out, const QString& key) {
    for (const QString& line : out.split(QLatin1Char('\n'))) {
        if (line.startsWith(key)) return line.mid(key.size()).trimmed().toInt();
    }
    return -1;
}

} // namespace

class TestScreenshot : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void realTraceIsNotBlank();
    void trackLabelsMatchTrace();
    void errors();
    void launchRunScreenshot();
    void launchThatCannotStart();
    void sampledStacks();
    void criticalPath();
    void framesReported();
};

void TestScreenshot::initTestCase() {
    if (QStandardPaths::findExecutable(QStringLiteral("xvfb-run")).isEmpty())
        QSKIP("xvfb-run is not installed; the screenshot test needs an X server");
    QVERIFY2(QFileInfo::exists(kStrata), qPrintable(kStrata));
}

void TestScreenshot::realTraceIsNotBlank() {
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("shot.png"));
    const Run r = runStrata({QStringLiteral("--screenshot"), png, QStringLiteral("--size"),
                             QStringLiteral("1600x1000"), realTrace()});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QImage img(png);
    QVERIFY(!img.isNull());
    QCOMPARE(img.size(), QSize(1600, 1000));
    // Many distinct colours: slices are coloured by name, so a drawn timeline has dozens.
    QSet<QRgb> colours;
    QHash<QRgb, int> counts;
    for (int y = 0; y < img.height(); y += 2) {
        for (int x = 0; x < img.width(); x += 2) {
            const QRgb c = img.pixel(x, y);
            colours.insert(c);
            ++counts[c];
        }
    }
    QVERIFY2(colours.size() >= 64, qPrintable(QString::number(colours.size())));
    // Not one flat background: the most common colour covers well under 90% of the samples.
    int top = 0;
    for (int n : counts) top = std::max(top, n);
    const int samples = (img.width() / 2) * (img.height() / 2);
    QVERIFY2(top < samples * 9 / 10, qPrintable(QStringLiteral("%1 of %2").arg(top).arg(samples)));
}

void TestScreenshot::trackLabelsMatchTrace() {
    if (QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty())
        QSKIP("python3 is needed for the independent track count");
    QProcess py;
    py.start(QStringLiteral("python3"), {kCounter, realTrace()});
    QVERIFY(py.waitForFinished(120000));
    bool ok = false;
    const int expected = QString::fromLatin1(py.readAllStandardOutput()).trimmed().toInt(&ok);
    QVERIFY2(ok && expected > 0, qPrintable(QString::fromLocal8Bit(py.readAllStandardError())));

    // Tall enough for every row to fit (the H100 trace's main thread is 30 levels deep).
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("tall.png"));
    const Run r = runStrata({QStringLiteral("--screenshot"), png, QStringLiteral("--size"),
                             QStringLiteral("1200x2600"), QStringLiteral("--print-track-labels"),
                             realTrace()});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QCOMPARE(printedInt(r.out, QStringLiteral("track labels:")), expected);
}

void TestScreenshot::errors() {
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("none.png"));
    Run r = runStrata(
        {QStringLiteral("--screenshot"), png, dir.filePath(QStringLiteral("missing.json"))}, false);
    QVERIFY(r.exitCode != 0);
    QVERIFY2(r.err.contains(QStringLiteral("missing.json")), qPrintable(r.err));
    QVERIFY(!QFileInfo::exists(png));
    r = runStrata({QStringLiteral("--screenshot"), png, QStringLiteral("--range"),
                   QStringLiteral("3ms:1ms"), kSample},
                  false);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("--range")), qPrintable(r.err));
    r = runStrata({QStringLiteral("--screenshot"), png, QStringLiteral("--range"),
                   QStringLiteral("1.5ms:2lightyears"), kSample},
                  false);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("unknown time unit")), qPrintable(r.err));
    // A zoomed screenshot of the sample works: 0.5 ms .. 1 ms.
    r = runStrata({QStringLiteral("--screenshot"), png, QStringLiteral("--range"),
                   QStringLiteral("500:1ms"), kSample});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY(!QImage(png).isNull());
}

// `strata --launch --run --screenshot`: a program that never initialises CUDA still gives its
// run-record trace, its console log and a screenshot of the window with the console and exit.
void TestScreenshot::launchRunScreenshot() {
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("launch.png"));
    // "--name" after "--" belongs to the program (Qt would take -name for itself).
    const Run r =
        runStrata({QStringLiteral("--launch"), QStringLiteral("--run"),
                   QStringLiteral("--no-collector"), QStringLiteral("--screenshot"), png,
                   QStringLiteral("-o"), dir.filePath(QStringLiteral("t-{pid}.strata")),
                   QStringLiteral("--"), QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                   QStringLiteral("echo \"$@\"; echo err >&2; exit 3"), QStringLiteral("sh"),
                   QStringLiteral("--name"), QStringLiteral("run a")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
    const QImage img(png);
    QCOMPARE(img.size(), QSize(1600, 1000));
    const QStringList traces = QDir(dir.path()).entryList({QStringLiteral("t-*.strata")});
    QCOMPARE(traces.size(), 1);
    const QStringList logs = QDir(dir.path()).entryList({QStringLiteral("t-*.console.txt")});
    QCOMPARE(logs.size(), 1);
    QFile log(dir.filePath(logs.front()));
    QVERIFY(log.open(QIODevice::ReadOnly));
    const QByteArray text = log.readAll(); // the two streams' lines in arrival order
    QVERIFY2(text == "--name run a\nerr\n" || text == "err\n--name run a\n", text.constData());
}

// A launch that cannot start says what the dialog says, on stderr, and exits with 2.
void TestScreenshot::launchThatCannotStart() {
    QTemporaryDir dir;
    Run r = runStrata({QStringLiteral("--launch"), QStringLiteral("--run"), QStringLiteral("--"),
                       dir.filePath(QStringLiteral("missing-program"))},
                      false);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("missing-program: no such file")), qPrintable(r.err));
    r = runStrata({QStringLiteral("--launch"), QStringLiteral("--run"),
                   QStringLiteral("--no-collector"), QStringLiteral("-o"),
                   dir.filePath(QStringLiteral("absent/t-{pid}.strata")), QStringLiteral("--"),
                   QStringLiteral("true")},
                  false);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("does not exist")), qPrintable(r.err));
}

// A recording with sampled stacks (the hand-drawn ones of stack_samples_fixture.h, beside a
// slice on thread 11): the timeline with a sample's tooltip (--hover-sample exits 1 when no
// tooltip showed), the Call Tree dock in Samples mode, on both of its tabs.
void TestScreenshot::sampledStacks() {
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("samples.strata"));
    {
        strata::StrataTraceWriter w;
        std::string error;
        QVERIFY2(w.open(file.toStdString(), &error), error.c_str());
        w.cpuSlice(10, 11, 500, 5000, w.string("step"), strata::SliceKind::UserAnnotation, -1, 0);
        strata::test::StackFixture::write(w);
        w.close();
    }
    const QString png = dir.filePath(QStringLiteral("shot.png"));
    const QStringList shots[] = {
        {QStringLiteral("--hover-sample")},
        {QStringLiteral("--dock"), QStringLiteral("calltree:samples")},
        {QStringLiteral("--dock"), QStringLiteral("calltree:samples:functions")}};
    for (const QStringList& extra : shots) {
        QFile::remove(png);
        const Run r = runStrata(QStringList{QStringLiteral("--screenshot"), png,
                                            QStringLiteral("--size"), QStringLiteral("900x500")} +
                                extra + QStringList{file});
        QVERIFY2(r.exitCode == 0, qPrintable(extra.join(' ') + ": " + r.err));
        QVERIFY2(!QImage(png).isNull(), qPrintable(extra.join(' ')));
    }
}

// --critical-path (issue 46): the Statistics dock's Critical Path tab and the timeline's
// highlight for the HTA trace's first step (five ProfilerSteps: a sixth is said to be missing).
void TestScreenshot::criticalPath() {
    const QString hta =
        QStringLiteral(STRATA_SHARED_TRACES "/hta__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz");
    if (!QFileInfo::exists(hta)) QSKIP("../shared/traces is absent");
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("path.png"));
    Run r = runStrata({QStringLiteral("--screenshot"), png, QStringLiteral("--critical-path"),
                       QStringLiteral("0"), hta});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QRegularExpressionMatch m =
        QRegularExpression(QStringLiteral("critical path: (\\d+) edges")).match(r.out);
    QVERIFY2(m.hasMatch() && m.captured(1).toInt() > 0, qPrintable(r.out));
    QCOMPARE(QImage(png).size(), QSize(1600, 1000));
    r = runStrata({QStringLiteral("--screenshot"), png, QStringLiteral("--critical-path"),
                   QStringLiteral("5"), hta},
                  false);
    QVERIFY(r.exitCode != 0);
    QVERIFY2(r.err.contains(QStringLiteral("from 0 to 4")), qPrintable(r.err));
}

// --frames (issue 49): the trace opened as File > Open does, the window's own timings printed in
// order (painted before whole), the sweep's 180 frames (12 zoom levels x 5 places x 3), each
// figure in order (median <= p95 <= max), and the PNG written. No figure is held to a bound: they
// depend on the machine.
void TestScreenshot::framesReported() {
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("frames.png"));
    const Run r = runStrata({QStringLiteral("--screenshot"), png, QStringLiteral("--size"),
                             QStringLiteral("1200x800"), QStringLiteral("--frames"), realTrace()});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QRegularExpressionMatch painted =
        QRegularExpression(
            QStringLiteral("first painted (\\d+) ms, whole (\\d+) ms after the open"))
            .match(r.out);
    QVERIFY2(painted.hasMatch(), qPrintable(r.out));
    QVERIFY(painted.captured(1).toInt() <= painted.captured(2).toInt());
    QVERIFY2(QRegularExpression(QStringLiteral("longest stall [0-9.]+ ms, \\d+ over 50 ms"))
                 .match(r.out)
                 .hasMatch(),
             qPrintable(r.out));
    const QRegularExpressionMatch frames =
        QRegularExpression(QStringLiteral("frames: (\\d+) at \\d+x\\d+, median ([0-9.]+) ms, p95 "
                                          "([0-9.]+) ms, max ([0-9.]+) ms"))
            .match(r.out);
    QVERIFY2(frames.hasMatch(), qPrintable(r.out));
    QCOMPARE(frames.captured(1).toInt(), 180);
    QVERIFY(frames.captured(2).toDouble() <= frames.captured(3).toDouble());
    QVERIFY(frames.captured(3).toDouble() <= frames.captured(4).toDouble());
    QCOMPARE(QImage(png).size(), QSize(1200, 800));
}

STRATA_TEST_GUILESS_MAIN(TestScreenshot)
#include "tst_screenshot.moc"
