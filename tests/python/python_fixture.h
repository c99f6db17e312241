#pragma once
// What the Python recording tests share (issue 45): the interpreters to run (Debian's
// /usr/bin/python3 and pyenv's 3.10 to 3.13 under ~/.pyenv/versions/, a row each; a row whose
// interpreter this machine lacks skips, saying so), strata-cli record / export / info, and the
// independent checks of tests/data/python/check_python_trace.py (its last line "ok").
#include "support/process_run.h"

#include <QDir>
#include <QFileInfo>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QtTest>

namespace strata::test {

inline const QString kPythonData = QStringLiteral(STRATA_TEST_DATA "/python");

// Rows "python" (the interpreter's path, "" when missing) named by version.
inline void addInterpreterRows() {
    QTest::addColumn<QString>("python");
    QTest::newRow("debian") << (QFileInfo::exists("/usr/bin/python3") ? QString("/usr/bin/python3")
                                                                      : QString());
    const QDir pyenv(QDir::homePath() + "/.pyenv/versions");
    for (const char* version : {"3.10", "3.11", "3.12", "3.13"}) {
        QString path;
        for (const QString& d : pyenv.entryList({QString(version) + ".*"}, QDir::Dirs))
            if (QFileInfo::exists(pyenv.filePath(d + "/bin/python")))
                path = pyenv.filePath(d + "/bin/python");
        QTest::newRow(version) << path;
    }
}

#define REQUIRE_PYTHON(path)                                                                       \
    do {                                                                                           \
        if ((path).isEmpty())                                                                      \
            QSKIP(qPrintable(QString("this Python is not on this machine: ") +                     \
                             QTest::currentDataTag()));                                            \
    } while (0)

// strata-cli record -q -o OUT [options] -- PYTHON args...: its exit code and stderr.
inline ProcessRun recordPython(const QString& out, const QStringList& options,
                               const QString& python, const QStringList& args) {
    return runStrataCli(QStringList{"record", "-q", "-o", out} + options + QStringList{"--"} +
                        QStringList{python} + args);
}

inline QString exportJson(const QString& strata) {
    const QString json = strata + ".json";
    const ProcessRun r = runStrataCli({"export", "--format", "perfetto-json", strata, json});
    return r.exitCode == 0 ? json : QString();
}

inline QString infoText(const QString& strata) {
    return QString::fromUtf8(runStrataCli({"info", strata}).out);
}

// tests/data/python/check_python_trace.py ARGS: its output; `ok` when its last line is "ok".
inline QString checkTrace(const QStringList& args, bool* ok) {
    const ProcessRun r =
        runProcess("python3", QStringList{kPythonData + "/check_python_trace.py"} + args);
    const QString out = QString::fromUtf8(r.out + r.err).trimmed();
    *ok = r.exitCode == 0 && out.endsWith("ok");
    return out;
}

} // namespace strata::test
