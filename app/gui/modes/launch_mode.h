#pragma once
// `strata --launch [-o OUT] [record options] -- CMD ARGS...`: the Launch dialog filled in;
// with --run the program runs at once; with --screenshot OUT.png the window (or, without --run,
// the dialog) is rendered once the run's trace has opened, and Strata exits. A launch that
// cannot start prints the dialog's message to stderr and exits with code 2.
#include <QCommandLineOption>
#include <QList>
#include <QSize>
#include <QString>
#include <QStringList>

class QCommandLineParser;

namespace strata {

struct LaunchModeOptions {
    QList<QCommandLineOption> all() const;
    QCommandLineOption launch{QStringLiteral("launch"),
                              QStringLiteral("Open the Launch dialog filled in with -- CMD ARGS.")};
    QCommandLineOption run{QStringLiteral("run"),
                           QStringLiteral("With --launch: run at once (no dialog).")};
    QCommandLineOption output{{QStringLiteral("o"), QStringLiteral("output")},
                              QStringLiteral("With --launch: the trace path template."),
                              QStringLiteral("OUT")};
    QCommandLineOption capture{QStringLiteral("capture"),
                               QStringLiteral("With --launch: activity groups (api,kernels,...)."),
                               QStringLiteral("LIST")};
    QCommandLineOption cwd{{QStringLiteral("C"), QStringLiteral("cwd")},
                           QStringLiteral("With --launch: the working directory."),
                           QStringLiteral("DIR")};
    QCommandLineOption env{{QStringLiteral("e"), QStringLiteral("env")},
                           QStringLiteral("With --launch: set NAME=VALUE (repeatable)."),
                           QStringLiteral("NAME=VALUE")};
    QCommandLineOption unset{{QStringLiteral("u"), QStringLiteral("unset")},
                             QStringLiteral("With --launch: remove NAME (repeatable)."),
                             QStringLiteral("NAME")};
    QCommandLineOption noCollector{QStringLiteral("no-collector"),
                                   QStringLiteral("With --launch: run without capture.")};
    QCommandLineOption duration{QStringLiteral("duration"),
                                QStringLiteral("With --launch: stop capturing after S seconds."),
                                QStringLiteral("S")};
    QCommandLineOption flushMs{QStringLiteral("flush-ms"),
                               QStringLiteral("With --launch: collector flush interval."),
                               QStringLiteral("MS")};
    QCommandLineOption captureRange{QStringLiteral("capture-range"),
                                    QStringLiteral("With --launch: NVTX range or cudaProfilerApi."),
                                    QStringLiteral("NAME")};
    QCommandLineOption gpuMetrics{
        QStringLiteral("gpu-metrics"),
        QStringLiteral("With --launch: sample the GPU's counters (default or metric names)."),
        QStringLiteral("SET")};
    QCommandLineOption kernelMetrics{
        QStringLiteral("kernel-metrics"),
        QStringLiteral("With --launch: measure the kernels whose names match REGEX."),
        QStringLiteral("REGEX")};
    QCommandLineOption liveFrames{
        QStringLiteral("live-frames"),
        QStringLiteral("With --launch --run --screenshot: measure the live window for S seconds "
                       "while the program runs (app/gui/modes/launch_live_frames.h)."),
        QStringLiteral("S")};
    QCommandLineOption remote{QStringLiteral("remote"),
                              QStringLiteral("With --launch: run on [USER@]HOST[:PORT] over ssh."),
                              QStringLiteral("HOST")};
    QCommandLineOption sshOption{QStringLiteral("ssh-option"),
                                 QStringLiteral("With --remote: an ssh -o option (repeatable)."),
                                 QStringLiteral("OPT")};
};

// Runs the launch mode (the parser has processed the arguments; `command` is CMD ARGS...);
// returns the exit code.
int runLaunchMode(const QCommandLineParser& parser, const LaunchModeOptions& o,
                  const QStringList& command, const QString& screenshot, QSize size);

} // namespace strata
