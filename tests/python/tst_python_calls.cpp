// --python calls (issue 45): every Python call of every thread as python_function slices,
// compared with an independent trace of the same program made by a profile function written in
// Python (tests/data/python/reference_profile.py), on every CPython this machine has.
#include "python_fixture.h"
#include "support/test_main.h"

using namespace strata::test;

class TestPythonCalls : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    QString path(const QString& name) const { return dir_.filePath(name); }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // A function calling a sleeping and a spinning function 5 times on the main thread, 3 times
    // on a second: exactly the reference's slices, callers and counts, each sleeper and
    // spinner inside the program's own perf_counter_ns() bracket of it, a sleeper at least its
    // 4 ms sleep.
    void knownStructure_data() { addInterpreterRows(); }
    void knownStructure() {
        QFETCH(QString, python);
        REQUIRE_PYTHON(python);
        const QString tag = QTest::currentDataTag();
        const QString trace = path("known-" + tag + ".strata");
        const QString measured = path("known-" + tag + ".json");
        const ProcessRun rec = recordPython(trace, {"--python", "calls"}, python,
                                            {kPythonData + "/known_calls.py", measured});
        QVERIFY2(rec.exitCode == 0, rec.err.constData());
        QVERIFY2(infoText(trace).contains(QRegularExpression("python +calls \\(CPython 3")),
                 qPrintable(infoText(trace)));
        const QString reference = path("known-ref-" + tag + ".json");
        const ProcessRun ref =
            runProcess(python, {kPythonData + "/reference_profile.py", reference,
                                kPythonData + "/known_calls.py", path("known-ref-measured.json")});
        QVERIFY2(ref.exitCode == 0, ref.err.constData());
        const QString json = exportJson(trace);
        QVERIFY(!json.isEmpty());
        bool ok = false;
        const QString out = checkTrace({"calls", json, reference, "known_calls.py", measured}, &ok);
        QVERIFY2(ok, qPrintable(out));
        // The counts by hand too: work once per thread, 5 + 3 sleeper and spinner calls.
        const QString counts = checkTrace({"counts", json, "known_calls.py"}, &ok);
        QVERIFY2(ok, qPrintable(counts));
        QVERIFY2(counts.startsWith(
                     R"({"<module>": 1, "main": 1, "sleeper": 8, "spinner": 8, "work": 2})"),
                 qPrintable(counts));
    }

    // Recursion 10,000 deep, a generator, coroutines, exceptions unwinding 200 frames, and a
    // thread started before tracing began (by a .pth file: site runs those before
    // sitecustomize): the reference's slices, nested, and the early thread's frames opened
    // when tracing began.
    void edgeCases_data() { addInterpreterRows(); }
    void edgeCases() {
        QFETCH(QString, python);
        REQUIRE_PYTHON(python);
        const QString tag = QTest::currentDataTag();
        // A user site with a .pth file that starts early_thread.
        const QString userBase = path("userbase-" + tag);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("PYTHONUSERBASE", userBase);
        const ProcessRun site = runProcess(python, {"-m", "site", "--user-site"}, env);
        const QString siteDir = QString::fromUtf8(site.out).trimmed();
        QVERIFY2(QDir().mkpath(siteDir), qPrintable(siteDir));
        QFile::remove(siteDir + "/early_thread.py");
        QVERIFY(QFile::copy(kPythonData + "/early_thread.py", siteDir + "/early_thread.py"));
        QFile pth(siteDir + "/early.pth");
        QVERIFY(pth.open(QIODevice::WriteOnly));
        pth.write("import early_thread\n");
        pth.close();

        const QString trace = path("edge-" + tag + ".strata");
        const ProcessRun rec =
            recordPython(trace, {"--python", "calls", "-e", "PYTHONUSERBASE=" + userBase}, python,
                         {kPythonData + "/edge_cases.py"});
        QVERIFY2(rec.exitCode == 0, rec.err.constData());
        const QString reference = path("edge-ref-" + tag + ".json");
        const ProcessRun ref = runProcess(
            python,
            {kPythonData + "/reference_profile.py", reference, kPythonData + "/edge_cases.py"},
            env);
        QVERIFY2(ref.exitCode == 0, ref.err.constData());
        const QString json = exportJson(trace);
        QVERIFY(!json.isEmpty());
        bool ok = false;
        QString out = checkTrace({"calls", json, reference, "edge_cases.py"}, &ok);
        QVERIFY2(ok, qPrintable(out));
        out = checkTrace({"counts", json, "edge_cases.py"}, &ok);
        QVERIFY2(ok, qPrintable(out));
        // By hand: recurse(10000) is 10,001 frames; 50 yields and the end are 51 resumptions
        // of numbers; 5 leaves resumed twice; 3 x 201 deep_raise frames unwound.
        for (const char* count : {R"("recurse": 10001)", R"("numbers": 51)", R"("leaf": 10)",
                                  R"("deep_raise": 603)", R"("catch": 3)"})
            QVERIFY2(out.contains(count), qPrintable(count + QString(" in ") + out));
        out = checkTrace({"early", json}, &ok);
        QVERIFY2(ok, qPrintable(out));
    }
};

STRATA_TEST_MAIN(TestPythonCalls)
#include "tst_python_calls.moc"
