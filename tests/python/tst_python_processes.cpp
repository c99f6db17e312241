// The processes of a Python run and its faults (issue 45): multiprocessing children (fork and
// spawn) each in a file of its own; a program that installs its own profiler, one killed by a
// signal, an interpreter the agent does not support: the recording goes on and says why.
#include "python_fixture.h"
#include "support/test_main.h"

using namespace strata::test;

class TestPythonProcesses : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    QString path(const QString& name) const { return dir_.filePath(name); }

    // The functions of `program` in `trace` and their slice counts, as JSON text.
    static QString counts(const QString& trace, const QString& program) {
        const QString json = exportJson(trace);
        if (json.isEmpty()) return "export failed";
        bool ok = false;
        const QString out = checkTrace({"counts", json, program}, &ok);
        return ok ? out.section('\n', 0, 0) : out;
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // A child started by fork and one started by spawn: each in a file of its own ({pid}),
    // child_work once and square 7 times in each; the forked one says whose child it is.
    void children_data() { addInterpreterRows(); }
    void children() {
        QFETCH(QString, python);
        REQUIRE_PYTHON(python);
        const QString out = path(QString("children-") + QTest::currentDataTag());
        QVERIFY(QDir().mkpath(out));
        const ProcessRun rec = recordPython(out + "/r-{pid}.strata", {"--python", "calls"}, python,
                                            {kPythonData + "/children.py"});
        QVERIFY2(rec.exitCode == 0, rec.err.constData());
        int forked = 0, spawned = 0, parents = 0;
        for (const QString& f : QDir(out).entryList({"*.strata"})) {
            const QString trace = out + "/" + f;
            const QString info = infoText(trace);
            const QString c = counts(trace, "children.py");
            if (c.contains(R"("child_work": 1)")) {
                QVERIFY2(c.contains(R"("square": 7)"), qPrintable(f + ": " + c));
                (info.contains("a child forked from") ? forked : spawned)++;
            } else if (c.contains(R"("<module>": 1)")) {
                ++parents; // the program itself (spawn's resource tracker runs no children.py)
                QVERIFY2(!c.contains("square"), qPrintable(f + ": " + c));
            }
        }
        QCOMPARE(forked, 1);
        QCOMPARE(spawned, 1);
        QCOMPARE(parents, 1);
    }

    // A child forked while the parent samples: its file names its own stacks (the parent's
    // callsites are the parent file's, written again in the child's).
    void forkedChildSampled_data() { addInterpreterRows(); }
    void forkedChildSampled() {
        QFETCH(QString, python);
        REQUIRE_PYTHON(python);
        const QString out = path(QString("forked-") + QTest::currentDataTag());
        QVERIFY(QDir().mkpath(out));
        const ProcessRun rec =
            recordPython(out + "/r-{pid}.strata", {}, python, {kPythonData + "/forked_sampled.py"});
        QVERIFY2(rec.exitCode == 0, rec.err.constData());
        int children = 0;
        for (const QString& f : QDir(out).entryList({"*.strata"})) {
            const QString trace = out + "/" + f;
            if (!infoText(trace).contains("a child forked from")) continue;
            ++children;
            const ProcessRun s = runStrataCli({"samples", trace});
            QVERIFY2(s.exitCode == 0, s.err.constData());
            QVERIFY2(s.out.contains("forked_sampled.py(7): child_spin"), s.out.constData());
        }
        QCOMPARE(children, 1);
    }

    // cProfile takes the thread's profile function up to 3.11: the program runs on, what came
    // before is recorded, and the trace says what happened. From 3.12 cProfile uses
    // sys.monitoring, beside the agent's hook: both see after().
    void ownProfiler_data() { addInterpreterRows(); }
    void ownProfiler() {
        QFETCH(QString, python);
        REQUIRE_PYTHON(python);
        const QString trace = path(QString("own-") + QTest::currentDataTag() + ".strata");
        const ProcessRun rec =
            recordPython(trace, {"--python", "calls"}, python, {kPythonData + "/own_profiler.py"});
        QVERIFY2(rec.exitCode == 0, rec.err.constData());
        const QString info = infoText(trace);
        const QString c = counts(trace, "own_profiler.py");
        QVERIFY2(c.contains(R"("before": 1)"), qPrintable(c));
        const ProcessRun version =
            runProcess(python, {"-c", "import sys; print(sys.version_info >= (3, 12))"});
        if (version.out.trimmed() == "True") {
            QVERIFY2(c.contains(R"("after": 1)"), qPrintable(c));
            QVERIFY2(!info.contains("python_note"), qPrintable(info));
        } else {
            QVERIFY2(info.contains("python_note") &&
                         info.contains("set a profile function of its own"),
                     qPrintable(info));
            QVERIFY2(!c.contains("after"), qPrintable(c));
        }
    }

    // SIGTERM ends the program: the four finished() calls before it are in the trace.
    void killedBySignal_data() { addInterpreterRows(); }
    void killedBySignal() {
        QFETCH(QString, python);
        REQUIRE_PYTHON(python);
        const QString trace = path(QString("killed-") + QTest::currentDataTag() + ".strata");
        const ProcessRun rec =
            recordPython(trace, {"--python", "calls"}, python, {kPythonData + "/killed.py"});
        QCOMPARE(rec.exitCode, 128 + 15);
        QVERIFY2(counts(trace, "killed.py").contains(R"("finished": 4)"),
                 qPrintable(counts(trace, "killed.py")));
    }

    // Pythons the agent does not support: the program runs as it would, and the trace says
    // why its Python is missing.
    void unsupported_data() {
        QTest::addColumn<QString>("python");
        QTest::addColumn<QString>("why");
        const QString pyenv = QDir::homePath() + "/.pyenv/versions/";
        for (const char* v : {"3.9", "2.7"}) {
            QString found;
            for (const QString& d : QDir(pyenv).entryList({QString(v) + ".*"}, QDir::Dirs))
                found = pyenv + d + "/bin/python";
            QTest::newRow(v) << found
                             << QString("not recorded: Python %1 is not supported (CPython 3.10 "
                                        "to 3.13)")
                                    .arg(v);
        }
    }
    void unsupported() {
        QFETCH(QString, python);
        QFETCH(QString, why);
        REQUIRE_PYTHON(python);
        const QString trace = path(QString("old-") + QTest::currentDataTag() + ".strata");
        const ProcessRun rec =
            recordPython(trace, {"--python", "calls"}, python, {"-c", "print(6 * 7)"});
        QCOMPARE(rec.exitCode, 0);
        const QString info = infoText(trace);
        QVERIFY2(info.contains(why), qPrintable(info));
    }
};

STRATA_TEST_MAIN(TestPythonProcesses)
#include "tst_python_processes.moc"
