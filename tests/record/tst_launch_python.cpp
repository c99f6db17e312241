// The Launch dialog's Python and native-stack choices (issue 45): "Python: Sampled stacks | Every
// call | Off" with its rate (enabled for sampling only), "Native stacks: sample at N Hz (0 =
// off)"; and its GPU metrics (issue 51: "sample the GPU's counters: SET every N µs"); what is
// chosen reaches the launcher's RecordOptions and is kept with a saved configuration. Offscreen,
// with the dialog's real widgets.
#include "launch/launch_config.h"
#include "launch/launch_dialog.h"
#include "support/test_main.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QtTest>

using namespace strata;

class TestLaunchPython : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    RecordOptions optionsOf(const LaunchConfig& c) {
        RecordOptions o;
        QString error;
        if (!toRecordOptions(c, QDateTime::currentDateTime(), &o, &error))
            qWarning("%s", qPrintable(error));
        return o;
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void choicesReachRecordOptions() {
        LaunchDialog d;
        auto* python = d.findChild<QComboBox*>(QStringLiteral("python"));
        auto* pythonHz = d.findChild<QSpinBox*>(QStringLiteral("pythonSampleHz"));
        auto* cpuHz = d.findChild<QSpinBox*>(QStringLiteral("cpuSampleHz"));
        QVERIFY(python && pythonHz && cpuHz);
        // As strata-cli record: Python sampled at 1 kHz, native stacks off.
        QCOMPARE(python->currentText(), QStringLiteral("Sampled stacks"));
        QCOMPARE(python->count(), 3);
        QCOMPARE(python->itemText(1), QStringLiteral("Every call"));
        QCOMPARE(python->itemText(2), QStringLiteral("Off"));
        QVERIFY(pythonHz->isEnabled());
        QCOMPARE(pythonHz->value(), 1000);
        QCOMPARE(cpuHz->value(), 0);
        LaunchConfig c = d.config();
        c.executable = QStringLiteral("/bin/true");
        c.output = dir_.filePath(QStringLiteral("t-{pid}.strata"));
        RecordOptions o = optionsOf(c);
        QCOMPARE(int(o.python), int(PythonRecording::Sample));
        QCOMPARE(o.pythonSampleHz, 1000);
        QCOMPARE(o.cpuSampleHz, 0);

        // Every call: the rate means nothing then.
        python->setCurrentIndex(1);
        QVERIFY(!pythonHz->isEnabled());
        cpuHz->setValue(99);
        c = d.config();
        QCOMPARE(int(c.python), int(PythonRecording::Calls));
        c.executable = QStringLiteral("/bin/true");
        c.output = dir_.filePath(QStringLiteral("t-{pid}.strata"));
        o = optionsOf(c);
        QCOMPARE(int(o.python), int(PythonRecording::Calls));
        QCOMPARE(o.cpuSampleHz, 99);

        // Off, then sampled again at 250 Hz.
        python->setCurrentIndex(2);
        QCOMPARE(int(d.config().python), int(PythonRecording::Off));
        python->setCurrentIndex(0);
        QVERIFY(pythonHz->isEnabled());
        pythonHz->setValue(250);
        c = d.config();
        c.executable = QStringLiteral("/bin/true");
        c.output = dir_.filePath(QStringLiteral("t-{pid}.strata"));
        o = optionsOf(c);
        QCOMPARE(int(o.python), int(PythonRecording::Sample));
        QCOMPARE(o.pythonSampleHz, 250);
    }

    // Off by default; on, the set (empty: the default one) and the interval reach the launcher,
    // a bad name is the dialog's error, and a saved configuration keeps them.
    void gpuMetricsReachRecordOptions() {
        LaunchDialog d;
        auto* on = d.findChild<QCheckBox*>(QStringLiteral("gpuMetrics"));
        auto* set = d.findChild<QLineEdit*>(QStringLiteral("gpuMetricSet"));
        auto* us = d.findChild<QSpinBox*>(QStringLiteral("gpuMetricsIntervalUs"));
        QVERIFY(on && set && us);
        QVERIFY(!on->isChecked() && !set->isEnabled() && !us->isEnabled());
        const auto run = [&] {
            LaunchConfig c = d.config();
            c.executable = QStringLiteral("/bin/true");
            c.output = dir_.filePath(QStringLiteral("t-{pid}.strata"));
            return c;
        };
        QVERIFY(optionsOf(run()).gpuMetrics.empty());
        on->setChecked(true);
        QVERIFY(set->isEnabled() && us->isEnabled());
        QCOMPARE(set->text(), QStringLiteral("default"));
        us->setValue(250);
        RecordOptions o = optionsOf(run());
        QCOMPARE(o.gpuMetrics, std::string("default"));
        QCOMPARE(o.gpuMetricsIntervalUs, 250);
        set->setText(QStringLiteral(" sm__cycles_active.avg,dram__bytes_read.sum "));
        QCOMPARE(optionsOf(run()).gpuMetrics,
                 std::string("sm__cycles_active.avg,dram__bytes_read.sum"));
        set->clear();
        QCOMPARE(optionsOf(run()).gpuMetrics, std::string("default"));
        set->setText(QStringLiteral("not a metric!"));
        RecordOptions bad;
        QString error;
        QVERIFY(!toRecordOptions(run(), QDateTime::currentDateTime(), &bad, &error));
        QVERIFY2(error.contains(QStringLiteral("--gpu-metrics")), qPrintable(error));

        QSettings().clear();
        LaunchConfig a = run();
        a.name = QStringLiteral("metrics");
        a.gpuMetrics = QStringLiteral("default");
        LaunchConfigStore::save(a);
        LaunchConfig b;
        QVERIFY(LaunchConfigStore::load(QStringLiteral("metrics"), &b));
        QCOMPARE(b.gpuMetrics, QStringLiteral("default"));
        QCOMPARE(b.gpuMetricsIntervalUs, 250);
        LaunchDialog again;
        again.setConfig(b);
        QVERIFY(again.findChild<QCheckBox*>(QStringLiteral("gpuMetrics"))->isChecked());
        QCOMPARE(again.config().gpuMetricsIntervalUs, 250);
    }

    // Off by default; on, the expression and the set (empty: the default one) reach the
    // launcher, an empty or bad expression is the dialog's error, a saved configuration keeps
    // them.
    void kernelMetricsReachRecordOptions() {
        LaunchDialog d;
        auto* on = d.findChild<QCheckBox*>(QStringLiteral("kernelMetrics"));
        auto* regex = d.findChild<QLineEdit*>(QStringLiteral("kernelMetricsRegex"));
        auto* set = d.findChild<QLineEdit*>(QStringLiteral("kernelMetricSet"));
        QVERIFY(on && regex && set);
        QVERIFY(!on->isChecked() && !regex->isEnabled() && !set->isEnabled());
        const auto run = [&] {
            LaunchConfig c = d.config();
            c.executable = QStringLiteral("/bin/true");
            c.output = dir_.filePath(QStringLiteral("t-{pid}.strata"));
            return c;
        };
        QVERIFY(optionsOf(run()).kernelMetrics.empty());
        on->setChecked(true);
        QVERIFY(regex->isEnabled() && set->isEnabled());
        QVERIFY(!d.problems().options.isEmpty()); // checked, no expression yet
        regex->setText(QStringLiteral(" gemm|softmax "));
        QVERIFY(d.problems().options.isEmpty());
        RecordOptions o = optionsOf(run());
        QCOMPARE(o.kernelMetrics, std::string("gemm|softmax"));
        QCOMPARE(o.kernelMetricsSet, std::string("default"));
        set->setText(QStringLiteral("dram__bytes_read.sum,gpu__time_duration.sum"));
        QCOMPARE(optionsOf(run()).kernelMetricsSet,
                 std::string("dram__bytes_read.sum,gpu__time_duration.sum"));
        regex->setText(QStringLiteral("gemm("));
        RecordOptions bad;
        QString error;
        QVERIFY(!toRecordOptions(run(), QDateTime::currentDateTime(), &bad, &error));
        QVERIFY2(error.contains(QStringLiteral("--kernel-metrics")), qPrintable(error));

        QSettings().clear();
        regex->setText(QStringLiteral("gemm"));
        LaunchConfig a = run();
        a.name = QStringLiteral("kernels");
        LaunchConfigStore::save(a);
        LaunchConfig b;
        QVERIFY(LaunchConfigStore::load(QStringLiteral("kernels"), &b));
        QCOMPARE(b.kernelMetrics, QStringLiteral("gemm"));
        QCOMPARE(b.kernelMetricsSet, QStringLiteral("dram__bytes_read.sum,gpu__time_duration.sum"));
        LaunchDialog again;
        again.setConfig(b);
        QVERIFY(again.findChild<QCheckBox*>(QStringLiteral("kernelMetrics"))->isChecked());
        QCOMPARE(again.config().kernelMetrics, QStringLiteral("gemm"));
    }

    void keptWithASavedConfiguration() {
        QSettings().clear();
        LaunchConfig a;
        a.name = QStringLiteral("py");
        a.executable = QStringLiteral("/bin/true");
        a.python = PythonRecording::Calls;
        a.pythonSampleHz = 333;
        a.cpuSampleHz = 50;
        LaunchConfigStore::save(a);
        LaunchConfig b;
        QVERIFY(LaunchConfigStore::load(QStringLiteral("py"), &b));
        QCOMPARE(b, a);
        // The dialog shows it and gives it back.
        LaunchDialog d;
        d.setConfig(b);
        QCOMPARE(d.findChild<QComboBox*>(QStringLiteral("python"))->currentText(),
                 QStringLiteral("Every call"));
        QCOMPARE(d.findChild<QSpinBox*>(QStringLiteral("cpuSampleHz"))->value(), 50);
        QCOMPARE(d.config(), a);
        // A configuration saved before these fields existed: the defaults.
        QSettings s;
        s.remove(QStringLiteral("launch/configs"));
        LaunchConfig old;
        old.name = QStringLiteral("old");
        LaunchConfigStore::save(old);
        QSettings raw;
        const int n = raw.beginReadArray(QStringLiteral("launch/configs"));
        raw.endArray();
        QCOMPARE(n, 1);
        raw.beginWriteArray(QStringLiteral("launch/configs"), 1);
        raw.setArrayIndex(0);
        for (const char* key : {"python", "pythonSampleHz", "cpuSampleHz"})
            raw.remove(QString::fromLatin1(key));
        raw.endArray();
        LaunchConfig back;
        QVERIFY(LaunchConfigStore::load(QStringLiteral("old"), &back));
        QCOMPARE(int(back.python), int(PythonRecording::Sample));
        QCOMPARE(back.pythonSampleHz, 1000);
        QCOMPARE(back.cpuSampleHz, 0);
    }
};

STRATA_TEST_MAIN(TestLaunchPython)
#include "tst_launch_python.moc"
