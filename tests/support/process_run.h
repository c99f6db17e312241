#pragma once
// A program run to its end for the tests that run strata-cli, strata or a stand-in: its exit code
// (-1: it did not end within the time given and was killed, -2: it crashed), stdout and stderr.
#include <QByteArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace strata::test {

struct ProcessRun {
    int exitCode = -1;
    QByteArray out, err;
};

ProcessRun runProcess(const QString& program, const QStringList& args,
                      const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment(),
                      int timeoutMs = 180000);

#ifdef STRATA_BINARY_DIR
// strata-cli (this build's) run to its end, 60 s at most: its exit code (-1 also when it crashed
// or did not end) and what it said on stderr.
struct CliRun {
    int exitCode = -1;
    QString err;
};
inline CliRun runCli(const QStringList& args,
                     const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
    const ProcessRun r =
        runProcess(QStringLiteral(STRATA_BINARY_DIR "/app/strata-cli"), args, env, 60000);
    return {r.exitCode == -2 ? -1 : r.exitCode, QString::fromUtf8(r.err)};
}
// The same with its stdout too, 180 s at most (-2: it crashed).
inline ProcessRun runStrataCli(const QStringList& args) {
    return runProcess(QStringLiteral(STRATA_BINARY_DIR "/app/strata-cli"), args);
}
#endif

} // namespace strata::test
