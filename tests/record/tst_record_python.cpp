// `strata-cli record --python MODE` and `--cpu-sample[=HZ]` (issue 45): what the target's
// collector is told ($STRATA_PYTHON, $STRATA_CPU_SAMPLE, as the fake target sees them), and a
// value it does not know refused with a clear message and exit 2 before anything runs.
#include "support/launcher_fixture.h"
#include "support/test_main.h"

#include <QtTest>

using namespace strata;

class TestRecordPython : public QObject, LauncherFiles {
    Q_OBJECT
    // The STRATA_PYTHON and STRATA_CPU_SAMPLE lines the target saw ("-" for one it did not).
    QString seen(const QStringList& options, const char* name) {
        const std::string envFile = path(name);
        QStringList args{"record", "-q", "-f", "-o", QString::fromStdString(path("py.strata"))};
        args << options << "--" << QString::fromStdString(kFakeTarget) << "--env-to"
             << QString::fromStdString(envFile);
        const CliRun r = runCli(args, cliEnv());
        if (r.exitCode != 0) return "exit " + QString::number(r.exitCode) + ": " + r.err;
        const std::string env = readAll(envFile);
        auto value = [&](const std::string& key) {
            const size_t at = env.find(key + "=");
            if (at == std::string::npos) return QString("-");
            const size_t from = at + key.size() + 1;
            return QString::fromStdString(env.substr(from, env.find('\n', from) - from));
        };
        return value("STRATA_PYTHON") + " " + value("STRATA_CPU_SAMPLE");
    }

private slots:
    void initTestCase() { makeFakeCollector(); }

    void modesReachTheTarget_data() {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QString>("seen");
        // Python sampled at 1 kHz by default; native stacks only when asked (1 kHz bare). Off
        // leaves STRATA_PYTHON unset (contract/collector_env.h: unset reads as off).
        QTest::newRow("default") << QStringList{} << "sample=1000 -";
        QTest::newRow("calls") << QStringList{"--python", "calls"} << "calls -";
        QTest::newRow("off") << QStringList{"--python", "off"} << "- -";
        QTest::newRow("sample at 250 Hz")
            << QStringList{"--python", "sample=250"} << "sample=250 -";
        QTest::newRow("cpu sample bare") << QStringList{"--cpu-sample"} << "sample=1000 1000";
        QTest::newRow("cpu sample at 99 Hz")
            << QStringList{"--python", "off", "--cpu-sample=99"} << "- 99";
    }
    void modesReachTheTarget() {
        QFETCH(QStringList, options);
        QFETCH(QString, seen);
        QCOMPARE(this->seen(options, QTest::currentDataTag()), seen);
    }

    void badValuesAreRefused_data() {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QString>("message");
        QTest::newRow("python bogus")
            << QStringList{"--python", "bogus"}
            << "--python expects off, calls, sample or sample=HZ (1..10000), got 'bogus'";
        QTest::newRow("python rate 0")
            << QStringList{"--python", "sample=0"}
            << "--python expects off, calls, sample or sample=HZ (1..10000), got 'sample=0'";
        QTest::newRow("python without a value takes the next argument")
            << QStringList{"--python"}
            << "--python expects off, calls, sample or sample=HZ (1..10000), got '--'";
        QTest::newRow("cpu sample not a number")
            << QStringList{"--cpu-sample=fast"}
            << "--cpu-sample expects a rate of 1..10000 Hz, got 'fast'";
        QTest::newRow("cpu sample too fast")
            << QStringList{"--cpu-sample=20000"}
            << "--cpu-sample expects a rate of 1..10000 Hz, got '20000'";
    }
    void badValuesAreRefused() {
        QFETCH(QStringList, options);
        QFETCH(QString, message);
        QStringList args{"record"};
        args << options << "--" << QString::fromStdString(kFakeTarget);
        const CliRun r = runCli(args, cliEnv());
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("strata-cli record: " + message), qPrintable(r.err));
    }

    void usageSaysSo() {
        const auto r = test::runStrataCli({"record", "--help"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("--python off|calls|sample[=HZ]  the target's Python: every call, "
                               "or its stacks sampled"));
        QVERIFY(r.out.contains("--cpu-sample[=HZ]      sample native stacks (default 1000 Hz "
                               "when given)"));
    }
};

STRATA_TEST_GUILESS_MAIN(TestRecordPython)
#include "tst_record_python.moc"
