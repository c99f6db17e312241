// The seeds' workflow on the stand-in CUPTI (issue 45, point 4): a training loop shaped like a
// PyTorch one (tests/data/python/fake_training.py) whose Linear.forward launches kernels through
// libfake_cuda_launch.so, recorded by Strata alone with the tests' collector: every kernel comes
// out launched from Linear.forward (fake_training.py line 17, by hand): with --python calls its
// launch nested in that frame, itself under train_step; with --python sample from the Python
// stack the collector takes as each launch begins.
#include "python_fixture.h"
#include "support/test_main.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace strata::test;

class TestPythonFakeCuda : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void launchesFromPython_data() {
        QTest::addColumn<QString>("mode");
        QTest::newRow("calls") << "calls";
        QTest::newRow("sample") << "sample"; // the stacks taken at each launch
    }
    void launchesFromPython() {
        QFETCH(QString, mode);
        const QString trace = dir_.filePath("fake-" + mode + ".strata");
        const ProcessRun rec =
            recordPython(trace,
                         {"--python", mode, "--collector", STRATA_COLLECTOR_FAKE_SO, "-e",
                          QString("FAKE_CUDA_LIBRARY=") + STRATA_FAKE_CUDA_SO},
                         "python3", {kPythonData + "/fake_training.py"});
        QVERIFY2(rec.exitCode == 0, rec.err.constData());
        const ProcessRun stats = runStrataCli({"stats", "--by", "call-site", "--json", trace});
        QCOMPARE(stats.exitCode, 0);
        const QJsonArray sites =
            QJsonDocument::fromJson(stats.out).object()["call_sites"].toArray();
        QCOMPARE(sites.size(), 1);
        const QJsonObject site = sites[0].toObject();
        QCOMPARE(site["site"].toString(), kPythonData + "/fake_training.py:17 forward");
        QCOMPARE(site["count"].toInt(), 6); // 3 steps x 2 layers
        QCOMPARE(site["kernels"].toArray().size(), 2);

        if (mode == "sample") return; // no python_function slices to nest in
        // The launches nest in Linear.forward, under Model.forward and train_step.
        const QString json = exportJson(trace);
        QVERIFY(!json.isEmpty());
        bool ok = false;
        const QString counts = checkTrace({"counts", json, "fake_training.py"}, &ok);
        QVERIFY2(ok, qPrintable(counts));
        QVERIFY2(counts.contains(R"("forward": 9)") && counts.contains(R"("train_step": 3)"),
                 qPrintable(counts));
        const QString nesting =
            checkTrace({"launches", json, "fake_training.py(17): forward"}, &ok);
        QVERIFY2(ok, qPrintable(nesting));
    }
};

STRATA_TEST_MAIN(TestPythonFakeCuda)
#include "tst_python_fake_cuda.moc"
