// --cpu-sample (issue 45): the native stacks of every thread, sampled on each thread's CPU time.
// tests/data/native/known_work.cpp measures the CPU its functions use with its own thread
// clocks; the samples must share the time as it measured (within 5 points), name its functions
// as its symbols do (demangled), leave its sleeping function and the collector's own threads
// out, and name its second thread. Also: the rate asked for, a program shorter than the
// collector's 100 ms wait, a shell running the program (the shell is not recorded), and a
// Python program (both kinds of stacks, each shown on its own).
#include "support/process_run.h"
#include "support/test_main.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace strata::test;

namespace {

const QString kKnownWork = QStringLiteral(STRATA_KNOWN_WORK);

ProcessRun record(const QString& out, const QStringList& options, const QStringList& command) {
    return runStrataCli(QStringList{"record", "-q", "-o", out} + options + QStringList{"--"} +
                        command);
}

QJsonObject jsonOf(const QByteArray& text) {
    return QJsonDocument::fromJson(text).object();
}

QJsonObject readJson(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? jsonOf(f.readAll()) : QJsonObject();
}

// `strata-cli samples --json [more] FILE`: function name -> {self, total}.
struct Profile {
    QJsonObject all;
    QHash<QString, QPair<double, double>> functions;
    double total(const QString& name) const { return functions.value(name).second; }
};
Profile samplesOf(const QString& trace, const QStringList& more = {}) {
    const ProcessRun r = runStrataCli(QStringList{"samples", "--json"} + more + QStringList{trace});
    Profile p;
    p.all = jsonOf(r.out);
    for (const auto& f : p.all["functions"].toArray()) {
        const QJsonObject o = f.toObject();
        p.functions[o["name"].toString()] = {o["self"].toDouble(), o["total"].toDouble()};
    }
    return p;
}

QString infoOf(const QString& trace) {
    return QString::fromUtf8(runStrataCli({"info", trace}).out);
}

} // namespace

class TestNativeSamples : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QVERIFY2(QFileInfo::exists(kKnownWork), qPrintable(kKnownWork));
    }

    void sharesOfCpuTime() {
        const QString trace = dir_.filePath("known.strata");
        const QString measured = dir_.filePath("known.json");
        const ProcessRun rec =
            record(trace, {"--python", "off", "--cpu-sample"}, {kKnownWork, "100", measured});
        QVERIFY2(rec.exitCode == 0, rec.err.constData());
        const QJsonObject m = readJson(measured);
        QVERIFY(m["work"].toDouble() > 0);
        const QString info = infoOf(trace);
        QVERIFY2(info.contains(QRegularExpression("cpu_sample +1000 Hz of each thread's CPU time")),
                 qPrintable(info));

        const Profile p = samplesOf(trace);
        const double light = p.total("known::light()"), heavy = p.total("known::heavy()");
        const double nap = p.total("known::nap()"), work = p.total("known::work(int)");
        // Two threads of about 0.85 s of CPU each, one sample a millisecond of it (in user
        // space only where perf_event_paranoid is 2: the thread clock's system calls then
        // count in the program's measure, not in the samples).
        const double expected = m["work"].toDouble() / 1e6;
        QVERIFY2(
            work >= 0.5 * expected && work <= 1.1 * expected,
            qPrintable(QString("%1 samples in work(), %2 ms of its CPU").arg(work).arg(expected)));
        const double heavyTime =
            m["heavy"].toDouble() / (m["light"].toDouble() + m["heavy"].toDouble());
        QVERIFY2(std::abs(heavy / (light + heavy) - heavyTime) <= 0.05,
                 qPrintable(QString("heavy() has %1 of the samples, %2 of the time")
                                .arg(heavy / (light + heavy))
                                .arg(heavyTime)));
        // Asleep, a thread is not sampled.
        QVERIFY2(nap <= 0.02 * work, qPrintable(QString("nap() %1 of %2").arg(nap).arg(work)));
        // known::spin is innermost but for the clock it reads (libc's, then the kernel's vDSO).
        QVERIFY(p.total("known::spin(long)") >= 0.95 * work);
        QVERIFY(p.total("main") > 0);
        // The program's two threads; the collector's own are not sampled.
        QCOMPARE(p.all["threads"].toInt(), 2);
    }

    void secondThreadNamed() {
        const QString trace = dir_.filePath("named.strata");
        QCOMPARE(record(trace, {"--python", "off", "--cpu-sample"}, {kKnownWork, "20"}).exitCode,
                 0);
        const QString json = trace + ".json";
        QCOMPARE(runStrataCli({"export", "--format", "perfetto-json", trace, json}).exitCode, 0);
        QFile f(json);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().contains("\"known-worker\""));
    }

    void rateAskedFor() {
        const QString trace = dir_.filePath("rate.strata");
        const QString measured = dir_.filePath("rate.json");
        QCOMPARE(
            record(trace, {"--python", "off", "--cpu-sample=250"}, {kKnownWork, "100", measured})
                .exitCode,
            0);
        const double work = samplesOf(trace).total("known::work(int)");
        const double expected = readJson(measured)["work"].toDouble() / 4e6; // one per 4 ms
        QVERIFY2(work >= 0.5 * expected && work <= 1.1 * expected,
                 qPrintable(QString("%1 samples, %2 expected").arg(work).arg(expected)));
        QVERIFY(infoOf(trace).contains("250 Hz"));
    }

    void shortProgramStillRecorded() {
        // Ends before the collector's 100 ms wait: the launched program records at its exit.
        const QString trace = dir_.filePath("short.strata");
        const ProcessRun rec =
            record(trace, {"--python", "off", "--cpu-sample"}, {kKnownWork, "3"});
        QVERIFY2(rec.exitCode == 0, rec.err.constData());
        QVERIFY(QFileInfo::exists(trace));
        QVERIFY(samplesOf(trace).total("known::work(int)") >= 1);
    }

    void shellNotRecorded() {
        // sh runs the program as its child: the program records (its own file, {pid}); the
        // shell, which only waits, does not.
        QTemporaryDir out;
        const QString measured = dir_.filePath("shell.json");
        const ProcessRun rec =
            record(out.filePath("run-{pid}.strata"), {"--python", "off", "--cpu-sample"},
                   {"/bin/sh", "-c", QString("'%1' 30 '%2'; true").arg(kKnownWork, measured)});
        QVERIFY2(rec.exitCode == 0, rec.err.constData());
        const QStringList files = QDir(out.path()).entryList({"*.strata"}, QDir::Files);
        QCOMPARE(files.size(), 1);
        QVERIFY(samplesOf(out.filePath(files.front())).total("known::work(int)") > 0);
    }

    void pythonHasBothKinds() {
        const QString trace = dir_.filePath("python.strata");
        const QString script = dir_.filePath("busy.py");
        QFile s(script);
        QVERIFY(s.open(QIODevice::WriteOnly));
        s.write("import time\n"
                "def busy():\n"
                "    t = time.process_time()\n"
                "    while time.process_time() - t < 0.3:\n"
                "        sum(i * i for i in range(1000))\n"
                "busy()\n");
        s.close();
        const ProcessRun rec = record(trace, {"--cpu-sample"}, {"/usr/bin/python3", script});
        QVERIFY2(rec.exitCode == 0, rec.err.constData());
        // By default the Python stacks of a thread that has them; the native ones on asking.
        const Profile python = samplesOf(trace);
        QVERIFY(python.total(script + "(2): busy") >= 150);
        QVERIFY(python.total("_PyEval_EvalFrameDefault") == 0);
        const Profile native = samplesOf(trace, {"--kind", "native"});
        QCOMPARE(native.all["kind"].toString(), QString("native"));
        QVERIFY(native.total("_PyEval_EvalFrameDefault") >= 150);
        QVERIFY(native.total(script + "(2): busy") == 0);
    }

    void kindMustBeKnown() {
        const ProcessRun r = runStrataCli({"samples", "--kind", "gpu", "x.strata"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("--kind expects python or native, got 'gpu'"));
    }
};

STRATA_TEST_MAIN(TestNativeSamples)
#include "tst_native_samples.moc"
