#pragma once
// A program run to its end for the CLI tests: its exit code (-1: timed out and killed, -2: it
// crashed), stdout and stderr.
#include <QByteArray>
#include <QProcess>
#include <QStringList>

namespace strata::test {

struct ProcessRun {
    int exitCode = -1;
    QByteArray out, err;
};

inline ProcessRun
runProcess(const QString& program, const QStringList& args,
           const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment(),
           int timeoutMs = 180000) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    ProcessRun r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = "timed out";
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

} // namespace strata::test
