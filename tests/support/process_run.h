#pragma once
// A program run to its end for the tests that run strata-cli, strata or a stand-in: its exit code
// (-1: it did not end within the time given and was killed, -2: it crashed), stdout and stderr.
#include <QByteArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>

namespace strata::test {

struct ProcessRun {
    int exitCode = -1;
    QByteArray out, err;
};

ProcessRun runProcess(const QString& program, const QStringList& args,
                      const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment(),
                      int timeoutMs = 180000);

} // namespace strata::test
