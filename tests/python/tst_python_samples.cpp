// --python sample (issue 45; the default, 1 kHz): every Python thread's stack sampled. A program
// that alternates a spinning and a sleeping function and measures both itself: the spinning
// one holds its share of work()'s samples within 5 points of its share of work()'s time.
#include "python_fixture.h"
#include "support/test_main.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace strata::test;

class TestPythonSamples : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void spinShare_data() { addInterpreterRows(); }
    void spinShare() {
        QFETCH(QString, python);
        REQUIRE_PYTHON(python);
        const QString tag = QTest::currentDataTag();
        const QString trace = dir_.filePath("spin-" + tag + ".strata");
        const QString measured = dir_.filePath("spin-" + tag + ".json");
        // No --python: sampling at 1 kHz is what a Python program gets by default.
        const ProcessRun rec =
            recordPython(trace, {}, python, {kPythonData + "/sampled_spin.py", measured});
        QVERIFY2(rec.exitCode == 0, rec.err.constData());
        const QString info = infoText(trace);
        QVERIFY2(info.contains(QRegularExpression("python +sample=1000 \\(CPython 3")),
                 qPrintable(info));

        QFile m(measured);
        QVERIFY(m.open(QIODevice::ReadOnly));
        const QJsonObject spent = QJsonDocument::fromJson(m.readAll()).object();
        const double spinTime = spent["spin"].toDouble() / spent["work"].toDouble();

        const ProcessRun samples = runStrataCli({"samples", "--json", trace});
        QCOMPARE(samples.exitCode, 0);
        double spin = 0, idle = 0, work = 0;
        for (const auto& f : QJsonDocument::fromJson(samples.out).object()["functions"].toArray()) {
            const QString name = f.toObject()["name"].toString();
            if (!name.contains("sampled_spin.py(")) continue;
            if (name.endsWith("): spin")) spin = f.toObject()["self"].toDouble();
            if (name.endsWith("): idle")) idle = f.toObject()["self"].toDouble();
            if (name.endsWith("): work")) work = f.toObject()["total"].toDouble();
        }
        // About 0.6 s of work at 1 kHz.
        QVERIFY2(work >= 300, qPrintable(QString::number(work)));
        const double spinShare = spin / work;
        QVERIFY2(std::abs(spinShare - spinTime) <= 0.05,
                 qPrintable(QString("spin() has %1 of work()'s samples, %2 of its time")
                                .arg(spinShare)
                                .arg(spinTime)));
        QVERIFY2(std::abs((spin + idle) / work - 1) <= 0.05,
                 qPrintable(QString("spin %1 + idle %2 of %3").arg(spin).arg(idle).arg(work)));
    }

    // C threads calling into Python make thread states without the GIL while the sampler looks
    // at every thread: it must never see one half made (it read a frame pointer not yet set,
    // and the program died of SIGSEGV in 7 runs of 10 on 3.11, before the sampler took the
    // threads' frames under the thread list's lock).
    void foreignThreads_data() { addInterpreterRows(); }
    void foreignThreads() {
        QFETCH(QString, python);
        REQUIRE_PYTHON(python);
        for (int run = 0; run < 2; ++run) {
            const QString trace = dir_.filePath(
                QString("foreign-%1-%2.strata").arg(QTest::currentDataTag()).arg(run));
            const ProcessRun rec =
                recordPython(trace, {}, python, {kPythonData + "/foreign_threads.py", "1"});
            QVERIFY2(rec.exitCode == 0, qPrintable(QString("run %1: exit %2 %3")
                                                       .arg(run)
                                                       .arg(rec.exitCode)
                                                       .arg(QString::fromUtf8(rec.err))));
            QVERIFY(infoText(trace).contains(QRegularExpression("python +sample=1000")));
        }
    }
};

STRATA_TEST_MAIN(TestPythonSamples)
#include "tst_python_samples.moc"
