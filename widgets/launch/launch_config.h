#pragma once
// A launch configuration: what the Launch dialog edits, what Profile > Run Last re-runs and what
// is saved by name (QSettings, "launch/configs/<name>/..."). Turned into the launcher's
// RecordOptions (core/record) by toRecordOptions(): the GUI has no second copy of the launcher.
#include "record/record_options.h"

#include <QDateTime>
#include <QString>
#include <QStringList>

namespace strata {

struct LaunchConfig {
    QString name;             // empty for an unsaved one
    QString executable;       // a path, or a name looked up in PATH
    QString arguments;        // split as a POSIX shell splits words (util/shell_words.h)
    QString workingDirectory; // empty = Strata's own (the folder it was started in)
    QString environment;      // NAME=VALUE per line (set in the target)
    QStringList unset;        // variable names removed from the target's environment
    QStringList capture;      // activity groups (captureGroups()); empty = all
    int wait = -1, warmup = -1, active = -1, repeat = -1; // the schedule (-1 = off)
    QString stepName;
    QString captureRange; // NVTX range name or "cudaProfilerApi"
    double durationS = 0; // 0 = no limit
    int flushMs = 0;      // 0 = the collector's default
    // Output path template; empty = defaultOutputTemplate(). {time} is the start time.
    QString output;
    bool withoutCapture = false; // run without the collector (only the run record is kept)
    // Draw the trace while the program runs (RecordOptions::live; launch/live_feed.h).
    bool live = true;
    // The target's Python (RecordOptions::python): stacks sampled at pythonSampleHz, every call,
    // or nothing; and its native stacks sampled at cpuSampleHz (0 = off).
    PythonRecording python = PythonRecording::Sample;
    int pythonSampleHz = 1000;
    int cpuSampleHz = 0;
    // The GPU's counters over time (RecordOptions::gpuMetrics, strata-cli record --gpu-metrics):
    // "default" or a comma list of CUPTI metric names, empty = off; sampled every
    // gpuMetricsIntervalUs.
    QString gpuMetrics;
    int gpuMetricsIntervalUs = 100;
    // Per-kernel counters (RecordOptions::kernelMetrics, strata-cli record --kernel-metrics): the
    // expression the measured kernels' names match, empty = off; the set, "default" or names.
    QString kernelMetrics;
    QString kernelMetricsSet;
    // Run on another machine over ssh (strata-cli record --remote, record/remote_record.h):
    // "[user@]host[:port]", empty = this machine. The executable and working directory are then
    // that machine's; the trace file is this one's.
    QString remote;
    QString remoteDir;      // Strata's folder there; empty = ~/.cache/strata/remote
    QStringList sshOptions; // each passed to ssh as -o OPTION
    bool keepRemote = false;
    friend bool operator==(const LaunchConfig&, const LaunchConfig&) = default;
};

// Problems with a configuration, one per field (empty = fine), as the dialog shows them while the
// user types. ok() when Run may be pressed.
struct LaunchProblems {
    QString executable, arguments, workingDirectory, environment, output, options, remote;
    // The collector is not built here (no CUDA toolkit when Strata was built) and the
    // configuration asks for capture: it can run with withoutCapture.
    QString collector;
    bool ok() const {
        return executable.isEmpty() && arguments.isEmpty() && workingDirectory.isEmpty() &&
               environment.isEmpty() && output.isEmpty() && options.isEmpty() &&
               collector.isEmpty() && remote.isEmpty();
    }
    QString first() const; // the first problem, for a status line or stderr
};

// The words of `arguments`, or an error naming the open quote and where.
QStringList splitArguments(const QString& arguments, QString* error);
// The folder the run works in, absolute: c.workingDirectory, else Strata's own.
QString runDirectory(const LaunchConfig& c);
// core's defaultOutputTemplate ("<folder>/<program>-{time}-{host}-{pid}.strata"), the folder
// being the run's working directory (runDirectory), never the program's own folder.
QString defaultOutputTemplate(const LaunchConfig& c);
// Checks the files and folders too: executable missing / not executable / a folder, working
// directory missing, output folder missing or not writable, environment lines not NAME=VALUE.
LaunchProblems checkLaunchConfig(const LaunchConfig& c);
// The launcher's options for `c` ({time} expanded with `start`), stdout/stderr captured for the
// console. False (and *error, the first problem) when the configuration cannot run.
bool toRecordOptions(const LaunchConfig& c, const QDateTime& start, RecordOptions* out,
                     QString* error);

// A run on c.remote: strata-cli's arguments (record --remote ... -o OUT -- CMD ARGS, {time}
// expanded with `start`) and the options they carry. False (and *error) when it cannot run.
bool toRemoteArguments(const LaunchConfig& c, const QDateTime& start, QStringList* args,
                       RecordOptions* options, QString* error);

// Saved configurations (QSettings), and the last one run.
class LaunchConfigStore {
public:
    static QStringList names(); // sorted
    static bool load(const QString& name, LaunchConfig* out);
    static void save(const LaunchConfig& c); // by c.name (replaces)
    static void remove(const QString& name);
    // False if `to` exists or `from` does not.
    static bool rename(const QString& from, const QString& to);
    // A free name "<name> (copy)", "<name> (copy 2)", ...
    static QString copyName(const QString& name);
    static void setLast(const LaunchConfig& c); // kept even when unnamed
    static bool last(LaunchConfig* out);
    static QStringList recentExecutables(); // most recent first, at most 10
    static void addRecentExecutable(const QString& path);
};

} // namespace strata
